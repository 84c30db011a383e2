//! Streamable HTTP in production shape, in-process: bearer auth, `/healthz`, session
//! termination with 204, stateless replicas, the body-size limit, the Host allow-list,
//! and the in-flight and deadline limits.

use crate::common;

use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};
use toolpack_mcp::http::{HttpOptions, router};
use toolpack_mcp::{CALL_DEADLINE_EXCEEDED, SERVER_BUSY, ServerLimits, ToolpackServer};

fn server(settings: &[(&str, &str)]) -> ToolpackServer {
    common::server_with(&common::settings(settings))
}

/// Serves `server` with `options` on a loopback port; returns the base URL.
async fn serve(server: ToolpackServer, options: HttpOptions) -> String {
    let (app, _end_sessions) = router(server, &options);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    base
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#;

fn post(base: &str) -> reqwest::RequestBuilder {
    common::http_client()
        .post(format!("{base}/mcp"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
}

#[tokio::test]
async fn healthz_answers_without_auth_with_version_and_tool_count() {
    let options = HttpOptions {
        tokens: vec!["t1".into()],
        ..HttpOptions::default()
    };
    let base = serve(server(&[]), options).await;
    let response = common::http_client()
        .get(format!("{base}/healthz"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["status"], "ok");
    assert_eq!(body["version"], env!("CARGO_PKG_VERSION"));
    // Without keys: every TfL tool but planJourney (TfL answers them without a key), the
    // two saved-place tools and every loko tool.
    let entries = toolpack::Catalog::get().entries();
    let keyless = entries
        .iter()
        .filter(|e| {
            e.missing_prerequisite(&toolpack::Config::default())
                .is_none()
        })
        .count();
    let loko = entries
        .iter()
        .filter(|e| e.spec.toolset == toolpack::Toolset::Loko)
        .count();
    let tfl = entries
        .iter()
        .filter(|e| e.spec.toolset == toolpack::Toolset::Tfl)
        .count();
    assert_eq!(keyless, (tfl - 1) + 2 + loko);
    assert_eq!(body["tools"], keyless);
}

#[tokio::test]
async fn bearer_tokens_guard_mcp() {
    let options = HttpOptions {
        tokens: vec!["token-one".into(), "token-two".into()],
        ..HttpOptions::default()
    };
    let base = serve(server(&[]), options).await;
    for auth in [
        None,
        Some("Bearer wrong"),
        Some("token-two"),
        Some("Bearer "),
    ] {
        let mut request = post(&base).body(INITIALIZE);
        if let Some(auth) = auth {
            request = request.header("authorization", auth);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 401, "{auth:?}");
        let challenge = response.headers()["www-authenticate"].to_str().unwrap();
        assert!(challenge.starts_with("Bearer"), "{challenge}");
        assert!(!response.text().await.unwrap().contains("token-"));
    }
    let config = StreamableHttpClientTransportConfig::with_uri(format!("{base}/mcp"))
        .auth_header("token-two");
    let client = ().serve(common::with_config(config)).await.unwrap();
    let tools = client.list_all_tools().await.unwrap();
    assert!(tools.iter().any(|t| t.name == "stationToilets"));
    client.cancel().await.ok();
}

#[tokio::test]
async fn session_termination_answers_204() {
    let base = serve(server(&[]), HttpOptions::default()).await;
    let response = post(&base).body(INITIALIZE).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let deleted = common::http_client()
        .delete(format!("{base}/mcp"))
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", "2025-06-18")
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 204);
    assert!(deleted.bytes().await.unwrap().is_empty());
}

/// A JSON-RPC POST without a session; the JSON (or single SSE event) answer.
async fn stateless_call(base: &str, body: Value) -> Value {
    let response = post(base)
        .header("mcp-protocol-version", "2025-06-18")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "{base}");
    assert!(response.headers().get("mcp-session-id").is_none());
    let text = response.text().await.unwrap();
    let json = text
        .lines()
        .find_map(|l| l.strip_prefix("data:"))
        .unwrap_or(&text);
    serde_json::from_str(json.trim()).unwrap()
}

#[tokio::test]
async fn stateless_replicas_serve_one_client_alternately() {
    let stateless = HttpOptions {
        stateless: true,
        ..HttpOptions::default()
    };
    let replicas = [
        serve(server(&[]), stateless.clone()).await,
        serve(server(&[]), stateless).await,
    ];
    let init: Value = serde_json::from_str(INITIALIZE).unwrap();
    let answer = stateless_call(&replicas[0], init).await;
    assert_eq!(answer["result"]["serverInfo"]["name"], "toolpack-mcp");
    for (i, station) in ["Kings Cross", "Victoria", "Abbey Wood", "Kings Cross"]
        .iter()
        .enumerate()
    {
        let call = json!({"jsonrpc": "2.0", "id": i + 2, "method": "tools/call",
            "params": {"name": "stationToilets", "arguments": {"stationName": station}}});
        let answer = stateless_call(&replicas[i % 2], call).await;
        assert_eq!(answer["result"]["isError"], false, "{answer}");
        assert_eq!(answer["result"]["structuredContent"]["code"], "OK");
    }
}

#[tokio::test]
async fn oversized_bodies_are_refused_with_413() {
    let options = HttpOptions {
        max_body_bytes: 2048,
        ..HttpOptions::default()
    };
    let base = serve(server(&[]), options).await;
    let padding = "x".repeat(4096);
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": padding, "version": "1"}}});
    let response = post(&base).body(body.to_string()).send().await.unwrap();
    assert_eq!(response.status(), 413);
    // The server keeps serving.
    assert_eq!(
        post(&base).body(INITIALIZE).send().await.unwrap().status(),
        200
    );
}

#[tokio::test]
async fn only_allowed_hosts_pass() {
    let options = HttpOptions {
        allowed_hosts: vec!["mcp.example.com".into()],
        ..HttpOptions::default()
    };
    let base = serve(server(&[]), options).await;
    for (host, status) in [
        ("evil.example", 403),
        ("mcp.example.com", 200),
        ("localhost", 200),
    ] {
        let response = post(&base)
            .header("host", host)
            .body(INITIALIZE)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), status, "{host}");
    }
}

/// A client for `server` over an in-process duplex.
async fn client(server: ToolpackServer) -> common::Client {
    common::duplex_client(server, ()).await
}

async fn slow_upstream() -> toolpack_testkit::FakeUpstream {
    let fake = toolpack_testkit::FakeUpstream::start(&toolpack_testkit::default_fixtures_dir())
        .await
        .unwrap();
    fake.push_scenario(toolpack_testkit::Scenario::on("/geocoding").delay_ms(800));
    fake
}

fn geocode() -> rmcp::model::CallToolRequestParams {
    let mut arguments = serde_json::Map::new();
    arguments.insert("text".into(), json!("kamppi"));
    rmcp::model::CallToolRequestParams::new("geocode_address").with_arguments(arguments)
}

/// A server whose Digitransit upstream takes 800 ms, with `limits` (keep the fake alive).
async fn limited(limits: ServerLimits) -> (toolpack_testkit::FakeUpstream, ToolpackServer) {
    let fake = slow_upstream().await;
    let base = fake.base_url();
    let settings = [
        ("DIGITRANSIT_API_KEY", "k"),
        ("DIGITRANSIT_BASE_URL", base.as_str()),
    ];
    let served = server(&settings).with_limits(limits);
    (fake, served)
}

#[tokio::test]
async fn calls_beyond_the_in_flight_limit_are_refused_at_once() {
    let (_fake, served) = limited(ServerLimits {
        max_in_flight: 1,
        call_deadline: Duration::from_secs(10),
        ..ServerLimits::default()
    })
    .await;
    let (first, second) = (client(served.clone()).await, client(served).await);
    let slow = tokio::spawn(async move { first.call_tool(geocode()).await });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let started = std::time::Instant::now();
    let refused = second.call_tool(geocode()).await.unwrap_err().to_string();
    assert!(
        started.elapsed() < Duration::from_millis(300),
        "refused at once"
    );
    assert!(
        refused.contains(&SERVER_BUSY.to_string()) && refused.contains("server busy"),
        "{refused}"
    );
    let answered = slow.await.unwrap().unwrap();
    assert_eq!(answered.is_error, Some(false));
    // Once the slow call is done, calls pass again.
    assert_eq!(
        second.call_tool(geocode()).await.unwrap().is_error,
        Some(false)
    );
}

#[tokio::test]
async fn a_call_past_the_deadline_is_abandoned_with_a_json_rpc_error() {
    let (_fake, served) = limited(ServerLimits {
        max_in_flight: 4,
        call_deadline: Duration::from_millis(200),
        ..ServerLimits::default()
    })
    .await;
    let client = client(served.clone()).await;
    let error = client.call_tool(geocode()).await.unwrap_err().to_string();
    assert!(
        error.contains(&CALL_DEADLINE_EXCEEDED.to_string()) && error.contains("200 ms deadline"),
        "{error}"
    );
    assert_eq!(served.calls_in_flight(), 0);
}

/// Initializes a session over raw HTTP; returns its id.
async fn session(base: &str) -> String {
    let response = post(base).body(INITIALIZE).send().await.unwrap();
    let id = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let ack = post(base)
        .header("mcp-session-id", &id)
        .body(initialized)
        .send()
        .await
        .unwrap();
    assert!(ack.status().is_success());
    id
}

#[tokio::test]
async fn bad_json_rpc_gets_an_answer_and_the_server_keeps_serving() {
    let base = serve(server(&[]), HttpOptions::default()).await;
    let id = session(&base).await;
    // Not JSON at all, JSON that is not JSON-RPC, and an unknown method.
    for (body, expect) in [
        ("{not json", "parse"),
        (r#"{"hello":"world"}"#, "invalid"),
        (
            r#"{"jsonrpc":"2.0","id":7,"method":"no/such/method"}"#,
            "-32601",
        ),
    ] {
        let response = post(&base)
            .header("mcp-session-id", &id)
            .body(body)
            .send()
            .await
            .unwrap();
        let status = response.status();
        let text = response.text().await.unwrap().to_lowercase();
        assert!(
            status.is_client_error() || text.contains(expect),
            "{body}: {status} {text}"
        );
    }
    let call = r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"stationToilets","arguments":{"stationName":"Victoria"}}}"#;
    let response = post(&base)
        .header("mcp-session-id", &id)
        .body(call)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.text().await.unwrap().contains("\"isError\":false"));
}

#[tokio::test]
async fn a_client_that_disconnects_mid_call_does_not_stop_the_others() {
    let fake = slow_upstream().await;
    let upstream = fake.base_url();
    let served = server(&[
        ("DIGITRANSIT_API_KEY", "k"),
        ("DIGITRANSIT_BASE_URL", &upstream),
    ]);
    let base = serve(served.clone(), HttpOptions::default()).await;
    let id = session(&base).await;
    let slow = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"geocode_address","arguments":{"text":"kamppi"}}}"#;
    // Gives up after 150 ms, while the upstream takes 800 ms.
    let abandoned = async {
        post(&base)
            .header("mcp-session-id", &id)
            .timeout(Duration::from_millis(150))
            .body(slow)
            .send()
            .await?
            .text()
            .await
    }
    .await;
    assert!(abandoned.is_err(), "{abandoned:?}");
    let other = ().serve(common::http_transport(format!("{base}/mcp"))).await.unwrap();
    let answer = common::call(
        &other,
        "stationToilets",
        &json!({"stationName": "Abbey Wood"}),
    )
    .await;
    assert_eq!(answer.is_error, Some(false));
    // The abandoned call ends (answered or cancelled) and frees its slot.
    tokio::time::timeout(Duration::from_secs(5), served.drained())
        .await
        .expect("the abandoned call finishes");
    other.cancel().await.ok();
}
