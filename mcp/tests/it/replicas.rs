//! Two `toolpack-mcp serve --http --stateless` replicas, each with its own data
//! directory, on one real PostgreSQL database: what one saves the other reads, 40
//! concurrent saves across both lose nothing, and a database outage answers the storage
//! error in time while other tools keep answering, then heals with no restart.

use crate::common::stateless::{StatelessServer, serve, tool_call_result};

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use toolpack_testkit::postgres::{PASSWORD, PgCluster};

const TOKEN: &str = "replica-test-token";

/// One replica: the process (killed on drop), its URL and its own data directory.
struct Replica {
    server: StatelessServer,
    _data: tempfile::TempDir,
}

async fn replica(database_url: &str) -> Replica {
    let data = tempfile::tempdir().unwrap();
    let env = [
        ("TOOLPACK_DATABASE_URL", database_url.to_owned()),
        ("TOOLPACK_DATA_DIR", data.path().display().to_string()),
    ];
    Replica {
        server: serve(TOKEN, &[], &env).await,
        _data: data,
    }
}

/// Calls `tool` on `replica`; the structured result and whether it is an error.
async fn call(replica: &Replica, tool: &str, arguments: Value) -> (bool, Value) {
    let result = tool_call_result(&replica.server.base, TOKEN, tool, arguments).await;
    (
        result["isError"] == json!(true),
        result["structuredContent"].clone(),
    )
}

async fn save(replica: &Replica, key: &str) -> (bool, Value) {
    call(
        replica,
        "save_user_variable",
        json!({"key": key, "type": "preference", "value": format!("value of {key}")}),
    )
    .await
}

async fn keys(replica: &Replica) -> Vec<String> {
    let (is_error, body) = call(replica, "get_user_variables", json!({})).await;
    assert!(!is_error, "{body}");
    body["variables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["key"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_replicas_share_saved_places_and_survive_a_database_outage() {
    let Some(cluster) = PgCluster::start() else {
        return;
    };
    let url = cluster.create_database();
    let (one, two) = (replica(&url).await, replica(&url).await);

    // A save through one is read through the other.
    assert!(!save(&one, "home").await.0);
    assert_eq!(keys(&two).await, ["home"]);

    // 40 concurrent saves spread over both lose nothing.
    let saves = (0..40).map(|i| {
        let target = if i % 2 == 0 { &one } else { &two };
        async move { save(target, &format!("k{i:02}")).await }
    });
    for (is_error, body) in futures_util::future::join_all(saves).await {
        assert!(!is_error, "{body}");
    }
    let mut expected: Vec<String> = (0..40).map(|i| format!("k{i:02}")).collect();
    expected.push("home".to_owned());
    expected.sort();
    assert_eq!(keys(&one).await, expected);
    assert_eq!(keys(&two).await, expected);

    // The database goes down mid-run.
    cluster.stop_server();
    for replica in [&one, &two] {
        let started = Instant::now();
        let (is_error, body) = save(replica, "during").await;
        assert!(started.elapsed() < Duration::from_secs(10));
        assert!(is_error, "{body}");
        assert_eq!(body["error"]["code"], "storage-error", "{body}");
        assert!(!body.to_string().contains(PASSWORD));
        let (is_error, body) = call(
            replica,
            "stationToilets",
            json!({"stationName": "Abbey Wood"}),
        )
        .await;
        assert!(!is_error, "other tools keep answering: {body}");
    }

    // It comes back: the replicas recover by themselves, and nothing was lost.
    cluster.start_server();
    assert!(!save(&two, "after").await.0);
    expected.push("after".to_owned());
    expected.sort();
    assert_eq!(keys(&one).await, expected);
}
