//! The `toolpack-mcp` command line: `serve` (stdio or `--http`), `tools`, `call`.

use std::net::SocketAddr;
use std::process::ExitCode;

use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use serde_json::Value;
use toolpack::report::{Level, Report, Reporter, with_reporter};
use toolpack::{Catalog, Config, Toolpack};

use crate::http::{HttpOptions, MetricsRoute, TOKENS_ENV, parse_tokens};
use crate::toolsets::{ToolChoice, names};
use crate::{OAuthOptions, ServerLimits, ToolpackServer, select_tools};

/// Exit status of a successful run.
pub const EXIT_OK: u8 = 0;
/// Exit status when a tool answered with a contract error.
pub const EXIT_TOOL_ERROR: u8 = 1;
/// Exit status for bad usage or configuration.
pub const EXIT_USAGE: u8 = 2;

/// MCP server for the toolpack tools (TfL, Digitransit, loko).
#[derive(Debug, Parser)]
#[command(name = "toolpack-mcp", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    serve: ServeArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve MCP over stdio (default) or streamable HTTP.
    Serve(Box<ServeArgs>),
    /// Print the catalog (names, descriptions, schemas, annotations) as JSON, or with
    /// `--cost` what its definitions cost a model.
    Tools {
        #[command(flatten)]
        set: ToolsetArgs,
        /// Print each served tool's model-visible bytes and estimated tokens, per toolset
        /// and in all, and the whole `tools/list` result's bytes (`--json` for JSON).
        #[arg(long)]
        cost: bool,
        /// With --cost: the report as JSON.
        #[arg(long, requires = "cost")]
        json: bool,
    },
    /// Run one tool and print its JSON result (exit 0 ok, 1 tool error, 2 bad usage).
    Call {
        /// Tool name, e.g. stationToilets.
        tool: String,
        /// Arguments as a JSON object (default `{}`).
        arguments: Option<String>,
    },
}

#[derive(Debug, Args, Default)]
struct ServeArgs {
    /// Serve streamable HTTP at http://ADDR/mcp instead of stdio (e.g. 127.0.0.1:8080).
    /// Bearer tokens come from TOOLPACK_HTTP_TOKENS (`tok1,tok2` or `@file`).
    #[arg(long, value_name = "ADDR")]
    http: Option<SocketAddr>,
    /// Serve a non-loopback address without tokens or OAuth (warns on every start).
    #[arg(long)]
    allow_unauthenticated: bool,
    /// Accept OAuth 2.1 access tokens (JWTs) of this issuer over HTTP; needs
    /// --oauth-audience. Its keys come from its RFC 8414 or OpenID metadata.
    #[arg(long, value_name = "URL", env = "TOOLPACK_OAUTH_ISSUER")]
    oauth_issuer: Option<String>,
    /// This server's resource identifier, required in a token's `aud`, e.g.
    /// https://mcp.example.com/mcp (announced in the protected-resource metadata).
    #[arg(long, value_name = "AUD", env = "TOOLPACK_OAUTH_AUDIENCE")]
    oauth_audience: Option<String>,
    /// The issuer's JWKS URL, instead of discovering it from the issuer's metadata.
    #[arg(long, value_name = "URL", env = "TOOLPACK_OAUTH_JWKS_URL")]
    oauth_jwks_url: Option<String>,
    /// Comma-separated host names accepted in `Host` besides localhost (behind a proxy).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    allowed_hosts: Vec<String>,
    /// Comma-separated browser origins accepted in `Origin`, e.g. https://app.example.com.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    allowed_origins: Vec<String>,
    /// Stateless HTTP: no sessions, JSON responses; replicas need no sticky sessions.
    #[arg(long)]
    stateless: bool,
    /// Serve GET /metrics without authentication (for a scraper on a private network).
    /// By default it needs the same credential as /mcp.
    #[arg(long, conflicts_with = "no_metrics")]
    metrics_public: bool,
    /// Serve no /metrics and record no metrics.
    #[arg(long)]
    no_metrics: bool,
    /// Largest HTTP request body, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = crate::http::DEFAULT_MAX_BODY_BYTES)]
    max_body_bytes: usize,
    /// Tool calls in flight at once; further calls are refused at once (JSON-RPC -32001).
    #[arg(long, value_name = "N", default_value_t = ServerLimits::default().max_in_flight)]
    max_in_flight: usize,
    /// Per-call deadline in milliseconds (JSON-RPC -32002 when exceeded).
    #[arg(long, value_name = "MS", default_value_t = 30_000)]
    call_timeout_ms: u64,
    /// The deadline of a call of a long-running tool (`build_docs`, which may build a
    /// PDF), in milliseconds: run as a task for clients that take tasks, or as a call.
    #[arg(
        long,
        value_name = "MS",
        env = "TOOLPACK_LONG_CALL_TIMEOUT_MS",
        default_value_t = 600_000
    )]
    long_call_timeout_ms: u64,
    /// The longest a person may take to answer a question (an MCP elicitation: which of
    /// two places a name means), in milliseconds; then the tool answers as if nobody
    /// picked. The call's deadline stands still meanwhile.
    #[arg(
        long,
        value_name = "MS",
        env = "TOOLPACK_ELICITATION_WAIT_MS",
        default_value_t = 300_000
    )]
    elicitation_wait_ms: u64,
    /// The key (at least 32 bytes) that seals what a stateless 2026-07-28 client brings
    /// back when it answers a question: set the same on every replica. Unset, each
    /// process draws its own.
    #[arg(long, value_name = "KEY", env = "TOOLPACK_REQUEST_STATE_KEY", hide_env_values = true, value_parser = secret)]
    request_state_key: Option<toolpack::Secret>,
    /// On SIGTERM or Ctrl-C, how long calls in flight may take to finish, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    shutdown_grace_ms: u64,
    #[command(flatten)]
    toolsets: ToolsetArgs,
}

#[derive(Debug, Args, Default)]
struct ToolsetArgs {
    /// Comma-separated toolsets to serve: tfl, digitransit, loko. Default: every tool
    /// whose prerequisites (API keys) are met.
    #[arg(long, value_name = "LIST")]
    toolsets: Option<String>,
    /// Serve only the tools annotated read-only.
    #[arg(long)]
    read_only: bool,
    /// Comma-separated tools to serve (within --toolsets), e.g. stationToilets,planJourney.
    #[arg(long, value_name = "LIST")]
    tools: Option<String>,
    /// Comma-separated tools not to serve.
    #[arg(long, value_name = "LIST")]
    exclude_tools: Option<String>,
}

impl ToolsetArgs {
    fn choice(&self) -> Result<ToolChoice, Usage> {
        let choice = ToolChoice {
            read_only: self.read_only,
            toolsets: None,
            only: self.tools.as_deref().map(names),
            exclude: self.exclude_tools.as_deref().map(names).unwrap_or_default(),
        };
        choice.check_names()?;
        Ok(choice)
    }
}

/// A secret argument: kept out of `Debug`.
fn secret(value: &str) -> Result<toolpack::Secret, std::convert::Infallible> {
    Ok(toolpack::Secret::new(value))
}

/// A usage or configuration problem: printed on stderr, exit status 2.
#[derive(Debug)]
struct Usage(String);

impl<E: std::fmt::Display> From<E> for Usage {
    fn from(e: E) -> Self {
        Self(e.to_string())
    }
}

impl Cli {
    /// Runs the command and returns the process exit status.
    pub async fn run(self) -> ExitCode {
        let outcome = match self.command {
            None => serve(self.serve).await,
            Some(Command::Serve(args)) => serve(*args).await,
            Some(Command::Tools { set, cost, json }) => {
                if cost {
                    print_cost(&set, json)
                } else {
                    print_tools(set)
                }
            }
            Some(Command::Call { tool, arguments }) => call(&tool, arguments.as_deref()).await,
        };
        match outcome {
            Ok(code) => ExitCode::from(code),
            Err(Usage(message)) => {
                eprintln!("toolpack-mcp: {message}");
                ExitCode::from(EXIT_USAGE)
            }
        }
    }
}

/// The settings in the environment, with PostgreSQL to open `TOOLPACK_DATABASE_URL`.
fn config_from_env() -> Result<Config, Usage> {
    let config = Config::from_env()?;
    Ok(config
        .to_builder()
        .database(toolpack_postgres::engine())
        .build())
}

/// The server for `args`; `remote` when it serves HTTP callers (then the tools that
/// must not be served remotely are left out, see `Config::missing_remote_prerequisite`).
fn server(args: &ToolsetArgs, remote: bool) -> Result<ToolpackServer, Usage> {
    let config = config_from_env()?;
    let mut selection = select_tools(&config, args.toolsets.as_deref())?.narrowed(&args.choice()?);
    if remote {
        selection = selection.for_remote_callers(&config, args.toolsets.is_some())?;
    }
    for (tool, why) in &selection.left_out {
        eprintln!("toolpack-mcp: {tool} not served: {why}");
    }
    Ok(ToolpackServer::new(Toolpack::new(config)?, selection.tools))
}

async fn serve(args: ServeArgs) -> Result<u8, Usage> {
    let limits = ServerLimits {
        max_in_flight: args.max_in_flight.max(1),
        call_deadline: Duration::from_millis(args.call_timeout_ms.max(1)),
        elicitation_wait: Duration::from_millis(args.elicitation_wait_ms.max(1)),
        long_call_deadline: Duration::from_millis(args.long_call_timeout_ms.max(1)),
    };
    let mut server = server(&args.toolsets, args.http.is_some())?.with_limits(limits);
    if let Some(key) = &args.request_state_key {
        server =
            server.with_state_key(crate::StateKey::new(key.expose().as_bytes()).map_err(Usage)?);
    }
    // The views' answers are ready before the first read asks for them.
    tokio::task::spawn_blocking(crate::views::prepare);
    match args.http {
        None => {
            let running = crate::stdio::serve_standard_streams(server).await?;
            running.waiting().await?;
        }
        Some(addr) => serve_http(server, addr, &args).await?,
    }
    Ok(EXIT_OK)
}

/// The HTTP options of `args`: the tokens of `TOOLPACK_HTTP_TOKENS` and the OAuth
/// settings; refuses a non-loopback address without either unless
/// `--allow-unauthenticated`.
fn http_options(addr: SocketAddr, args: &ServeArgs) -> Result<HttpOptions, Usage> {
    let tokens = match std::env::var(TOKENS_ENV) {
        Ok(value) => parse_tokens(&value).map_err(|e| Usage(format!("{TOKENS_ENV}: {e}")))?,
        Err(_) => Vec::new(),
    };
    let oauth = match (&args.oauth_issuer, &args.oauth_audience) {
        (Some(issuer), Some(audience)) => Some(OAuthOptions {
            issuer: issuer.trim().to_owned(),
            audience: audience.trim().to_owned(),
            jwks_url: args.oauth_jwks_url.clone(),
        }),
        (None, None) => None,
        _ => {
            return Err(Usage(
                "--oauth-issuer and --oauth-audience go together (a token's aud must name this \
server)"
                    .into(),
            ));
        }
    };
    let options = HttpOptions {
        tokens,
        oauth,
        allowed_hosts: args.allowed_hosts.clone(),
        allowed_origins: args.allowed_origins.clone(),
        stateless: args.stateless,
        max_body_bytes: args.max_body_bytes,
        metrics: match (args.metrics_public, args.no_metrics) {
            (_, true) => MetricsRoute::Off,
            (true, false) => MetricsRoute::Public,
            (false, false) => MetricsRoute::Authenticated,
        },
    };
    if !options.authenticates() && !addr.ip().is_loopback() {
        if !args.allow_unauthenticated {
            return Err(Usage(format!(
                "refusing to serve {addr} without authentication: set {TOKENS_ENV} or \
--oauth-issuer, or pass --allow-unauthenticated"
            )));
        }
        eprintln!(
            "toolpack-mcp: WARNING: serving {addr} without authentication (--allow-unauthenticated)"
        );
    }
    Ok(options)
}

/// Serves streamable HTTP at `/mcp` (and `/healthz`) until Ctrl-C or SIGTERM; then stops
/// accepting and lets calls in flight finish for up to `--shutdown-grace-ms`.
/// How long the last answers get, once the calls in flight are done, to reach their
/// clients' event streams before shutdown ends the sessions.
const ANSWERS_IN_TRANSIT: Duration = Duration::from_millis(250);

async fn serve_http(
    server: ToolpackServer,
    addr: SocketAddr,
    args: &ServeArgs,
) -> Result<(), Usage> {
    let options = http_options(addr, args)?;
    let watcher = server.clone();
    let (router, end_sessions) = crate::http::router(server, &options);
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let mode = if options.stateless {
        "stateless"
    } else {
        "sessions"
    };
    let auth = match (options.tokens.is_empty(), &options.oauth) {
        (true, None) => "no auth".to_owned(),
        (false, None) => format!("{} bearer tokens", options.tokens.len()),
        (true, Some(oauth)) => format!("OAuth issuer {}", oauth.issuer),
        (false, Some(oauth)) => format!(
            "{} bearer tokens and OAuth issuer {}",
            options.tokens.len(),
            oauth.issuer
        ),
    };
    eprintln!(
        "toolpack-mcp: serving MCP at http://{}/mcp ({mode}, {auth})",
        listener.local_addr()?
    );
    // On the signal: stop accepting at once, let the calls in flight finish (at most the
    // grace period), then end the sessions so open event streams close and axum returns.
    let grace = Duration::from_millis(args.shutdown_grace_ms);
    let (stopped_tx, stopped_rx) = tokio::sync::oneshot::channel::<()>();
    let serving = axum::serve(listener, router).with_graceful_shutdown(async move {
        shutdown_signal().await;
        eprintln!(
            "toolpack-mcp: stopping; waiting for {} calls in flight",
            watcher.calls_in_flight()
        );
        tokio::spawn(async move {
            if tokio::time::timeout(grace, watcher.drained())
                .await
                .is_err()
            {
                eprintln!(
                    "toolpack-mcp: shutdown grace of {} ms elapsed with calls in flight",
                    grace.as_millis()
                );
            } else {
                // A call counts as done when its tool returns; its answer then still goes
                // from the session's worker to the event stream, which ending the sessions
                // would close under it.
                tokio::time::sleep(ANSWERS_IN_TRANSIT).await;
            }
            end_sessions();
            let _ = stopped_tx.send(());
        });
    });
    tokio::select! {
        served = serving => served?,
        // Sessions ended: give connections a moment to close, then stop regardless.
        () = async {
            if stopped_rx.await.is_ok() {
                tokio::time::sleep(Duration::from_secs(1)).await;
            } else {
                std::future::pending::<()>().await;
            }
        } => {}
    }
    Ok(())
}

fn print_tools(args: ToolsetArgs) -> Result<u8, Usage> {
    let server = server(&args, false)?;
    let all = Catalog::get().to_json();
    let served: Vec<Value> = all
        .as_array()
        .into_iter()
        .flatten()
        .filter(|t| server.tools().iter().any(|e| t["name"] == e.spec.name))
        .cloned()
        .collect();
    print_json(&Value::Array(served))?;
    Ok(EXIT_OK)
}

fn print_cost(args: &ToolsetArgs, json: bool) -> Result<u8, Usage> {
    let server = server(args, false)?;
    let costs = crate::cost::costs(server.listed_tools());
    let listed: Vec<rmcp::model::Tool> = server.listed_tools().map(|(t, _)| t.clone()).collect();
    let reply = crate::cost::reply_bytes(&listed);
    if json {
        print_json(&crate::cost::report_json(&costs, reply))?;
    } else {
        print!("{}", crate::cost::report(&costs, reply));
    }
    Ok(EXIT_OK)
}

async fn call(tool: &str, arguments: Option<&str>) -> Result<u8, Usage> {
    let arguments: Value = match arguments {
        None => Value::Object(Default::default()),
        Some(text) => serde_json::from_str(text)
            .map_err(|e| Usage(format!("arguments are not valid JSON: {e}")))?,
    };
    let config = config_from_env()?;
    let entry = Catalog::get()
        .find(tool)
        .ok_or_else(|| Usage(format!("unknown tool '{tool}' (see `toolpack-mcp tools`)")))?;
    if let Some(why) = entry.missing_prerequisite(&config) {
        return Err(Usage(format!("{tool} cannot run: {why}")));
    }
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let reporter: std::sync::Arc<dyn Reporter> =
        std::sync::Arc::new(StderrReporter { progress: terminal });
    let toolpack = Toolpack::new(config)?;
    let result = with_reporter(reporter, toolpack.call_json(tool, arguments)).await?;
    if terminal {
        eprint!("\r\x1b[2K"); // clear a progress line left open
    }
    print_json(&result.body)?;
    Ok(if result.is_error() {
        EXIT_TOOL_ERROR
    } else {
        EXIT_OK
    })
}

/// What `call` shows of a tool's reports on stderr: log events at warning and above, and
/// progress when stderr is a terminal (one line, redrawn).
struct StderrReporter {
    progress: bool,
}

impl Reporter for StderrReporter {
    fn report(&self, report: Report) {
        match report {
            Report::Log { level, message, .. } if level >= Level::Warning => {
                eprintln!("toolpack-mcp: {level:?}: {message}")
            }
            Report::Progress {
                done,
                total,
                message,
            } if self.progress => {
                eprint!(
                    "\r\x1b[2K{}",
                    progress_line(done, total, message.as_deref())
                );
                if total.is_some_and(|t| done >= t) {
                    eprintln!();
                }
            }
            _ => {}
        }
    }
}

/// Width of the progress bar, in cells.
const BAR_CELLS: usize = 24;
/// The longest message shown beside the bar, in characters.
const BAR_MESSAGE: usize = 60;

/// One line of progress: `[█████░░░…] 12/30 diagram 12/30: src/shop/system.d2`, or a
/// count alone when the total is unknown.
fn progress_line(done: f64, total: Option<f64>, message: Option<&str>) -> String {
    let text: String = message
        .unwrap_or_default()
        .chars()
        .take(BAR_MESSAGE)
        .collect();
    match total.filter(|t| *t > 0.0) {
        Some(total) => {
            let filled = ((done / total).clamp(0.0, 1.0) * BAR_CELLS as f64).round() as usize;
            format!(
                "[{}{}] {done}/{total} {text}",
                "█".repeat(filled),
                "░".repeat(BAR_CELLS - filled)
            )
        }
        None => format!("{done} {text}"),
    }
}

/// Prints `value` as pretty JSON on stdout. A closed pipe (`| head`) is not an error.
fn print_json(value: &Value) -> Result<(), Usage> {
    use std::io::Write;
    let text = serde_json::to_string_pretty(value)?;
    match writeln!(std::io::stdout().lock(), "{text}") {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

/// Resolves on Ctrl-C (SIGINT) or, on Unix, SIGTERM.
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
    eprintln!("toolpack-mcp: shutting down");
}

#[cfg(test)]
mod tests {
    use super::progress_line;

    #[test]
    fn the_progress_bar_fills_with_the_work_done() {
        assert_eq!(
            progress_line(6.0, Some(24.0), Some("diagram 6/24: src/a/system.d2")),
            format!(
                "[{}{}] 6/24 diagram 6/24: src/a/system.d2",
                "█".repeat(6),
                "░".repeat(18)
            )
        );
        assert!(
            progress_line(30.0, Some(24.0), None).starts_with(&format!("[{}]", "█".repeat(24)))
        );
        assert_eq!(progress_line(3.0, None, Some("x")), "3 x");
        assert_eq!(
            progress_line(1.0, Some(2.0), Some(&"m".repeat(100)))
                .chars()
                .filter(|c| *c == 'm')
                .count(),
            60
        );
    }
}
