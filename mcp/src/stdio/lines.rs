//! The outgoing lines: queued in order, written by one task.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::Bytes;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc::{self, UnboundedReceiver, UnboundedSender};
use tokio::task::JoinHandle;

/// One message's line, newline included, in shared chunks.
pub(super) type Line = Vec<Bytes>;

/// How many queued lines are written before a flush, at most.
const LINES_PER_FLUSH: usize = 64;

/// The error of a send after the transport closed or its output failed.
pub(super) fn closed() -> io::Error {
    io::Error::new(io::ErrorKind::NotConnected, "the transport is closed")
}

/// Starts the task writing the lines sent on the returned queue to `out`, in order. It
/// ends when every sender is dropped and the lines are written, or when a write fails.
pub(super) fn start<W>(out: W) -> (UnboundedSender<Line>, JoinHandle<()>)
where
    W: AsyncWrite + Send + Unpin + 'static,
{
    let (queue, lines) = mpsc::unbounded_channel();
    (queue, tokio::spawn(write_lines(out, lines)))
}

async fn write_lines<W: AsyncWrite + Unpin>(mut out: W, mut lines: UnboundedReceiver<Line>) {
    let mut batch = Vec::with_capacity(LINES_PER_FLUSH);
    while lines.recv_many(&mut batch, LINES_PER_FLUSH).await > 0 {
        for chunk in batch.drain(..).flatten() {
            if let Err(error) = out.write_all(&chunk).await {
                tracing::error!(%error, "cannot write a message; the transport stops writing");
                return;
            }
        }
        if let Err(error) = out.flush().await {
            tracing::error!(%error, "cannot flush the output; the transport stops writing");
            return;
        }
    }
}

/// The output rmcp's reader writes its own replies to: each flush queues what was written
/// since the last one as a line.
pub(super) struct QueueWriter {
    /// Written, not yet flushed.
    pending: Vec<u8>,
    /// Where flushed lines go.
    queue: UnboundedSender<Line>,
}

impl QueueWriter {
    /// A writer queueing its lines on `queue`.
    pub fn new(queue: UnboundedSender<Line>) -> Self {
        Self {
            pending: Vec::new(),
            queue,
        }
    }
}

impl AsyncWrite for QueueWriter {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.get_mut().pending.extend_from_slice(buf);
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.pending.is_empty() {
            return Poll::Ready(Ok(()));
        }
        let line = vec![Bytes::from(std::mem::take(&mut this.pending))];
        Poll::Ready(this.queue.send(line).map_err(|_| closed()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.poll_flush(cx)
    }
}
