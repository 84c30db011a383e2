//! The stdio transport: rmcp's reading of newline-delimited JSON-RPC, and a writer of
//! its own. The server it serves answers a view's read with a marker for the page, and
//! the page is written from its form serialised once (`encode.rs`) instead of copied and
//! escaped again for every `resources/read` (~330 KB; rmcp's `AsyncRwTransport`
//! serialises every message whole).
//!
//! Messages are written in the order their sends run, by one task (`lines.rs`). rmcp's
//! own replies to a malformed line (an "Invalid request" error) go through the same
//! task. Closing the transport waits until every queued line is written.

mod encode;
mod lines;
mod pages;

pub(crate) use pages::prepare;

use std::io;

use rmcp::service::{RunningService, RxJsonRpcMessage, ServerInitializeError, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::{RoleServer, ServiceExt};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;

use crate::ToolpackServer;
use lines::{Line, QueueWriter};

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
    let transport = LineTransport::new(read, write);
    server
        .with_read_substitute(pages::marked_read)
        .serve(transport)
        .await
}

/// `server` served over the process's standard input and output (through Tokio's
/// non-blocking pipe driver when both are pipes, as MCP hosts launch servers).
pub async fn serve_standard_streams(
    server: ToolpackServer,
) -> Result<RunningService<RoleServer, ToolpackServer>, ServerInitializeError> {
    let (read, write) = rmcp::transport::stdio_pipes();
    serve(server, read, write).await
}

/// A server's transport over a byte stream pair: one JSON-RPC message per line.
struct LineTransport<R: AsyncRead> {
    /// rmcp's reader of the incoming lines; its replies to malformed lines are queued.
    incoming: AsyncRwTransport<RoleServer, R, QueueWriter>,
    /// The outgoing lines, in order (`None` once closed).
    queue: Option<UnboundedSender<Line>>,
    /// The task writing the queued lines (`None` once closed).
    writer: Option<JoinHandle<()>>,
}

impl<R: AsyncRead + Send + Unpin + 'static> LineTransport<R> {
    /// A transport reading messages from `read` and writing them to `write`; starts the
    /// writing task, so it must be called within a Tokio runtime.
    fn new<W: AsyncWrite + Send + Unpin + 'static>(read: R, write: W) -> Self {
        let (queue, writer) = lines::start(write);
        Self {
            incoming: AsyncRwTransport::new(read, QueueWriter::new(queue.clone())),
            queue: Some(queue),
            writer: Some(writer),
        }
    }
}

impl<R: AsyncRead + Send + Unpin + 'static> Transport<RoleServer> for LineTransport<R> {
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let queue = self.queue.clone();
        async move {
            let line = encode::line(item).map_err(io::Error::other)?;
            queue
                .ok_or_else(lines::closed)?
                .send(line)
                .map_err(|_| lines::closed())
        }
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleServer>>> + Send {
        self.incoming.receive()
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.incoming.close().await?;
        self.queue = None;
        match self.writer.take() {
            // The task ends once every sender is gone and every line is written.
            Some(writer) => writer.await.map_err(io::Error::other),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests;
