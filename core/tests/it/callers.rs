//! Limits per caller: a caller's burst uses its own budget only, the tools that call no
//! upstream have no limit by default, and the optional upstream-key ceiling is shared.

use serde_json::json;
use toolpack::{Caller, Config, Scopes, Toolpack, Toolset};

fn caller(id: &str) -> Caller {
    Caller::new(id, Scopes::ALL).unwrap()
}

async fn code(toolpack: &Toolpack, tool: &str, arguments: serde_json::Value) -> String {
    let body = toolpack.call_json(tool, arguments).await.unwrap().body;
    body.get("code")
        .or_else(|| body.pointer("/error/code"))
        .and_then(|c| c.as_str())
        .unwrap_or("OK")
        .to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn one_callers_burst_never_throttles_another() {
    let server = Toolpack::new(Config::builder().rate_limit("stationToilets", 3).build()).unwrap();
    let (alice, bob) = (
        server.for_caller(caller("alice")),
        server.for_caller(caller("bob")),
    );
    let victoria = json!({"stationName": "Victoria"});
    let mut alices = Vec::new();
    for _ in 0..10 {
        alices.push(code(&alice, "stationToilets", victoria.clone()).await);
    }
    assert_eq!(
        alices.iter().filter(|c| *c == "OK").count(),
        3,
        "{alices:?}"
    );
    assert_eq!(alices.last().unwrap(), "RATE_LIMIT_EXCEEDED");
    for _ in 0..3 {
        assert_eq!(code(&bob, "stationToilets", victoria.clone()).await, "OK");
    }
    // The local caller (no caller given) is one more caller with its own budget.
    assert_eq!(code(&server, "stationToilets", victoria).await, "OK");
}

#[tokio::test(flavor = "multi_thread")]
async fn two_hundred_concurrent_local_lookups_are_all_answered_by_default() {
    let toolpack = Toolpack::new(Config::default()).unwrap();
    let calls = (0..200).map(|_| {
        let toolpack = toolpack.clone();
        tokio::spawn(async move {
            code(
                &toolpack,
                "stationToilets",
                json!({"stationName": "Abbey Wood"}),
            )
            .await
        })
    });
    let codes: Vec<String> = futures_util::future::join_all(calls)
        .await
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert!(codes.iter().all(|c| c == "OK"), "{codes:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_upstream_key_ceiling_refuses_every_caller_once_reached() {
    // No upstream is needed: a refused call never leaves the process, and an allowed
    // one fails validation before any request.
    let config = Config::builder()
        .digitransit_api_key("k")
        .default_rate_limit(0)
        .upstream_rate_limit(Toolset::Digitransit, 2)
        .build();
    let server = Toolpack::new(config).unwrap();
    let blank = json!({"address": " "});
    let codes: Vec<String> = futures_util::future::join_all((0..4).map(|i| {
        let toolpack = server.for_caller(caller(&format!("c{i}")));
        let blank = blank.clone();
        async move { code(&toolpack, "geocode_address", blank).await }
    }))
    .await;
    assert_eq!(
        codes.iter().filter(|c| *c == "rate-limited").count(),
        2,
        "{codes:?}"
    );
    // Local tools are outside the ceiling.
    assert_eq!(
        code(&server, "get_user_variables", json!({"type": "nonsense"})).await,
        "validation-error"
    );
}

#[test]
fn a_per_tool_limit_naming_no_tool_is_refused_with_its_name() {
    let config = Config::from_pairs([("TOOLPACK_RATE_LIMIT_STATION_TOILET", "1")]).unwrap();
    let error = Toolpack::new(config).unwrap_err().to_string();
    assert!(
        error.contains("TOOLPACK_RATE_LIMIT_STATION_TOILET"),
        "{error}"
    );
    assert!(error.contains("no tool has that name"), "{error}");
    let fine = Config::from_pairs([("TOOLPACK_RATE_LIMIT_STATION_TOILETS", "1")]).unwrap();
    assert!(Toolpack::new(fine).is_ok());
}
