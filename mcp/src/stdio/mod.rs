//! The stdio transport: rmcp's reading of newline-delimited JSON-RPC, and a writer of
//! its own so that a view's page is sent from its serialised form ([`encode`]) instead of
//! escaped again for every `resources/read` (~330 KB of escaping; rmcp's
//! `AsyncRwTransport` serialises every message whole).
//!
//! Messages are written in the order their sends run, by one task ([`lines`]). rmcp's
//! own replies to a malformed line (an "Invalid request" error) go through the same
//! task. Closing the transport waits until every queued line is written.

mod encode;
mod lines;

use std::io;

use rmcp::RoleServer;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::transport::{StdioReader, Transport};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;

use lines::{Line, QueueWriter};

/// A server's transport over a byte stream pair: one JSON-RPC message per line.
pub struct LineTransport<R: AsyncRead> {
    /// rmcp's reader of the incoming lines; its replies to malformed lines are queued.
    incoming: AsyncRwTransport<RoleServer, R, QueueWriter>,
    /// The outgoing lines, in order (`None` once closed).
    queue: Option<UnboundedSender<Line>>,
    /// The task writing the queued lines (`None` once closed).
    writer: Option<JoinHandle<()>>,
}

/// The transport of the process's standard input and output (through Tokio's
/// non-blocking pipe driver when both are pipes, as MCP hosts launch servers).
pub fn stdio() -> LineTransport<StdioReader> {
    let (read, write) = rmcp::transport::stdio_pipes();
    LineTransport::new(read, write)
}

impl<R: AsyncRead + Send + Unpin + 'static> LineTransport<R> {
    /// A transport reading messages from `read` and writing them to `write`; starts the
    /// writing task, so it must be called within a Tokio runtime.
    pub fn new<W: AsyncWrite + Send + Unpin + 'static>(read: R, write: W) -> Self {
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
