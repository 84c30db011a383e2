//! Tool reports ([`toolpack::report`]) as MCP notifications: log events become
//! `notifications/message` at or above the call's level ([`SessionLevel::of_request`]), progress
//! becomes `notifications/progress` when the request carried a progress token. They are
//! sent in order, and all of them before the call's response, to the request's peer.
//!
//! rmcp marks MCP logging deprecated (SEP-2577): 2025-06-18 and 2025-11-25 define it, and
//! clients use it; on 2026-07-28 a call gets log messages only when its request's `_meta`
//! names a level (`io.modelcontextprotocol/logLevel`).
#![allow(deprecated)]

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::model::{
    LoggingLevel, LoggingMessageNotification, LoggingMessageNotificationParam,
    ProgressNotification, ProgressNotificationParam, ProgressToken, ServerNotification,
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
    /// The level a call of `context` is filtered by: on 2026-07-28 the one its request's
    /// `_meta` names (`io.modelcontextprotocol/logLevel`), and none at all without it (that
    /// version sends no `notifications/message` unasked); before it, the session's
    /// (`logging/setLevel`).
    pub fn of_request(
        session: &SessionLevel,
        context: &rmcp::service::RequestContext<RoleServer>,
    ) -> SessionLevel {
        let per_request = context
            .protocol_version()
            .is_some_and(|version| version >= rmcp::model::ProtocolVersion::V_2026_07_28);
        if !per_request {
            return session.clone();
        }
        Self(Arc::new(AtomicU8::new(
            context.meta.log_level().map_or(SILENT, rank),
        )))
    }

    /// Sets the level.
    pub fn set(&self, level: LoggingLevel) {
        self.0.store(rank(level), Ordering::Relaxed);
    }

    fn allows(&self, level: LoggingLevel) -> bool {
        rank(level) >= self.0.load(Ordering::Relaxed)
    }
}

/// A rank above every level's: nothing is sent.
const SILENT: u8 = u8::MAX;

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

/// Where one call's notifications go.
pub enum Destination {
    /// To the client as they come, through the MCP service's peer.
    Peer(Peer<RoleServer>),
    /// A task's: progress becomes its status message (`tasks/get` shows it); log events
    /// are not sent (nothing follows a task's creation).
    Task(rmcp::task_manager::TaskContext),
}

/// A progress report as a task's status message: its message, else how far it is.
fn status(done: f64, total: Option<f64>, message: Option<String>) -> String {
    match (message, total) {
        (Some(message), _) => message,
        (None, Some(total)) => format!("{done} of {total}"),
        (None, None) => format!("{done} done"),
    }
}

/// What sends one call's notifications to a peer, started by the first one.
struct Sending {
    notifications: mpsc::UnboundedSender<ServerNotification>,
    task: tokio::task::JoinHandle<()>,
}

/// One call's reporter: a report to be sent (a log event at or above the session's level,
/// progress when the request carried a token) becomes a notification, queued for a task
/// that sends them to the peer in order. The task is started by the
/// first notification, so a call that sends nothing (most calls) spawns nothing. Once the
/// call has finished, reports are dropped: nothing follows the response.
struct Queue {
    destination: Destination,
    level: SessionLevel,
    progress_token: Option<ProgressToken>,
    stage: Mutex<Stage>,
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
    /// The notification `report` becomes, if it is to be sent.
    fn notification(&self, report: Report) -> Option<ServerNotification> {
        match report {
            Report::Log {
                level,
                logger,
                message,
            } => {
                let level = mcp_level(level);
                if !self.level.allows(level) {
                    return None;
                }
                let params =
                    LoggingMessageNotificationParam::new(level, json!({ "message": message }))
                        .with_logger(logger);
                Some(ServerNotification::LoggingMessageNotification(
                    LoggingMessageNotification::new(params),
                ))
            }
            Report::Progress {
                done,
                total,
                message,
            } => {
                let mut params = ProgressNotificationParam::new(self.progress_token.clone()?, done);
                if let Some(total) = total {
                    params = params.with_total(total);
                }
                if let Some(message) = message {
                    params = params.with_message(message);
                }
                Some(ServerNotification::ProgressNotification(
                    ProgressNotification::new(params),
                ))
            }
        }
    }

    /// The task sending to `peer`, in the order queued.
    fn start(peer: &Peer<RoleServer>) -> Sending {
        let (notifications, mut queued) = mpsc::unbounded_channel::<ServerNotification>();
        let peer = peer.clone();
        let task = tokio::spawn(async move {
            while let Some(notification) = queued.recv().await {
                let _ = peer.send_notification(notification).await;
            }
        });
        Sending {
            notifications,
            task,
        }
    }
}

impl Reporter for Queue {
    fn report(&self, report: Report) {
        if let Destination::Task(task) = &self.destination {
            if let Report::Progress {
                done,
                total,
                message,
            } = report
            {
                task.set_status_message(status(done, total, message));
            }
            return;
        }
        let Some(notification) = self.notification(report) else {
            return;
        };
        let mut stage = self.stage.lock().unwrap_or_else(|p| p.into_inner());
        if let (Stage::Idle, Destination::Peer(peer)) = (&*stage, &self.destination) {
            *stage = Stage::Sending(Queue::start(peer));
        }
        if let Stage::Sending(sending) = &mut *stage {
            let _ = sending.notifications.send(notification);
        }
    }
}

/// Sends one call's reports to its client.
pub struct Forwarder {
    queue: Arc<Queue>,
}

impl Forwarder {
    /// A forwarder to `destination` for a call with `progress_token`, filtered by `level`.
    pub fn start(
        destination: Destination,
        level: SessionLevel,
        progress_token: Option<ProgressToken>,
    ) -> Self {
        Self {
            queue: Arc::new(Queue {
                destination,
                level,
                progress_token,
                stage: Mutex::new(Stage::Idle),
            }),
        }
    }

    /// The reporter to run the call with.
    pub fn reporter(&self) -> Arc<dyn Reporter> {
        self.queue.clone()
    }

    /// Waits until every notification of the call has been sent to the peer.
    pub async fn finish(self) {
        let stage = std::mem::replace(
            &mut *self.queue.stage.lock().unwrap_or_else(|p| p.into_inner()),
            Stage::Finished,
        );
        match stage {
            Stage::Sending(Sending {
                notifications,
                task,
            }) => {
                drop(notifications);
                let _ = task.await;
            }
            Stage::Idle | Stage::Finished => {}
        }
    }
}
