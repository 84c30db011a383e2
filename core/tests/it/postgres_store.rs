//! The PostgreSQL store of saved places against a real throwaway server: outages answer
//! the storage error within the deadline and heal by themselves, replicas starting at
//! once migrate once, and the password never shows.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use toolpack::Toolpack;
use toolpack_testkit::postgres::{PASSWORD, PgCluster};

use crate::on_postgres;

use on_postgres::toolpack;

async fn save(toolpack: &Toolpack, key: &str, text: &str) -> (bool, Value) {
    let result = toolpack
        .call_json(
            "save_user_variable",
            json!({"key": key, "type": "preference", "value": text}),
        )
        .await
        .unwrap();
    (result.is_error(), result.body)
}

async fn keys(toolpack: &Toolpack) -> Vec<String> {
    let result = toolpack
        .call_json("get_user_variables", json!({}))
        .await
        .unwrap();
    assert!(!result.is_error(), "{}", result.body);
    result.body["variables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["key"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_outage_answers_the_storage_error_in_time_and_heals_by_itself() {
    let Some(cluster) = PgCluster::start() else {
        return;
    };
    let url = cluster.create_database();
    let tp = toolpack(&url);
    assert!(!save(&tp, "before", "kept").await.0);

    cluster.stop_server();
    let started = Instant::now();
    let (is_error, body) = save(&tp, "during", "lost").await;
    let took = started.elapsed();
    assert!(is_error, "{body}");
    assert_eq!(body["error"]["code"], "storage-error", "{body}");
    assert!(took < Duration::from_secs(10), "took {took:?}");
    assert!(!body.to_string().contains(PASSWORD), "{body}");
    // Other tools keep answering while the database is down.
    let toilets = tp
        .call_json("stationToilets", json!({"stationName": "Abbey Wood"}))
        .await
        .unwrap();
    assert!(!toilets.is_error(), "{}", toilets.body);

    cluster.start_server();
    // No restart: the next calls connect afresh.
    assert!(!save(&tp, "after", "saved").await.0);
    assert_eq!(keys(&tp).await, ["after", "before"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicas_starting_at_once_migrate_once_and_share_places() {
    let Some(cluster) = PgCluster::start() else {
        return;
    };
    let url = cluster.create_database();
    let replicas: Vec<Toolpack> = (0..4).map(|_| toolpack(&url)).collect();
    let saves = replicas
        .iter()
        .enumerate()
        .map(|(i, tp)| async move { save(tp, &format!("k{i}"), "x").await });
    for (is_error, body) in futures_util::future::join_all(saves).await {
        assert!(!is_error, "{body}");
    }
    assert_eq!(keys(&replicas[3]).await, ["k0", "k1", "k2", "k3"]);
    // The second save of a key reports the first as `previous`, on another replica.
    let (_, body) = save(&replicas[1], "k0", "y").await;
    assert_eq!(body["previous"]["key"], "k0", "{body}");
}

#[tokio::test]
async fn the_password_never_shows_in_debug_or_errors() {
    let url = format!("postgres://toolpack:{PASSWORD}@127.0.0.1:1/nowhere");
    let tp = toolpack(&url);
    assert!(!format!("{tp:?}").contains(PASSWORD));
    assert!(!format!("{:?}", tp.config()).contains(PASSWORD));
    let (is_error, body) = save(&tp, "k", "v").await;
    assert!(is_error);
    assert_eq!(body["error"]["code"], "storage-error");
    assert!(!body.to_string().contains(PASSWORD), "{body}");
}
