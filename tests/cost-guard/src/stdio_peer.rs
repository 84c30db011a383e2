//! A JSON-RPC peer of the MCP server over its stdio transport, in process, that counts
//! the answers' bytes rather than copying them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::json;
use toolpack_mcp::ToolpackServer;

use crate::answers::assert_answered;

/// A JSON-RPC peer of a server served over its stdio transport: requests go in on an
/// in-process pipe, and answers come out to an [`Output`] that counts them.
pub struct StdioPeer {
    writer: tokio::io::DuplexStream,
    /// Each answer's length, and its bytes while [`Self::keep`] is set.
    answers: tokio::sync::mpsc::UnboundedReceiver<(usize, Vec<u8>)>,
    /// Whether the output keeps the answers' bytes (for the first answer's check).
    keep: Arc<AtomicBool>,
    /// The first answer's length, once checked whole.
    expected_length: Option<usize>,
}

impl StdioPeer {
    /// A peer of `server`, initialised.
    pub async fn connect(server: ToolpackServer) -> Self {
        let (server_input, writer) = tokio::io::duplex(64 * 1024);
        let (sender, answers) = tokio::sync::mpsc::unbounded_channel();
        let keep = Arc::new(AtomicBool::new(true));
        let output = Output {
            kept: Vec::new(),
            length: 0,
            keep: keep.clone(),
            answers: sender,
        };
        tokio::spawn(async move {
            let running = toolpack_mcp::stdio::serve(server, server_input, output)
                .await
                .expect("a running server");
            let _ = running.waiting().await;
        });
        let mut peer = Self {
            writer,
            answers,
            keep,
            expected_length: None,
        };
        let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "guard", "version": "1"}}});
        peer.ask(&initialize.to_string()).await;
        peer.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
        peer
    }

    async fn send(&mut self, line: &str) {
        use tokio::io::AsyncWriteExt;
        let line = format!("{line}\n");
        self.writer
            .write_all(line.as_bytes())
            .await
            .expect("a write");
    }

    /// Sends `request` and waits for its answer: its length and kept bytes.
    pub async fn ask(&mut self, request: &str) -> (usize, Vec<u8>) {
        self.send(request).await;
        self.answers.recv().await.expect("an answer")
    }

    /// Checks the first answer whole and the others' length only (as the HTTP
    /// scenarios do), no longer keeping their bytes.
    pub fn check(&mut self, scenario: &str, (length, kept): (usize, Vec<u8>)) {
        match self.expected_length {
            Some(expected) => assert_eq!(length, expected, "{scenario}: another answer"),
            None => {
                let answer = serde_json::from_slice(&kept).expect("JSON-RPC");
                assert_answered(scenario, &answer);
                self.expected_length = Some(length);
                self.keep.store(false, Ordering::Relaxed);
            }
        }
    }
}

/// The server's standard output as the guard sees it: each line's length, and its bytes
/// only while asked to keep them. Over real stdio the bytes go to the kernel, whose
/// copies are not the server's work; a pipe here would count two more copies of a page.
struct Output {
    /// The bytes of the line being written, when kept.
    kept: Vec<u8>,
    /// The length of the line being written.
    length: usize,
    keep: Arc<AtomicBool>,
    /// Where each whole line goes.
    answers: tokio::sync::mpsc::UnboundedSender<(usize, Vec<u8>)>,
}

impl tokio::io::AsyncWrite for Output {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        this.length += buf.len();
        if this.keep.load(Ordering::Relaxed) {
            this.kept.extend_from_slice(buf);
        }
        // A line's last write ends it; JSON holds no raw newline before that.
        if buf.ends_with(b"\n") {
            let line = (
                std::mem::take(&mut this.length),
                std::mem::take(&mut this.kept),
            );
            let _ = this.answers.send(line);
        }
        std::task::Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }
}
