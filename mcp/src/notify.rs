//! Tool reports ([`toolpack::report`]) as MCP notifications: log events become
//! `notifications/message` at or above the session's `logging/setLevel` level, progress
//! becomes `notifications/progress` when the request carried a progress token. They are
//! sent in order, and all of them before the call's response.
//!
//! rmcp marks MCP logging deprecated (SEP-2577, removed from a future protocol version);
//! the protocol versions served today (2025-06-18, 2025-11-25) define it, and clients use it.
#![allow(deprecated)]

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};

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

/// What sends one call's reports, started by its first report that is to be sent.
struct Sending {
    reports: mpsc::UnboundedSender<Report>,
    task: tokio::task::JoinHandle<()>,
}

/// One call's reporter: a report to be sent (a log event at or above the session's level,
/// progress when the request carried a token) is queued for a task that sends them in
/// order. The task is started by the first such report, so a call that sends nothing (most
/// calls) spawns nothing. Once the call has finished, reports are dropped: nothing follows
/// the response.
struct Queue {
    peer: Peer<RoleServer>,
    level: SessionLevel,
    progress_token: Option<ProgressToken>,
    sending: Mutex<Stage>,
}

/// Where a call's reporting is.
enum Stage {
    /// Nothing sent yet.
    Idle,
    /// The sending task runs.
    Sending(Sending),
    /// The call has finished.
    Finished,
}

impl Queue {
    fn is_sent(&self, report: &Report) -> bool {
        match report {
            Report::Log { level, .. } => self.level.allows(mcp_level(*level)),
            Report::Progress { .. } => self.progress_token.is_some(),
        }
    }

    /// The task sending to `peer`, in the order queued.
    fn start(&self) -> Sending {
        let (reports, mut queued) = mpsc::unbounded_channel::<Report>();
        let peer = self.peer.clone();
        let progress_token = self.progress_token.clone();
        let task = tokio::spawn(async move {
            while let Some(report) = queued.recv().await {
                match report {
                    Report::Log {
                        level,
                        logger,
                        message,
                    } => {
                        let param = LoggingMessageNotificationParam::new(
                            mcp_level(level),
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
                }
            }
        });
        Sending { reports, task }
    }
}

impl Reporter for Queue {
    fn report(&self, report: Report) {
        if !self.is_sent(&report) {
            return;
        }
        let mut stage = self.sending.lock().unwrap_or_else(|p| p.into_inner());
        if matches!(*stage, Stage::Idle) {
            *stage = Stage::Sending(self.start());
        }
        if let Stage::Sending(sending) = &*stage {
            let _ = sending.reports.send(report);
        }
    }
}

/// Sends one call's reports to its client.
pub struct Forwarder {
    queue: Arc<Queue>,
}

impl Forwarder {
    /// A forwarder to `peer` for a call with `progress_token`, filtered by `level`.
    pub fn start(
        peer: Peer<RoleServer>,
        level: SessionLevel,
        progress_token: Option<ProgressToken>,
    ) -> Self {
        Self {
            queue: Arc::new(Queue {
                peer,
                level,
                progress_token,
                sending: Mutex::new(Stage::Idle),
            }),
        }
    }

    /// The reporter to run the call with.
    pub fn reporter(&self) -> Arc<dyn Reporter> {
        self.queue.clone()
    }

    /// Waits until every report of the call has been sent.
    pub async fn finish(self) {
        let stage = std::mem::replace(
            &mut *self.queue.sending.lock().unwrap_or_else(|p| p.into_inner()),
            Stage::Finished,
        );
        if let Stage::Sending(Sending { reports, task }) = stage {
            drop(reports);
            let _ = task.await;
        }
    }
}
