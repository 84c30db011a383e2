//! `toolpack-mcp`: see `toolpack-mcp --help`. Logs go to stderr only (stdout is the
//! MCP transport in stdio mode); set `RUST_LOG` (default `warn`) to see more.

use std::process::ExitCode;

use clap::Parser;
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("warn")),
        )
        .init();
    toolpack_mcp::cli::Cli::parse().run().await
}
