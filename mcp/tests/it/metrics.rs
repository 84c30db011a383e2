//! `GET /metrics` of `toolpack-mcp serve --http`, read after real calls through the
//! binary: tool calls by outcome code, latency histograms, calls in flight, upstream
//! attempts by status with retries (a fake TfL answering 503 once), local rate-limit
//! refusals, store errors, d2 runs and cache hits. It sits behind the bearer auth unless
//! `--metrics-public`, is absent with `--no-metrics`, and no label holds a caller,
//! token or argument.

use crate::common;
use crate::common::stateless::{StatelessServer, serve, tool_call_result};

use std::collections::BTreeMap;

use serde_json::{Value, json};
use toolpack_testkit::fake_upstream::{FakeUpstream, Scenario};
use toolpack_testkit::loko_project::{Shape, generate};

const TOKEN: &str = "metrics-test-token-5d1e";
const SECRET_PLACE: &str = "Alicestreet 42 never in metrics";

type Server = StatelessServer;

async fn server(flags: &[&str], env: &[(&str, String)]) -> Server {
    serve(TOKEN, flags, env).await
}

/// Calls `tool`; its contract error code, or `None` on success.
async fn call(server: &Server, tool: &str, arguments: Value) -> Option<String> {
    let result = tool_call_result(&server.base, TOKEN, tool, arguments).await;
    if result["isError"] != json!(true) {
        return None;
    }
    let content = &result["structuredContent"];
    let code = content
        .pointer("/error/code")
        .or_else(|| content.get("code"))
        .and_then(Value::as_str);
    Some(code.expect("an error has a code").to_owned())
}

/// `GET /metrics`, with the token when `authenticated`: status and body.
async fn scrape(server: &Server, authenticated: bool) -> (u16, String) {
    let mut request = common::http_client().get(format!("{}/metrics", server.base));
    if authenticated {
        request = request.bearer_auth(TOKEN);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    if status == 200 {
        let kind = response.headers()["content-type"].to_str().unwrap();
        assert!(kind.starts_with("text/plain; version=0.0.4"), "{kind}");
    }
    (status, response.text().await.unwrap())
}

/// The samples of a Prometheus text body: `name{labels}` (labels sorted) to value.
fn samples(text: &str) -> BTreeMap<String, f64> {
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let (series, value) = line.rsplit_once(' ').unwrap();
            let key = match series.split_once('{') {
                Some((name, labels)) => {
                    let mut labels: Vec<&str> = labels.trim_end_matches('}').split(',').collect();
                    labels.sort_unstable();
                    format!("{name}{{{}}}", labels.join(","))
                }
                None => series.to_owned(),
            };
            (key, value.parse().unwrap())
        })
        .collect()
}

fn value(samples: &BTreeMap<String, f64>, series: &str) -> f64 {
    *samples
        .get(series)
        .unwrap_or_else(|| panic!("no {series} in {samples:#?}"))
}

#[tokio::test]
async fn metrics_count_calls_upstream_attempts_limits_store_errors_and_d2() {
    let upstream = FakeUpstream::start(&toolpack_testkit::default_fixtures_dir())
        .await
        .unwrap();
    upstream.push_scenario(Scenario::on("/journey/journeyresults").status(503).times(1));
    let dir = tempfile::tempdir().unwrap();
    let not_a_dir = dir.path().join("file");
    std::fs::write(&not_a_dir, "a file where the data directory should be").unwrap();
    let project = dir.path().join("project");
    generate(
        &project,
        Shape {
            systems: 1,
            containers: 1,
            components: 1,
        },
    )
    .unwrap();
    let server = server(
        &[],
        &[
            ("TFL_API_KEY", "metrics-tfl-key-9a8b".into()),
            ("TFL_API_BASE_URL", upstream.base_url()),
            ("TOOLPACK_RATE_LIMIT_PER_SECOND", "1".into()),
            (
                "TOOLPACK_DATA_DIR",
                not_a_dir.join("data").display().to_string(),
            ),
            ("LOKO_ALLOWED_ROOTS", dir.path().display().to_string()),
        ],
    )
    .await;

    assert_eq!(
        call(
            &server,
            "stationToilets",
            json!({"stationName": "Victoria"})
        )
        .await,
        None
    );
    let invalid = call(&server, "stationToilets", json!({"stationName": ""}))
        .await
        .expect("an empty station name is refused");
    let journey = json!({"from": "Bank Underground Station", "to": "Mile End Underground Station"});
    assert_eq!(call(&server, "planJourney", journey.clone()).await, None);
    assert_eq!(
        call(&server, "planJourney", journey).await.as_deref(),
        Some("RATE_LIMIT_EXCEEDED"),
        "one call per second per caller"
    );
    let place = json!({"key": "home", "type": "location", "value": {"lat": 60.17, "lon": 24.94, "name": SECRET_PLACE}});
    assert_eq!(
        call(&server, "save_user_variable", place).await.as_deref(),
        Some("storage-error")
    );
    for _ in 0..2 {
        assert_eq!(
            call(&server, "validate", json!({"project_path": project})).await,
            None
        );
    }

    assert_eq!(
        scrape(&server, false).await.0,
        401,
        "metrics need the token"
    );
    let (status, text) = scrape(&server, true).await;
    assert_eq!(status, 200);
    for secret in [
        "alice",
        TOKEN,
        SECRET_PLACE,
        "metrics-tfl-key-9a8b",
        "Victoria",
    ] {
        assert!(!text.contains(secret), "{secret} in /metrics:\n{text}");
    }
    let s = samples(&text);
    let calls = |tool: &str, code: &str| {
        value(
            &s,
            &format!("toolpack_tool_calls_total{{code=\"{code}\",tool=\"{tool}\"}}"),
        )
    };
    assert_eq!(calls("stationToilets", "OK"), 1.0);
    assert_eq!(calls("stationToilets", &invalid), 1.0);
    assert_eq!(calls("planJourney", "OK"), 1.0);
    assert_eq!(calls("planJourney", "RATE_LIMIT_EXCEEDED"), 1.0);
    assert_eq!(calls("save_user_variable", "storage-error"), 1.0);
    assert_eq!(calls("validate", "OK"), 2.0);
    assert_eq!(
        value(
            &s,
            "toolpack_tool_call_duration_seconds_count{tool=\"stationToilets\"}"
        ),
        2.0
    );
    assert_eq!(
        value(
            &s,
            "toolpack_tool_call_duration_seconds_bucket{le=\"+Inf\",tool=\"planJourney\"}"
        ),
        2.0
    );
    assert_eq!(
        value(&s, "toolpack_tool_calls_in_flight{tool=\"planJourney\"}"),
        0.0
    );
    assert_eq!(
        value(
            &s,
            "toolpack_upstream_requests_total{family=\"tfl\",status=\"503\"}"
        ),
        1.0
    );
    assert_eq!(
        value(
            &s,
            "toolpack_upstream_requests_total{family=\"tfl\",status=\"200\"}"
        ),
        1.0
    );
    assert_eq!(
        value(&s, "toolpack_upstream_retries_total{family=\"tfl\"}"),
        1.0
    );
    assert_eq!(
        value(
            &s,
            "toolpack_rate_limited_total{limit=\"caller\",tool=\"planJourney\"}"
        ),
        1.0
    );
    assert_eq!(
        value(&s, "toolpack_store_errors_total{store=\"sqlite\"}"),
        1.0
    );
    // Three diagrams (system, container, component): d2 checks each once, and the
    // second validate finds every answer remembered.
    assert_eq!(
        value(
            &s,
            "toolpack_d2_runs_total{command=\"validate\",outcome=\"ok\"}"
        ),
        3.0
    );
    assert_eq!(
        value(&s, "toolpack_d2_cache_hits_total{cache=\"syntax\"}"),
        3.0
    );
    assert!(text.contains("# HELP toolpack_tool_calls_total"), "{text}");
}

#[tokio::test]
async fn metrics_public_needs_no_token_and_no_metrics_serves_none() {
    let public = server(&["--metrics-public"], &[]).await;
    let (status, text) = scrape(&public, false).await;
    assert_eq!(status, 200, "{text}");
    let unauthenticated = common::http_client()
        .post(format!("{}/mcp", public.base))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(unauthenticated.status(), 401, "/mcp still needs the token");

    let off = server(&["--no-metrics"], &[]).await;
    assert_eq!(scrape(&off, true).await.0, 404);
}
