//! The guard's scenarios: one tool call or view read each, on the core, through the MCP
//! HTTP app, or through the MCP stdio transport.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use toolpack::{Config, Toolpack};
use toolpack_mcp::ToolpackServer;
use toolpack_mcp::http::HttpOptions;
use tower::ServiceExt;

use crate::answers::{VIEW, assert_answered};
use crate::callgrind;
use crate::stdio_peer::StdioPeer;

/// Every scenario, in the order the guard reports them.
pub const NAMES: [&str; 13] = [
    "core stationToilets",
    "core query_architecture",
    "core get_departures",
    "mcp stationToilets",
    "mcp query_architecture",
    "mcp get_departures",
    "mcp read_view",
    "mcp 2026-07-28 stationToilets",
    "mcp 2026-07-28 read_view",
    "mcp session stationToilets",
    "mcp session read_view",
    "mcp stdio stationToilets",
    "mcp stdio read_view",
];

/// How a scenario reaches the tool.
#[derive(Clone, Copy, PartialEq)]
enum Surface {
    /// The core's `call_json`.
    Core,
    /// A stateless POST to the MCP HTTP app, protocol 2025-06-18.
    Stateless,
    /// A POST to the MCP HTTP app at protocol 2026-07-28 (stateless by design), with its
    /// `Mcp-Method` and `Mcp-Name` headers and the request's `_meta`.
    Stateless2026,
    /// A POST in a session opened first (rmcp's session worker, an SSE answer).
    Session,
    /// A line to the server over its stdio transport, on an in-process pipe.
    Stdio,
}

/// The surface of `scenario` and what it calls: a tool, or `read_view`.
fn surface_of(scenario: &str) -> (Surface, &str) {
    let (surface, what) = scenario.rsplit_once(' ').unwrap_or(("", scenario));
    let surface = match surface {
        "core" => Surface::Core,
        "mcp session" => Surface::Session,
        "mcp stdio" => Surface::Stdio,
        "mcp 2026-07-28" => Surface::Stateless2026,
        _ => Surface::Stateless,
    };
    (surface, what)
}

/// Calls made before counting: the station data loaded, the project's files cached, the
/// upstream connection open.
const WARM_UP_CALLS: usize = 3;

/// What to run.
pub struct Run {
    /// One of [`NAMES`].
    pub scenario: String,
    /// The fake upstream's base URL (`get_departures`).
    pub upstream: String,
    /// Calls counted.
    pub calls: usize,
}

/// The tool and arguments of a call of `tool`.
fn call_of(tool: &str) -> (&'static str, Value) {
    match tool {
        "stationToilets" => ("stationToilets", json!({"stationName": "Kings Cross"})),
        "query_architecture" => {
            let shop = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/loko/shop");
            (
                "query_architecture",
                json!({"project_path": shop, "detail": "structure"}),
            )
        }
        _ => (
            "get_departures",
            json!({"stop": {"type": "id", "value": "HSL:2434202"}}),
        ),
    }
}

/// The configuration every scenario runs with: the fake upstream for Digitransit, no
/// rate limit (the warm-up calls come faster than a real client's), and no shared cache
/// (each counted `get_departures` call reads the upstream's answer, as the baseline does).
fn config(upstream: &str) -> Config {
    Config::builder()
        .digitransit_base_url(upstream)
        .digitransit_api_key("guard-digitransit-key")
        .digitransit_router(toolpack::config::DigitransitRouter::Hsl)
        .default_rate_limit(0)
        .upstream_cache_bytes(0)
        .build()
}

/// Runs `run`: set-up, warm-up, then its calls between callgrind's start and stop.
pub fn run(run: &Run) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let (surface, what) = surface_of(&run.scenario);
    let (tool, arguments) = call_of(what);
    let toolpack = Toolpack::new(config(&run.upstream)).expect("a toolpack");
    if surface == Surface::Core {
        let call = || async {
            let result = toolpack
                .call_json(tool, arguments.clone())
                .await
                .expect("a catalog tool");
            assert!(!result.is_error(), "{tool}: {}", result.body);
        };
        runtime.block_on(counted(run.calls, call));
        return;
    }
    // The server's parts (the metrics recorder among them) start inside the runtime.
    let _inside = runtime.enter();
    let _telemetry = toolpack_mcp::telemetry::init();
    let tools = toolpack_mcp::select_tools(toolpack.config(), None)
        .expect("every tool")
        .tools;
    let server = ToolpackServer::new(toolpack.clone(), tools);
    let (method, name, mut request) = if what == "read_view" {
        let request = json!({"jsonrpc": "2.0", "id": 1, "method": "resources/read",
                             "params": {"uri": VIEW}});
        ("resources/read", VIEW, request)
    } else {
        let request = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                             "params": {"name": tool, "arguments": arguments}});
        ("tools/call", tool, request)
    };
    let headers = match surface {
        Surface::Stateless2026 => {
            request["params"]["_meta"] = json!({
                "io.modelcontextprotocol/protocolVersion": PROTOCOL_2026,
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {"name": "guard", "version": "1"},
            });
            vec![
                ("mcp-protocol-version", PROTOCOL_2026),
                ("mcp-method", method),
                ("mcp-name", name),
            ]
        }
        _ => vec![("mcp-protocol-version", "2025-06-18")],
    };
    let request = request.to_string();
    if surface == Surface::Stdio {
        let peer = runtime.block_on(StdioPeer::connect(server));
        let peer = tokio::sync::Mutex::new(peer);
        let call = || async {
            let mut peer = peer.lock().await;
            let answer = peer.ask(&request).await;
            peer.check(&run.scenario, answer);
        };
        runtime.block_on(counted(run.calls, call));
        return;
    }
    let options = HttpOptions {
        stateless: surface != Surface::Session,
        ..HttpOptions::default()
    };
    let (app, _end_sessions) = toolpack_mcp::http::router(server, &options);
    let session = (!options.stateless).then(|| runtime.block_on(open_session(&app)));
    let headers = Headers {
        session: session.as_deref(),
        protocol: &headers,
    };
    // The warm-up calls check the whole answer; the counted ones, only that it is as
    // long (the check's own parse is not the server's work).
    let expected_length = std::cell::Cell::new(None);
    let call = || async {
        let response = post(&app, &headers, request.clone()).await;
        assert_eq!(response.status(), StatusCode::OK);
        match expected_length.get() {
            // A session's event ids grow a digit now and then: a few bytes either way.
            Some(length) => assert!(
                length_of(response.into_body()).await.abs_diff(length) < 8,
                "{}: another answer",
                run.scenario
            ),
            None => {
                let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
                    .await
                    .expect("a body");
                assert_answered(&run.scenario, &response_in(&bytes));
                expected_length.set(Some(bytes.len()));
            }
        }
    };
    runtime.block_on(counted(run.calls, call));
}

/// The protocol version the `mcp 2026-07-28` scenarios speak.
const PROTOCOL_2026: &str = "2026-07-28";

/// The headers of a scenario's POSTs besides the fixed ones.
struct Headers<'a> {
    /// The session the POSTs are in, if any.
    session: Option<&'a str>,
    /// The protocol version's headers (`MCP-Protocol-Version`, and at 2026-07-28
    /// `Mcp-Method` and `Mcp-Name`).
    protocol: &'a [(&'a str, &'a str)],
}

/// The answer of `app` to a `/mcp` POST of `body` with `headers`.
async fn post(
    app: &axum::Router,
    headers: &Headers<'_>,
    body: String,
) -> axum::http::Response<Body> {
    let mut request = Request::post("/mcp")
        .header("host", "localhost")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    for (name, value) in headers.protocol {
        request = request.header(*name, *value);
    }
    if let Some(session) = headers.session {
        request = request.header("mcp-session-id", session);
    }
    let request = request.body(Body::from(body)).expect("a request");
    app.clone().oneshot(request).await.expect("an answer")
}

/// A session opened on `app` as a client opens one (`initialize`, then `initialized`):
/// its id.
async fn open_session(app: &axum::Router) -> String {
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "guard", "version": "1"}}});
    let legacy = Headers {
        session: None,
        protocol: &[("mcp-protocol-version", "2025-06-18")],
    };
    let response = post(app, &legacy, initialize.to_string()).await;
    let session = response
        .headers()
        .get("mcp-session-id")
        .and_then(|id| id.to_str().ok())
        .expect("a session id")
        .to_owned();
    let _ = axum::body::to_bytes(response.into_body(), usize::MAX).await;
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let in_session = Headers {
        session: Some(&session),
        ..legacy
    };
    let response = post(app, &in_session, initialized.to_string()).await;
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    session
}

/// The JSON-RPC response in an answer's body: the body itself, or an event stream's last
/// `data:` line.
fn response_in(body: &[u8]) -> Value {
    let text = std::str::from_utf8(body).expect("UTF-8");
    let json = text
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .rfind(|data| !data.trim().is_empty())
        .unwrap_or(text);
    serde_json::from_str(json).expect("JSON-RPC")
}

/// The length of `body`, read without copying it (a page's chunks are the server's,
/// and gathering them would count as its work).
async fn length_of(body: Body) -> usize {
    use axum::body::HttpBody;
    let mut body = std::pin::pin!(body);
    let mut length = 0;
    while let Some(frame) = std::future::poll_fn(|cx| body.as_mut().poll_frame(cx)).await {
        length += frame
            .expect("a body")
            .into_data()
            .map_or(0, |data| data.len());
    }
    length
}

/// Warms up with [`WARM_UP_CALLS`] calls, then makes `calls` more with callgrind counting.
async fn counted<F: Future<Output = ()>>(calls: usize, call: impl Fn() -> F) {
    for _ in 0..WARM_UP_CALLS {
        call().await;
    }
    callgrind::start();
    for _ in 0..calls {
        call().await;
    }
    callgrind::stop();
}
