//! Saved places on disk: they survive a restart, a corrupt or read-only database file
//! gives `storage-error` and loses nothing, a newer schema is refused, an older one is
//! migrated, and each caller has its own.
#![allow(
    clippy::disallowed_methods,
    reason = "a test or bench, not a server's async path: blocking file and process work is fine here"
)]

use std::path::Path;

use serde_json::{Value, json};
use toolpack::{Caller, Config, Scopes, Toolpack};

fn toolpack(dir: &Path) -> Toolpack {
    Toolpack::new(
        Config::builder()
            .data_dir(dir)
            .default_rate_limit(0)
            .build(),
    )
    .unwrap()
}

async fn call(toolpack: &Toolpack, tool: &str, arguments: Value) -> (bool, Value) {
    let result = toolpack.call_json(tool, arguments).await.unwrap();
    (result.is_error(), result.body)
}

fn home() -> Value {
    json!({"key": "home", "type": "location", "value": {"lat": 60.17, "lon": 24.94, "name": "Kamppi"}})
}

async fn keys(toolpack: &Toolpack) -> Vec<String> {
    let (failed, body) = call(toolpack, "get_user_variables", json!({})).await;
    assert!(!failed, "{body}");
    body["variables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["key"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn saved_places_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    {
        let first = toolpack(dir.path());
        assert!(!call(&first, "save_user_variable", home()).await.0);
    }
    let second = toolpack(dir.path());
    assert_eq!(keys(&second).await, ["home"]);
    let (_, body) = call(&second, "get_user_variables", json!({})).await;
    assert_eq!(body["variables"][0]["value"]["name"], "Kamppi");
    assert!(
        dir.path()
            .join(toolpack::digitransit::DATABASE_FILE)
            .is_file()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_corrupt_file_is_a_storage_error_and_is_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(toolpack::digitransit::DATABASE_FILE);
    let garbage = b"this is not a database, but someone's data all the same".repeat(100);
    std::fs::write(&file, &garbage).unwrap();
    let toolpack = toolpack(dir.path());
    for (tool, arguments) in [
        ("save_user_variable", home()),
        ("get_user_variables", json!({})),
    ] {
        let (failed, body) = call(&toolpack, tool, arguments).await;
        assert!(failed);
        assert_eq!(body["error"]["code"], "storage-error", "{body}");
        let message = body["error"]["message"].as_str().unwrap();
        assert!(message.contains("not a database"), "{message}");
    }
    assert_eq!(std::fs::read(&file).unwrap(), garbage);
}

/// Sets the SQLite header's write version (byte 18) above 2: SQLite then treats the
/// file as read-only for every process, root included.
fn make_read_only(file: &Path) {
    let mut bytes = std::fs::read(file).unwrap();
    bytes[18] = 3;
    std::fs::write(file, bytes).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_read_only_file_refuses_writes_and_still_answers_reads() {
    let dir = tempfile::tempdir().unwrap();
    {
        let writer = toolpack(dir.path());
        assert!(!call(&writer, "save_user_variable", home()).await.0);
    }
    // Checkpoint the WAL into the main file first (a plain open + close does it).
    let file = dir.path().join(toolpack::digitransit::DATABASE_FILE);
    make_read_only(&file);
    let reader = toolpack(dir.path());
    let work = json!({"key": "work", "type": "other", "value": "x"});
    let (failed, body) = call(&reader, "save_user_variable", work).await;
    assert!(failed);
    assert_eq!(body["error"]["code"], "storage-error", "{body}");
    assert_eq!(keys(&reader).await, ["home"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_newer_schema_is_refused_not_downgraded() {
    let dir = tempfile::tempdir().unwrap();
    {
        let writer = toolpack(dir.path());
        assert!(!call(&writer, "save_user_variable", home()).await.0);
    }
    let file = dir.path().join(toolpack::digitransit::DATABASE_FILE);
    let mut bytes = std::fs::read(&file).unwrap();
    // PRAGMA user_version lives at header offset 60 (big-endian u32).
    bytes[60..64].copy_from_slice(&99u32.to_be_bytes());
    std::fs::write(&file, &bytes).unwrap();
    let (failed, body) = call(&toolpack(dir.path()), "get_user_variables", json!({})).await;
    assert!(failed);
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains("schema version 99 is newer"), "{message}");
    assert_eq!(std::fs::read(&file).unwrap(), bytes);
}

#[tokio::test(flavor = "multi_thread")]
async fn twenty_concurrent_saves_in_one_process_all_land() {
    let dir = tempfile::tempdir().unwrap();
    let toolpack = toolpack(dir.path());
    let saves = (0..20).map(|i| {
        let toolpack = toolpack.clone();
        tokio::spawn(async move {
            let arguments =
                json!({"key": format!("k{i:02}"), "type": "other", "value": format!("v{i}")});
            call(&toolpack, "save_user_variable", arguments).await
        })
    });
    for save in futures_util::future::join_all(saves).await {
        let (failed, body) = save.unwrap();
        assert!(!failed, "{body}");
    }
    assert_eq!(keys(&toolpack).await.len(), 20);
}

/// `tests/fixtures/saved-places/v1.sqlite3` holds three places as toolpack 0.1.0 wrote
/// them (schema 1, no caller column; see `make-v1.py` beside it).
fn first_schema_database() -> std::path::PathBuf {
    toolpack_testkit::tests_dir().join("fixtures/saved-places/v1.sqlite3")
}

#[tokio::test(flavor = "multi_thread")]
async fn a_database_of_the_first_schema_migrates_and_its_places_become_the_local_callers() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(toolpack::digitransit::DATABASE_FILE);
    std::fs::copy(first_schema_database(), &file).unwrap();
    let local = toolpack(dir.path());
    assert_eq!(keys(&local).await, ["home", "mode", "work"]);
    let (_, body) = call(&local, "get_user_variables", json!({"type": "location"})).await;
    assert_eq!(
        body["variables"][0],
        json!({"key": "home", "type": "location",
               "value": {"lat": 60.1699, "lon": 24.9384, "label": "Home",
                         "address": "Mannerheimintie 1, Helsinki"},
               "createdAt": "2026-10-01T08:00:00.000Z", "updatedAt": "2026-10-02T09:30:00.000Z"})
    );
    // Another caller sees none of them, and its own save leaves the local one alone.
    let alice = local.for_caller(Caller::new("alice", Scopes::ALL).unwrap());
    assert!(keys(&alice).await.is_empty());
    assert!(!call(&alice, "save_user_variable", home()).await.0);
    let (_, body) = call(&local, "get_user_variables", json!({"type": "location"})).await;
    assert_eq!(body["variables"][0]["value"]["label"], "Home");
    // The file is at the current schema, with a caller on every row.
    let db = rusqlite::Connection::open(&file).unwrap();
    let version: u32 = db
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, 2);
    let owners: Vec<(String, u32)> = db
        .prepare("SELECT caller, COUNT(*) FROM user_variables GROUP BY caller ORDER BY caller")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(owners, [("alice".to_owned(), 1), ("local".to_owned(), 3)]);
}

#[tokio::test(flavor = "multi_thread")]
async fn callers_never_see_or_overwrite_each_others_places() {
    let dir = tempfile::tempdir().unwrap();
    let server = toolpack(dir.path());
    let alice = server.for_caller(Caller::new("token:alice", Scopes::ALL).unwrap());
    let bob = server.for_caller(Caller::new("token:bob", Scopes::ALL).unwrap());
    assert!(!call(&alice, "save_user_variable", home()).await.0);
    assert!(keys(&bob).await.is_empty());
    let bobs_home = json!({"key": "home", "type": "location", "value": {"lat": 60.2, "lon": 24.9, "name": "Bob's"}});
    let (_, saved) = call(&bob, "save_user_variable", bobs_home).await;
    assert_eq!(
        saved["previous"],
        Value::Null,
        "Bob did not overwrite Alice's"
    );
    let place = |t: &Toolpack| {
        let t = t.clone();
        async move { t.user_variable("home").await.unwrap().unwrap().value }
    };
    assert_eq!(
        serde_json::to_value(place(&alice).await).unwrap()["name"],
        "Kamppi"
    );
    assert_eq!(
        serde_json::to_value(place(&bob).await).unwrap()["name"],
        "Bob's"
    );
}
