//! `toolpack-mcp`: see `toolpack-mcp --help`. Logs go to stderr only (stdout is the
//! MCP transport in stdio mode); set `RUST_LOG` (default `warn`) to see more, and
//! `OTEL_EXPORTER_OTLP_ENDPOINT` to export traces.

use std::process::ExitCode;

use clap::Parser;

#[tokio::main]
async fn main() -> ExitCode {
    let telemetry = toolpack_mcp::telemetry::init();
    let code = toolpack_mcp::cli::Cli::parse().run().await;
    drop(telemetry);
    code
}
