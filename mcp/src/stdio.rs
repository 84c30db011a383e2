//! The stdio transport: rmcp's, one JSON-RPC message per line.

use rmcp::service::{RunningService, ServerInitializeError};
use rmcp::{RoleServer, ServiceExt};
use tokio::io::{AsyncRead, AsyncWrite};

use crate::ToolpackServer;

/// `server` served over `read` and `write`, one JSON-RPC message per line; within a
/// Tokio runtime.
pub async fn serve<R, W>(
    server: ToolpackServer,
    read: R,
    write: W,
) -> Result<RunningService<RoleServer, ToolpackServer>, ServerInitializeError>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    server.serve((read, write)).await
}

/// `server` served over the process's standard input and output (through Tokio's
/// non-blocking pipe driver when both are pipes, as MCP hosts launch servers).
pub async fn serve_standard_streams(
    server: ToolpackServer,
) -> Result<RunningService<RoleServer, ToolpackServer>, ServerInitializeError> {
    server.serve(rmcp::transport::stdio_pipes()).await
}
