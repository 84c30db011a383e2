//! Tool reports ([`toolpack::report`]) as MCP notifications: log events become
//! `notifications/message` at or above the session's `logging/setLevel` level, progress
//! becomes `notifications/progress` when the request carried a progress token. They are
//! sent in order, and all of them before the call's response.
//!
//! rmcp marks MCP logging deprecated (SEP-2577, removed from a future protocol version);
//! the protocol versions served today (2025-06-18, 2025-11-25) define it, and clients use it.
#![allow(deprecated)]

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use rmcp::model::{
    LoggingLevel, LoggingMessageNotificationParam, ProgressNotificationParam, ProgressToken,
};
use rmcp::service::{Peer, RoleServer};
use serde_json::json;
use tokio::sync::mpsc;
use toolpack::report::{Level, Report, Reporter};

/// The `logging/setLevel` level of one session (default: warning).
#[derive(Debug, Clone)]
pub struct SessionLevel(Arc<AtomicU8>);

impl Default for SessionLevel {
    fn default() -> Self {
        Self(Arc::new(AtomicU8::new(rank(LoggingLevel::Warning))))
    }
}

impl SessionLevel {
    /// Sets the level.
    pub fn set(&self, level: LoggingLevel) {
        self.0.store(rank(level), Ordering::Relaxed);
    }

    fn allows(&self, level: LoggingLevel) -> bool {
        rank(level) >= self.0.load(Ordering::Relaxed)
    }
}

fn rank(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

fn mcp_level(level: Level) -> LoggingLevel {
    match level {
        Level::Debug => LoggingLevel::Debug,
        Level::Info => LoggingLevel::Info,
        Level::Notice => LoggingLevel::Notice,
        Level::Warning => LoggingLevel::Warning,
        Level::Error => LoggingLevel::Error,
    }
}

/// A reporter for one call: reports are queued and sent by [`Forwarder::finish`]'s task.
struct Queue(mpsc::UnboundedSender<Report>);

impl Reporter for Queue {
    fn report(&self, report: Report) {
        let _ = self.0.send(report);
    }
}

/// Sends one call's reports to its client.
pub struct Forwarder {
    reporter: Arc<dyn Reporter>,
    task: tokio::task::JoinHandle<()>,
}

impl Forwarder {
    /// A forwarder to `peer` for a call with `progress_token`, filtered by `level`.
    pub fn start(
        peer: Peer<RoleServer>,
        level: SessionLevel,
        progress_token: Option<ProgressToken>,
    ) -> Self {
        let (sender, mut reports) = mpsc::unbounded_channel::<Report>();
        let task = tokio::spawn(async move {
            while let Some(report) = reports.recv().await {
                match report {
                    Report::Log {
                        level: l,
                        logger,
                        message,
                    } if level.allows(mcp_level(l)) => {
                        let param = LoggingMessageNotificationParam::new(
                            mcp_level(l),
                            json!({ "message": message }),
                        )
                        .with_logger(logger);
                        let _ = peer.notify_logging_message(param).await;
                    }
                    Report::Progress {
                        done,
                        total,
                        message,
                    } => {
                        let Some(token) = progress_token.clone() else {
                            continue;
                        };
                        let mut param = ProgressNotificationParam::new(token, done);
                        if let Some(total) = total {
                            param = param.with_total(total);
                        }
                        if let Some(message) = message {
                            param = param.with_message(message);
                        }
                        let _ = peer.notify_progress(param).await;
                    }
                    Report::Log { .. } => {}
                }
            }
        });
        Self {
            reporter: Arc::new(Queue(sender)),
            task,
        }
    }

    /// The reporter to run the call with.
    pub fn reporter(&self) -> Arc<dyn Reporter> {
        self.reporter.clone()
    }

    /// Waits until every report of the call has been sent.
    pub async fn finish(self) {
        drop(self.reporter);
        let _ = self.task.await;
    }
}
