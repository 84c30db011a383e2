//! Stateless `tools/call` without rmcp's per-request service.
//!
//! In stateless mode rmcp answers every POST by building a service for it: a peer, a
//! transport, channels and two tasks, around a JSON-RPC message parsed into the enum of
//! every client message. For the one request that matters for cost, a `tools/call` that
//! is plainly valid, this layer answers in place: it parses just that request, runs it
//! through the same [`ToolpackServer::run_call`] as rmcp's handler, and writes the answer
//! rmcp would: its own message types for errors and notifications, and for a result the
//! body serialised once where rmcp serialises it twice. A test compares the bytes.
//!
//! Anything else goes to rmcp untouched: other methods, batches, notifications, a request
//! with `_meta` (progress tokens, per-request protocol versions), a header this layer does
//! not read exactly as rmcp does (a quoted or weighted `Accept`, an `Origin` to check, an
//! absent `Host`, a protocol version with the standard headers of 2026-07-28 or one rmcp
//! does not know), a body that is not such a request. Each check here only ever sends a
//! request on to rmcp, which refuses what is to be refused; none refuses a request itself,
//! except a body over the limit, answered as rmcp answers it.

use std::sync::Arc;

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header, uri::Authority};
use axum::middleware::Next;
use axum::response::Response;
use rmcp::model::{
    CallToolRequestParams, JsonObject, ProtocolVersion, RequestId, ServerJsonRpcMessage,
    ServerNotification,
};
use serde::Deserialize;
use toolpack::ToolResult;

use crate::ToolpackServer;
use crate::notify::{Destination, Forwarder, SessionLevel};
use crate::server::CallScope;

/// What answers stateless `tools/call` requests in place.
pub(crate) struct StatelessCalls {
    /// The server the calls run on.
    server: ToolpackServer,
    /// rmcp's `allowed_hosts`, read as rmcp reads them: a host name and maybe a port
    /// (`None`: every host).
    allowed_hosts: Option<Vec<(String, Option<u16>)>>,
    /// Whether rmcp checks `Origin` (an allow-list is set).
    checks_origin: bool,
    /// The largest request body.
    body_limit: usize,
}

/// The middleware on `/mcp`: a plainly valid `tools/call` POST is answered here, every
/// other request by rmcp (`next`).
pub(crate) async fn answer(
    State(calls): State<Arc<StatelessCalls>>,
    request: Request,
    next: Next,
) -> Response {
    if !calls.takes(&request) {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let bytes = match read_body(body, calls.body_limit).await {
        Ok(bytes) => bytes,
        Err(response) => return response,
    };
    let Some(call) = ToolsCall::parse(&bytes) else {
        return next
            .run(Request::from_parts(parts, Body::from(bytes)))
            .await;
    };
    let (caller, choice) = crate::server::http_scope(&parts);
    let id = call.id;
    let scope = CallScope {
        id: &id,
        caller,
        choice,
        forwarder: Forwarder::start(Destination::Reply, SessionLevel::default(), None),
        carrier: crate::telemetry::Carrier {
            meta: None,
            headers: Some(&parts.headers),
        },
        cancelled: std::future::pending(),
    };
    let mut request = CallToolRequestParams::new(call.params.name);
    request.arguments = call.params.arguments;
    let (answer, notifications) = calls.server.run_call(request, scope).await;
    let response = match answer {
        Ok(result) => result_message(&id, &result),
        Err(error) => serde_json::to_vec(&ServerJsonRpcMessage::error(error, Some(id))),
    };
    let response = match response {
        Ok(response) => response,
        Err(error) => return serialisation_failed(&error),
    };
    if notifications.is_empty() {
        return json_response(response);
    }
    event_stream_response(notifications, response)
}

/// The JSON-RPC response rmcp writes for `result` to a peer before 2026-07-28 (the only
/// ones taken here: no `resultType`), with the body serialised once for both its text and
/// its structured copy ([`ToolResult::json_text`]).
fn result_message(id: &RequestId, result: &ToolResult) -> serde_json::Result<Vec<u8>> {
    let mut message = br#"{"jsonrpc":"2.0","id":"#.to_vec();
    serde_json::to_writer(&mut message, id)?;
    message.extend_from_slice(br#","result":"#);
    message.extend_from_slice(result.json_text(true).as_bytes());
    message.push(b'}');
    Ok(message)
}

impl StatelessCalls {
    /// Calls on `server`, behind rmcp's `allowed_hosts` and `allowed_origins`.
    pub fn new(
        server: ToolpackServer,
        allowed_hosts: &[String],
        allowed_origins: &[String],
        body_limit: usize,
    ) -> Self {
        let allowed_hosts = (!allowed_hosts.is_empty()).then(|| {
            allowed_hosts
                .iter()
                .map(|allowed| allowed.trim())
                .filter(|allowed| !allowed.is_empty())
                .map(|allowed| match Authority::try_from(allowed) {
                    Ok(authority) => (normalize_host(authority.host()), authority.port_u16()),
                    Err(_) => (normalize_host(allowed), None),
                })
                .collect()
        });
        Self {
            server,
            allowed_hosts,
            checks_origin: !allowed_origins.is_empty(),
            body_limit,
        }
    }

    /// Whether `request` may be answered here, as far as its method, path and headers
    /// tell; the body decides the rest.
    fn takes(&self, request: &Request) -> bool {
        let headers = request.headers();
        request.method() == Method::POST
            && request.uri().path() == "/mcp"
            && self.host_is_allowed(headers)
            && (!self.checks_origin || !headers.contains_key(header::ORIGIN))
            && accepts_json_and_event_stream(headers)
            && sends_json(headers)
            && protocol_version_is_plain(headers)
    }

    /// The `Host` header is there and allowed, read as rmcp reads it.
    fn host_is_allowed(&self, headers: &HeaderMap) -> bool {
        let Some(host) = headers
            .get(header::HOST)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| Authority::try_from(value).ok())
        else {
            return false;
        };
        let Some(allowed_hosts) = &self.allowed_hosts else {
            return true;
        };
        let name = normalize_host(host.host());
        allowed_hosts.iter().any(|(allowed, port)| {
            *allowed == name && port.is_none_or(|port| host.port_u16() == Some(port))
        })
    }
}

/// A host name as rmcp compares it: without IPv6 brackets, lower case.
fn normalize_host(host: &str) -> String {
    host.trim_matches('[')
        .trim_matches(']')
        .to_ascii_lowercase()
}

/// `Accept` names both JSON and the event stream, with no quoted strings or weights
/// (which rmcp reads with a grammar this layer leaves to it).
fn accepts_json_and_event_stream(headers: &HeaderMap) -> bool {
    let (mut json, mut event_stream) = (false, false);
    for value in headers.get_all(header::ACCEPT) {
        let Ok(value) = value.to_str() else {
            continue;
        };
        if value.contains('"') {
            return false;
        }
        for entry in value.split(',') {
            let mut parts = entry.split(';');
            let essence = parts.next().unwrap_or_default().trim();
            let weighted = parts.any(|parameter| {
                parameter
                    .split_once('=')
                    .is_some_and(|(name, _)| name.trim().eq_ignore_ascii_case("q"))
            });
            if weighted {
                return false;
            }
            json |= essence.eq_ignore_ascii_case("application/json");
            event_stream |= essence.eq_ignore_ascii_case("text/event-stream");
        }
    }
    json && event_stream
}

/// `Content-Type` is JSON.
fn sends_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| {
            let essence = value.split_once(';').map_or(value, |(essence, _)| essence);
            essence.trim().eq_ignore_ascii_case("application/json")
        })
}

/// No `MCP-Protocol-Version`, or one rmcp knows that predates the standard headers.
fn protocol_version_is_plain(headers: &HeaderMap) -> bool {
    let Some(value) = headers.get("mcp-protocol-version") else {
        return true;
    };
    value.to_str().is_ok_and(|version| {
        version < ProtocolVersion::STANDARD_HEADERS.as_str()
            && ProtocolVersion::KNOWN_VERSIONS
                .iter()
                .any(|known| known.as_str() == version)
    })
}

/// The body, or rmcp's answer to one over `limit` bytes or one that cannot be read.
async fn read_body(body: Body, limit: usize) -> Result<Bytes, Response> {
    let mut body = std::pin::pin!(body);
    let mut collected = Vec::new();
    while let Some(frame) = std::future::poll_fn(|cx| body.as_mut().poll_frame(cx)).await {
        let frame = frame.map_err(|error| {
            let message = format!("Failed to read request body: {error}");
            plain(StatusCode::INTERNAL_SERVER_ERROR, message)
        })?;
        let Ok(data) = frame.into_data() else {
            continue;
        };
        if data.len() > limit.saturating_sub(collected.len()) {
            let message = format!("Payload Too Large: request body exceeds {limit} bytes");
            return Err(plain(StatusCode::PAYLOAD_TOO_LARGE, message));
        }
        collected.extend_from_slice(&data);
    }
    Ok(collected.into())
}

/// A JSON-RPC `tools/call` request with nothing else in it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ToolsCall<'a> {
    #[serde(borrow)]
    jsonrpc: &'a str,
    id: RequestId,
    #[serde(borrow)]
    method: &'a str,
    params: ToolsCallParams,
}

/// The parameters of a [`ToolsCall`]: the tool and its arguments, no `_meta`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ToolsCallParams {
    name: String,
    #[serde(default)]
    arguments: Option<JsonObject>,
}

impl<'a> ToolsCall<'a> {
    /// `body` as such a request, if it is one.
    fn parse(body: &'a [u8]) -> Option<Self> {
        serde_json::from_slice::<Self>(body)
            .ok()
            .filter(|call| call.jsonrpc == "2.0" && call.method == "tools/call")
    }
}

/// The JSON answer rmcp gives a request whose only message is its response.
fn json_response(response: Vec<u8>) -> Response {
    Response::builder()
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(response))
        .unwrap_or_default()
}

/// The event stream rmcp answers a request with when notifications precede its response:
/// one `data:` event per message.
fn event_stream_response(notifications: Vec<ServerNotification>, response: Vec<u8>) -> Response {
    let mut body = Vec::new();
    for notification in notifications {
        body.extend_from_slice(b"data: ");
        let message = ServerJsonRpcMessage::notification(notification);
        if let Err(error) = serde_json::to_writer(&mut body, &message) {
            return serialisation_failed(&error);
        }
        body.extend_from_slice(b"\n\n");
    }
    body.extend_from_slice(b"data: ");
    body.extend_from_slice(&response);
    body.extend_from_slice(b"\n\n");
    Response::builder()
        .header(header::CONTENT_TYPE, "text/event-stream")
        .header(header::CACHE_CONTROL, "no-cache")
        .header("x-accel-buffering", "no")
        .body(Body::from(body))
        .unwrap_or_default()
}

/// rmcp's answer when a response cannot be serialised.
fn serialisation_failed(error: &serde_json::Error) -> Response {
    tracing::error!("Internal server error when serialize json response: {error}");
    plain(
        StatusCode::INTERNAL_SERVER_ERROR,
        format!("Encounter an error when serialize json response: {error}"),
    )
}

/// A bare text answer with `status`, as rmcp writes its refusals (no content type).
fn plain(status: StatusCode, message: String) -> Response {
    Response::builder()
        .status(status)
        .body(Body::from(message))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use axum::body::to_bytes;
    use serde_json::{Value, json};
    use tower::ServiceExt;

    use super::*;
    use crate::http::HttpOptions;

    /// A stateless app over a fresh server for `settings`, answering calls in place or
    /// leaving them all to rmcp.
    fn app(settings: &[(&str, &str)], in_place: bool) -> axum::Router {
        let settings: BTreeMap<String, String> = settings
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        let config = toolpack::Config::from_pairs(&settings).expect("valid settings");
        let tools = crate::select_tools(&config, None).expect("tools").tools;
        let server =
            ToolpackServer::new(toolpack::Toolpack::new(config).expect("a toolpack"), tools);
        let options = HttpOptions {
            stateless: true,
            max_body_bytes: 4096,
            allowed_hosts: vec!["api.example.com:8443".into()],
            ..HttpOptions::default()
        };
        crate::http::app(server, &options, in_place).0
    }

    /// A `/mcp` POST with the headers a client sends, `changes` applied (an empty value
    /// removes the header), and `body`.
    fn request(changes: &[(&str, &str)], body: &str) -> Request {
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
    async fn answer_of(app: axum::Router, request: Request) -> (StatusCode, HeaderMap, Bytes) {
        let response = app.oneshot(request).await.expect("an answer");
        let (parts, body) = response.into_parts();
        let body = to_bytes(body, usize::MAX).await.expect("a body");
        (parts.status, parts.headers, body)
    }

    /// Whether the layer answers `request` itself.
    fn answered_in_place(request: &Request, body: &str) -> bool {
        let server = ToolpackServer::new(
            toolpack::Toolpack::new(toolpack::Config::default()).expect("a toolpack"),
            Vec::new(),
        );
        let allowed = ["localhost", "127.0.0.1", "::1", "api.example.com:8443"].map(String::from);
        let calls = StatelessCalls::new(server, &allowed, &[], 4096);
        calls.takes(request) && ToolsCall::parse(body.as_bytes()).is_some()
    }

    /// One request: header changes (see [`request`]), the body, and whether the layer
    /// answers it itself.
    type Case<'a> = (&'a [(&'a str, &'a str)], String, bool);

    /// Each request gets the same status, headers and bytes whether the layer answers it
    /// or rmcp does; `in_place` says which of them the layer answers itself.
    async fn same_as_rmcp(settings: &[(&str, &str)], cases: &[Case<'_>]) {
        for (changes, body, in_place) in cases {
            let (fast, slow) = (app(settings, true), app(settings, false));
            let expected = answer_of(slow, request(changes, body)).await;
            let got = answer_of(fast, request(changes, body)).await;
            assert_eq!(
                answered_in_place(&request(changes, body), body),
                *in_place,
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
                (&[("x-mcp-toolsets", "loko")], call(json!(4), "stationToilets", toilets("Bank")), true),
                (&[("host", "LOCALHOST")], call(json!(5), "stationToilets", toilets("Bank")), true),
                (&[("host", "[::1]:9")], call(json!(6), "stationToilets", toilets("Bank")), true),
                (&[("host", "api.example.com:8443")], call(json!(7), "stationToilets", toilets("Bank")), true),
                (&[("mcp-protocol-version", "")], call(json!(8), "stationToilets", toilets("Bank")), true),
                (&[("content-type", "Application/JSON; charset=utf-8")], call(json!(9), "stationToilets", toilets("Bank")), true),
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
}
