//! A bounded load test of the built `toolpack-mcp` binary over loopback HTTP: 50
//! concurrent clients × 200 `stationToilets` calls, with sessions (rmcp's own client over
//! streamable HTTP) and in `--stateless` JSON mode (plain JSON-RPC POSTs). Reports calls
//! per second, p50/p99 latency, errors, the server's CPU time per call (from
//! `/proc/<pid>/stat`) and its resident memory before and after (Linux). Each mode runs
//! once without authentication and once with OAuth JWT authentication (RS256, one token
//! per client, the issuer's JWKS on loopback). The last rounds read the toilets view
//! (`resources/read`, ~330 KB, escaped by rmcp on every read) instead of calling: in
//! sessions and statelessly.
//! Run: `cargo bench -p toolpack-mcp --bench load`; `LOAD_SERVER=PATH` loads another build of
//! the server instead (an earlier commit's, for a before-and-after in one run).

#[path = "support/oauth.rs"]
mod oauth;
#[path = "support/process.rs"]
mod process;

use std::time::Instant;

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::json;

use process::{cpu_seconds, gather, percentile, rss_mib, spawn_healthy};

const CLIENTS: usize = 50;
const CALLS: usize = 200;
const STATIONS: [&str; 4] = ["Kings Cross", "Victoria", "Abbey Wood", "Edgware Road"];
/// The view the view rounds read (~330 KB of page).
const VIEW: &str = "ui://toolpack/toilets";
const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"load","version":"1"}}}"#;

/// Starts the server (with OAuth when `jwks_url` is given); the child and its base URL.
async fn start(extra: &[&str], jwks_url: Option<&str>) -> (tokio::process::Child, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let base = format!("http://127.0.0.1:{port}");
    let oauth: Vec<String> = jwks_url.map_or(Vec::new(), |jwks| {
        [
            "--oauth-issuer",
            oauth::ISSUER,
            "--oauth-audience",
            &format!("{base}/mcp"),
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .chain(["--oauth-jwks-url".to_owned(), jwks.to_owned()])
        .collect()
    });
    let server = std::env::var("LOAD_SERVER")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_toolpack-mcp").to_owned());
    let mut command = tokio::process::Command::new(server);
    command
        .env_clear()
        .env("TOOLPACK_RATE_LIMIT_PER_SECOND", "0")
        .args(["serve", "--http", &format!("127.0.0.1:{port}")])
        .args(extra)
        .args(&oauth);
    (spawn_healthy(command, &base).await, base)
}

/// The bearer token of client `offset` (`None` without authentication).
fn token_for(authenticated: bool, base: &str, offset: usize) -> Option<String> {
    authenticated.then(|| {
        oauth::token(
            jsonwebtoken::Algorithm::RS256,
            &format!("load-{offset}"),
            &format!("{base}/mcp"),
        )
    })
}

/// One session client: `calls` calls; returns the latencies (µs) and the error count.
async fn session_client(
    base: String,
    token: Option<String>,
    calls: usize,
    offset: usize,
) -> (Vec<f64>, usize) {
    let mut config = StreamableHttpClientTransportConfig::with_uri(format!("{base}/mcp"));
    if let Some(token) = token {
        config = config.auth_header(token);
    }
    toolpack::http::install_crypto_provider();
    let client = ()
        .serve(StreamableHttpClientTransport::with_client(
            reqwest::Client::new(),
            config,
        ))
        .await
        .unwrap();
    let (mut latencies, mut errors) = (Vec::with_capacity(calls), 0);
    for i in 0..calls {
        let station = STATIONS[(i + offset) % STATIONS.len()];
        let mut arguments = serde_json::Map::new();
        arguments.insert("stationName".into(), json!(station));
        let started = Instant::now();
        let result = client
            .call_tool(CallToolRequestParams::new("stationToilets").with_arguments(arguments))
            .await;
        latencies.push(started.elapsed().as_secs_f64() * 1e6);
        errors += usize::from(result.is_err());
    }
    client.cancel().await.ok();
    (latencies, errors)
}

/// One client of plain JSON-RPC POSTs with a keep-alive HTTP client: stateless, or in a
/// session it opens first (the view reads in sessions; rmcp's client would answer them
/// from its cache, as the read's `ttlMs` allows).
async fn plain_client(
    base: String,
    token: Option<String>,
    calls: usize,
    offset: usize,
    mode: Mode,
) -> (Vec<f64>, usize) {
    toolpack::http::install_crypto_provider();
    let http = reqwest::Client::new();
    let url = format!("{base}/mcp");
    let authorization = token.map_or(String::new(), |t| format!("Bearer {t}"));
    let mut session = String::new();
    let post = |body: String, session: &str| {
        let mut request = http.post(&url);
        if !authorization.is_empty() {
            request = request.header("authorization", &authorization);
        }
        if !session.is_empty() {
            request = request.header("mcp-session-id", session);
        }
        request
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-06-18")
            .body(body)
    };
    let initialized = post(INITIALIZE.to_owned(), "").send().await.unwrap();
    if mode.in_sessions() {
        let id = initialized
            .headers()
            .get("mcp-session-id")
            .expect("a session");
        session = id.to_str().unwrap().to_owned();
        let notification = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        post(notification.to_owned(), &session)
            .send()
            .await
            .unwrap();
    }
    let (mut latencies, mut errors) = (Vec::with_capacity(calls), 0);
    for i in 0..calls {
        let station = STATIONS[(i + offset) % STATIONS.len()];
        let body = if mode.reads_views() {
            json!({"jsonrpc": "2.0", "id": i + 2, "method": "resources/read",
                "params": {"uri": VIEW}})
        } else {
            json!({"jsonrpc": "2.0", "id": i + 2, "method": "tools/call",
                "params": {"name": "stationToilets", "arguments": {"stationName": station}}})
        };
        let started = Instant::now();
        let ok = match post(body.to_string(), &session).send().await {
            Ok(response) => {
                response.status().is_success()
                    && response.bytes().await.is_ok_and(|bytes| answered(&bytes))
            }
            Err(_) => false,
        };
        latencies.push(started.elapsed().as_secs_f64() * 1e6);
        errors += usize::from(!ok);
    }
    (latencies, errors)
}

/// Whether `body` holds a JSON-RPC result.
fn answered(body: &[u8]) -> bool {
    body.windows(8).any(|window| window == b"\"result\"")
}

/// What a load round does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// `stationToilets` calls in sessions (rmcp's client, SSE).
    Sessions,
    /// `resources/read` of the toilets view (~330 KB) in sessions (plain POSTs).
    SessionViewReads,
    /// `stationToilets` calls as stateless JSON-RPC POSTs.
    StatelessCalls,
    /// `resources/read` of the toilets view (~330 KB) as stateless POSTs.
    StatelessViewReads,
}

impl Mode {
    /// Whether its clients open sessions.
    fn in_sessions(self) -> bool {
        matches!(self, Mode::Sessions | Mode::SessionViewReads)
    }

    /// Whether its clients read the view rather than call.
    fn reads_views(self) -> bool {
        !matches!(self, Mode::Sessions | Mode::StatelessCalls)
    }
}

async fn run(label: &str, mode: Mode, jwks: Option<&str>, clients: usize, calls: usize) {
    let stateless = !mode.in_sessions();
    let extra: &[&str] = if stateless { &["--stateless"] } else { &[] };
    let (child, base) = start(extra, jwks).await;
    let pid = child.id().unwrap();
    let authenticated = jwks.is_some();
    // Warm up: load the station data, the issuer's keys and the connection pools.
    let warm_token = token_for(authenticated, &base, 0);
    if mode != Mode::Sessions {
        plain_client(base.clone(), warm_token, 20, 0, mode).await;
    } else {
        session_client(base.clone(), warm_token, 20, 0).await;
    }
    let rss_start = rss_mib(pid);
    // Two rounds on one server: the second shows whether memory keeps growing.
    for round in 1..=2 {
        load_round(
            &format!("{label}, round {round}"),
            mode,
            &base,
            pid,
            authenticated,
            clients,
            calls,
        )
        .await;
    }
    println!(
        "  {label}: RSS at start {rss_start:.1} MiB, after both rounds {:.1} MiB",
        rss_mib(pid)
    );
}

async fn load_round(
    label: &str,
    mode: Mode,
    base: &str,
    pid: u32,
    authenticated: bool,
    clients: usize,
    calls: usize,
) {
    let (rss_before, cpu_before) = (rss_mib(pid), cpu_seconds(pid));
    let started = Instant::now();
    let tasks: Vec<_> = (0..clients)
        .map(|c| {
            let base = base.to_owned();
            let token = token_for(authenticated, &base, c);
            if mode == Mode::Sessions {
                tokio::spawn(session_client(base, token, calls, c))
            } else {
                tokio::spawn(plain_client(base, token, calls, c, mode))
            }
        })
        .collect();
    let (latencies, errors) = gather(tasks).await;
    let wall = started.elapsed().as_secs_f64();
    let (rss_after, cpu_after) = (rss_mib(pid), cpu_seconds(pid));
    let total = latencies.len();
    println!(
        "{label}: {clients} clients x {calls} calls = {total}: {:.0} calls/s, p50 {:.0} µs, p99 {:.0} µs, \
errors {errors}, server CPU {:.0} µs/call, RSS {rss_before:.1} -> {rss_after:.1} MiB",
        total as f64 / wall,
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        (cpu_after - cpu_before) * 1e6 / total as f64,
    );
}

fn main() {
    // `cargo test --benches` runs bench targets without `--bench`: stay small then.
    let (clients, calls) = if std::env::args().any(|a| a == "--bench") {
        (CLIENTS, CALLS)
    } else {
        (2, 5)
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let jwks = oauth::serve_jwks().await;
        let sessions = "sessions (streamable HTTP, SSE)";
        run(sessions, Mode::Sessions, None, clients, calls).await;
        let sessions_jwt = "sessions + JWT";
        run(sessions_jwt, Mode::Sessions, Some(&jwks), clients, calls).await;
        let stateless = "stateless (JSON)";
        run(stateless, Mode::StatelessCalls, None, clients, calls).await;
        let stateless_jwt = "stateless + JWT";
        run(
            stateless_jwt,
            Mode::StatelessCalls,
            Some(&jwks),
            clients,
            calls,
        )
        .await;
        let session_views = "session view reads (toilets page)";
        // A quarter as many: each answer is ~330 KB for the clients to read.
        run(
            session_views,
            Mode::SessionViewReads,
            None,
            clients,
            calls.div_ceil(4),
        )
        .await;
        let views = "stateless view reads (toilets page)";
        // A quarter as many: each answer is ~330 KB for the clients to read.
        run(
            views,
            Mode::StatelessViewReads,
            None,
            clients,
            calls.div_ceil(4),
        )
        .await;
    });
}
