//! The `toolpack-mcp` command line: `serve` (stdio or `--http`), `tools`, `call`.

use std::net::SocketAddr;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use rmcp::ServiceExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::Value;
use toolpack::{Catalog, Config, Toolpack};

use crate::{ToolpackServer, select_tools};

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
    Serve(ServeArgs),
    /// Print the catalog (names, descriptions, schemas, annotations) as JSON.
    Tools(ToolsetArgs),
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
    #[arg(long, value_name = "ADDR")]
    http: Option<SocketAddr>,
    #[command(flatten)]
    toolsets: ToolsetArgs,
}

#[derive(Debug, Args, Default)]
struct ToolsetArgs {
    /// Comma-separated toolsets to serve: tfl, digitransit, loko. Default: every tool
    /// whose prerequisites (API keys) are met.
    #[arg(long, value_name = "LIST")]
    toolsets: Option<String>,
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
            Some(Command::Serve(args)) => serve(args).await,
            Some(Command::Tools(args)) => print_tools(args),
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

fn server(args: &ToolsetArgs) -> Result<ToolpackServer, Usage> {
    let config = Config::from_env()?;
    let selection = select_tools(&config, args.toolsets.as_deref())?;
    for (tool, why) in &selection.left_out {
        eprintln!("toolpack-mcp: {tool} not served: {why}");
    }
    Ok(ToolpackServer::new(Toolpack::new(config)?, selection.tools))
}

async fn serve(args: ServeArgs) -> Result<u8, Usage> {
    let server = server(&args.toolsets)?;
    match args.http {
        None => {
            let running = server.serve(rmcp::transport::stdio()).await?;
            running.waiting().await?;
        }
        Some(addr) => serve_http(server, addr).await?,
    }
    Ok(EXIT_OK)
}

/// Serves streamable HTTP at `/mcp` until Ctrl-C or SIGTERM.
async fn serve_http(server: ToolpackServer, addr: SocketAddr) -> Result<(), Usage> {
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        LocalSessionManager::default().into(),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!(
        "toolpack-mcp: serving MCP at http://{}/mcp",
        listener.local_addr()?
    );
    axum::serve(listener, router)
        .with_graceful_shutdown(shutdown_signal())
        .await?;
    Ok(())
}

fn print_tools(args: ToolsetArgs) -> Result<u8, Usage> {
    let server = server(&args)?;
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

async fn call(tool: &str, arguments: Option<&str>) -> Result<u8, Usage> {
    let arguments: Value = match arguments {
        None => Value::Object(Default::default()),
        Some(text) => serde_json::from_str(text)
            .map_err(|e| Usage(format!("arguments are not valid JSON: {e}")))?,
    };
    let config = Config::from_env()?;
    let entry = Catalog::get()
        .find(tool)
        .ok_or_else(|| Usage(format!("unknown tool '{tool}' (see `toolpack-mcp tools`)")))?;
    if let Some(why) = entry.missing_prerequisite(&config) {
        return Err(Usage(format!("{tool} cannot run: {why}")));
    }
    let result = Toolpack::new(config)?.call_json(tool, arguments).await?;
    print_json(&result.body)?;
    Ok(if result.is_error() {
        EXIT_TOOL_ERROR
    } else {
        EXIT_OK
    })
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
