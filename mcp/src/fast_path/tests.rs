//! The answers given in place are rmcp's bytes: every case is sent to the app with and
//! without the in-place layer, and the status, headers and body compared.

use std::collections::BTreeMap;

use axum::body::{Body, Bytes, to_bytes};
use axum::extract::Request;
use axum::http::{HeaderMap, StatusCode, header};
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use serde_json::{Value, json};
use tower::ServiceExt;

use super::header_rules::HeaderRules;
use super::request::Plain;
use crate::ToolpackServer;
use crate::http::HttpOptions;

/// The host the apps allow besides rmcp's loopback names.
const EXTRA_HOST: &str = "api.example.com:8443";

/// A stateless app over a fresh server for `settings`, answering calls in place or
/// leaving them all to rmcp.
fn app(settings: &[(&str, &str)], fast_path: bool) -> axum::Router {
    app_with_body_limit(settings, fast_path, 4096)
}

/// [`app`] with bodies of up to `body_limit` bytes.
fn app_with_body_limit(
    settings: &[(&str, &str)],
    fast_path: bool,
    body_limit: usize,
) -> axum::Router {
    app_in_mode(settings, fast_path, body_limit, true)
}

/// [`app`] in session mode.
pub(super) fn session_app(fast_path: bool) -> axum::Router {
    app_in_mode(&[], fast_path, 4096, false)
}

/// An app stateless or in session mode.
fn app_in_mode(
    settings: &[(&str, &str)],
    fast_path: bool,
    body_limit: usize,
    stateless: bool,
) -> axum::Router {
    let settings: BTreeMap<String, String> = settings
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    let config = toolpack::Config::from_pairs(&settings).expect("valid settings");
    let tools = crate::select_tools(&config, None).expect("tools").tools;
    let server = ToolpackServer::new(toolpack::Toolpack::new(config).expect("a toolpack"), tools);
    let options = HttpOptions {
        stateless,
        max_body_bytes: body_limit,
        allowed_hosts: vec![EXTRA_HOST.into()],
        no_fast_path: !fast_path,
        ..HttpOptions::default()
    };
    crate::http::router(server, &options).0
}

/// A `/mcp` POST with the headers a client sends, `changes` applied (an empty value
/// removes the header), and `body`.
pub(super) fn request(changes: &[(&str, &str)], body: &str) -> Request {
    let mut headers = vec![
        ("host", "localhost:7410"),
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
        ("mcp-protocol-version", "2025-06-18"),
    ];
    for (name, value) in changes {
        headers.retain(|(n, _)| n != name);
        if !value.is_empty() {
            headers.push((name, value));
        }
    }
    let mut builder = Request::post("/mcp");
    for (name, value) in headers {
        builder = builder.header(name, value);
    }
    builder
        .body(Body::from(body.to_owned()))
        .expect("a request")
}

fn call(id: Value, tool: &str, arguments: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": tool, "arguments": arguments}})
    .to_string()
}

/// Status, headers and body of `app`'s answer to `request`.
pub(super) async fn answer_of(
    app: axum::Router,
    request: Request,
) -> (StatusCode, HeaderMap, Bytes) {
    let response = app.oneshot(request).await.expect("an answer");
    let (parts, body) = response.into_parts();
    let body = to_bytes(body, usize::MAX).await.expect("a body");
    (parts.status, parts.headers, body)
}

/// Whether the layer reads `request` itself (it still leaves a read of a view the
/// caller may not see to rmcp).
fn read_in_place(request: &Request, body: &str) -> bool {
    let mut allowed = StreamableHttpServerConfig::default().allowed_hosts;
    allowed.push(EXTRA_HOST.into());
    HeaderRules::new(&allowed, &[]).passes(request) && Plain::parse(body.as_bytes()).is_some()
}

/// One request: header changes (see [`request`]), the body, and whether the layer
/// reads it itself.
type Case<'a> = (&'a [(&'a str, &'a str)], String, bool);

/// Each request gets the same status, headers and bytes whether the layer answers it
/// or rmcp does; `fast_path` says which of them the layer reads itself.
async fn same_as_rmcp(settings: &[(&str, &str)], cases: &[Case<'_>]) {
    for (changes, body, fast_path) in cases {
        let (fast, slow) = (app(settings, true), app(settings, false));
        let expected = answer_of(slow, request(changes, body)).await;
        let got = answer_of(fast, request(changes, body)).await;
        assert_eq!(
            read_in_place(&request(changes, body), body),
            *fast_path,
            "{changes:?} {body}"
        );
        assert_eq!(got.0, expected.0, "status of {changes:?} {body}");
        assert_eq!(got.1, expected.1, "headers of {changes:?} {body}");
        assert_eq!(
            String::from_utf8_lossy(&got.2),
            String::from_utf8_lossy(&expected.2),
            "body of {changes:?} {body}"
        );
    }
}

#[tokio::test]
async fn calls_answered_in_place_get_rmcps_bytes() {
    let toilets = |name: &str| json!({"stationName": name});
    let none: &[(&str, &str)] = &[];
    same_as_rmcp(
        &[],
        &[
            (none, call(json!(1), "stationToilets", toilets("Kings Cross")), true),
            (none, call(json!("a \"quoted\" id"), "stationToilets", toilets("Nowhere at all")), true),
            (none, call(json!(-7), "stationToilets", json!({"stationName": 12})), true),
            (none, call(json!(2), "stationToilets", Value::Null), true),
            (none, call(json!(3), "no_such_tool", json!({})), true),
            (&[("x-mcp-tools", "query_architecture")], call(json!(4), "stationToilets", toilets("Bank")), true),
            (&[("host", "LOCALHOST")], call(json!(5), "stationToilets", toilets("Bank")), true),
            (&[("host", "[::1]:9")], call(json!(6), "stationToilets", toilets("Bank")), true),
            (&[("host", EXTRA_HOST)], call(json!(7), "stationToilets", toilets("Bank")), true),
            (&[("mcp-protocol-version", "")], call(json!(8), "stationToilets", toilets("Bank")), true),
            (&[("content-type", "Application/JSON; charset=utf-8")], call(json!(9), "stationToilets", toilets("Bank")), true),
            (&[("accept-encoding", "gzip, deflate, br")], call(json!(10), "stationToilets", toilets("Bank")), true),
            (none, format!("{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{{\"name\":\"stationToilets\",\"arguments\":{{\"stationName\":\"{}\"}}}}}}", "x".repeat(5000)), true),
        ],
    )
    .await;
}

#[tokio::test]
async fn notifications_before_the_response_make_the_same_event_stream() {
    let empty = tempfile::tempdir().expect("a directory");
    let dir = empty.path().to_str().expect("a UTF-8 path");
    let none: &[(&str, &str)] = &[];
    let settings = [("TFL_STATION_DATA_DETAILED_DIR", dir)];
    let bank = call(json!(1), "stationToilets", json!({"stationName": "Bank"}));
    same_as_rmcp(&settings, &[(none, bank.clone(), true)]).await;
    let (status, headers, body) = answer_of(app(&settings, true), request(none, &bank)).await;
    let body = String::from_utf8_lossy(&body);
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_TYPE], "text/event-stream");
    assert!(
        body.starts_with("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"")
            && body.contains("station data not available")
            && body.ends_with("}\n\n"),
        "{body}"
    );
}

#[tokio::test]
async fn every_other_request_is_left_to_rmcp() {
    let bank = call(json!(1), "stationToilets", json!({"stationName": "Bank"}));
    let none: &[(&str, &str)] = &[];
    let with_meta = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "stationToilets", "arguments": {"stationName": "Bank"},
                   "_meta": {"progressToken": "p"}}})
    .to_string();
    same_as_rmcp(
        &[],
        &[
            (none, with_meta, false),
            (none, format!("[{bank}]"), false),
            (
                none,
                json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).to_string(),
                false,
            ),
            (
                none,
                json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
                false,
            ),
            (none, bank.replace("\"2.0\"", "\"1.0\""), false),
            (none, bank.replace("\"id\":1", "\"id\":1.5"), false),
            (none, "{\"jsonrpc\":".into(), false),
            (&[("accept", "application/json")], bank.clone(), false),
            (
                &[("accept", "application/json;q=0, text/event-stream")],
                bank.clone(),
                false,
            ),
            (
                &[("accept", "application/json;q=1, text/event-stream")],
                bank.clone(),
                false,
            ),
            (&[("content-type", "text/plain")], bank.clone(), false),
            (
                &[("mcp-protocol-version", "1999-01-01")],
                bank.clone(),
                false,
            ),
            (
                &[("mcp-protocol-version", "2026-07-28")],
                bank.clone(),
                false,
            ),
            (&[("host", "evil.example")], bank.clone(), false),
            (&[("host", "api.example.com:9999")], bank.clone(), false),
            (&[("host", "")], bank.clone(), false),
        ],
    )
    .await;
}

#[tokio::test]
async fn views_read_in_place_get_rmcps_bytes() {
    let read = |uri: &str| {
        json!({"jsonrpc": "2.0", "id": 9, "method": "resources/read", "params": {"uri": uri}})
            .to_string()
    };
    let none: &[(&str, &str)] = &[];
    same_as_rmcp(
        &[],
        &[
            (none, read("ui://toolpack/toilets"), true),
            (none, read("ui://toolpack/architecture"), true),
            (none, read("ui://toolpack/nothing-here"), true),
            (
                &[("x-mcp-tools", "query_architecture")],
                read("ui://toolpack/toilets"),
                true,
            ),
            (
                &[
                    ("x-mcp-tools", "query_architecture"),
                    ("accept-encoding", "gzip"),
                ],
                read("ui://toolpack/toilets"),
                true,
            ),
            (
                &[("accept-encoding", "gzip;q=0, br")],
                read("ui://toolpack/toilets"),
                true,
            ),
        ],
    )
    .await;
    let hidden = [("x-mcp-tools", "query_architecture")];
    let (_, _, refused) = answer_of(
        app(&[], true),
        request(&hidden, &read("ui://toolpack/toilets")),
    )
    .await;
    let refused: Value = serde_json::from_slice(&refused).expect("JSON");
    assert_eq!(refused["error"]["code"], -32002, "{refused}");
    let (status, headers, body) = answer_of(
        app(&[], true),
        request(none, &read("ui://toolpack/toilets")),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_TYPE], "application/json");
    let answer: Value = serde_json::from_slice(&body).expect("JSON");
    let page = answer["result"]["contents"][0]["text"]
        .as_str()
        .expect("a page");
    assert!(
        page.len() > 100_000 && page.contains("<html"),
        "{}",
        &page[..200]
    );
}

#[tokio::test]
async fn views_read_by_a_client_that_takes_gzip_are_rmcps_bytes_compressed() {
    use std::io::Read;
    for (id, uri) in [
        (json!(9), "ui://toolpack/toilets"),
        (json!("a \"quoted\" id"), "ui://toolpack/architecture"),
        (json!("x".repeat(70_000)), "ui://toolpack/toilets"),
    ] {
        let read = json!({"jsonrpc": "2.0", "id": id, "method": "resources/read",
                          "params": {"uri": uri}})
        .to_string();
        let changes = [("accept-encoding", "gzip, deflate, br")];
        let (status, expected_headers, expected) = answer_of(
            app_with_body_limit(&[], false, 100_000),
            request(&changes, &read),
        )
        .await;
        let (got_status, mut headers, compressed) = answer_of(
            app_with_body_limit(&[], true, 100_000),
            request(&changes, &read),
        )
        .await;
        assert_eq!((got_status, status), (StatusCode::OK, StatusCode::OK));
        assert!(
            expected.starts_with(b"{\"jsonrpc\":\"2.0\",\"id\":"),
            "{uri}"
        );
        assert!(expected.ends_with(b"}]}}"), "{uri}: a read's contents");
        assert_eq!(headers.remove(header::CONTENT_ENCODING).unwrap(), "gzip");
        assert_eq!(headers.remove(header::VARY).unwrap(), "accept-encoding");
        assert_eq!(headers, expected_headers, "{uri}");
        let mut body = Vec::new();
        flate2::read::GzDecoder::new(&compressed[..])
            .read_to_end(&mut body)
            .expect("a gzip body");
        // The id is sent as it is; the rest, the page, compressed.
        let id_length = id.to_string().len();
        assert!(
            (compressed.len() - id_length) * 3 < body.len() - id_length,
            "{uri}: {}",
            compressed.len()
        );
        assert_eq!(
            String::from_utf8_lossy(&body),
            String::from_utf8_lossy(&expected),
            "{uri}"
        );
    }
}

#[tokio::test]
async fn a_body_of_several_frames_is_read_whole_and_within_the_limit() {
    let frames = |parts: &[&'static str]| {
        let frames: Vec<Result<Bytes, std::io::Error>> =
            parts.iter().map(|part| Ok(Bytes::from(*part))).collect();
        Body::from_stream(futures_util::stream::iter(frames))
    };
    for parts in [
        &["{\"a\":", "", "1}"][..],
        &["", "{\"a\":1}"],
        &["{\"a\":1}"],
        &[],
    ] {
        let read = super::read_body(frames(parts), 7).await.expect("a body");
        assert_eq!(read, parts.concat().as_bytes(), "{parts:?}");
    }
    let over = super::read_body(frames(&["{\"a\":", "12}"]), 7).await;
    let over = over.expect_err("over the limit");
    assert_eq!(over.status(), StatusCode::PAYLOAD_TOO_LARGE);
}
