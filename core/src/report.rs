//! What a tool reports while it runs: log events (an upstream retry, a data source falling
//! back) and progress. One mechanism for every tool and every surface: a tool calls
//! [`log`] or [`progress`]; whoever drives the call decides where reports go by running
//! it inside [`with_reporter`] (the MCP server turns them into `notifications/message`
//! and `notifications/progress`). Without a reporter, reports go nowhere.

use std::future::Future;
use std::sync::Arc;

/// How much a log event matters (the MCP / syslog levels a tool uses).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Detail for debugging.
    Debug,
    /// Normal operation worth knowing.
    Info,
    /// Normal but significant: a fallback was taken.
    Notice,
    /// Something went wrong and was handled: a retry.
    Warning,
    /// Something failed.
    Error,
}

/// One report of a running tool.
#[derive(Debug, Clone, PartialEq)]
pub enum Report {
    /// A log event.
    Log {
        /// How much it matters.
        level: Level,
        /// Where it comes from, e.g. `toolpack::http`.
        logger: &'static str,
        /// What happened (never a secret).
        message: String,
    },
    /// Progress of the call.
    Progress {
        /// Work done so far; grows with every report.
        done: f64,
        /// All the work, when known.
        total: Option<f64>,
        /// What is being done.
        message: Option<String>,
    },
}

impl Level {
    /// The level's MCP / syslog name (`debug`, `info`, `notice`, `warning`, `error`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Debug => "debug",
            Self::Info => "info",
            Self::Notice => "notice",
            Self::Warning => "warning",
            Self::Error => "error",
        }
    }
}

impl Report {
    /// The report as JSON, with MCP's notification field names, as the Python and Node
    /// `on_report` callbacks receive it: `{"type": "progress", "progress", "total",
    /// "message"}` or `{"type": "log", "level", "logger", "message"}` (absent values are
    /// `null`).
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Self::Log {
                level,
                logger,
                message,
            } => serde_json::json!({
                "type": "log",
                "level": level.as_str(),
                "logger": logger,
                "message": message,
            }),
            Self::Progress {
                done,
                total,
                message,
            } => serde_json::json!({
                "type": "progress",
                "progress": done,
                "total": total,
                "message": message,
            }),
        }
    }
}

/// Receives the reports of the calls run inside [`with_reporter`].
pub trait Reporter: Send + Sync {
    /// Takes one report. Called on the tool's task: keep it quick and never block.
    fn report(&self, report: Report);
}

tokio::task_local! {
    static REPORTER: Arc<dyn Reporter>;
}

/// Runs `call` with its reports going to `reporter`.
pub async fn with_reporter<F: Future>(reporter: Arc<dyn Reporter>, call: F) -> F::Output {
    REPORTER.scope(reporter, call).await
}

/// Whether the current task already reports somewhere (runs inside [`with_reporter`]).
pub fn has_reporter() -> bool {
    REPORTER.try_with(|_| ()).is_ok()
}

/// `work` made to report to the current call's reporter wherever it runs: for blocking
/// work handed to another thread (`spawn_blocking`), where the call's reporter is not
/// otherwise visible.
pub fn carried<T>(work: impl FnOnce() -> T) -> impl FnOnce() -> T {
    let reporter = REPORTER.try_with(Arc::clone).ok();
    move || match reporter {
        Some(reporter) => REPORTER.sync_scope(reporter, work),
        None => work(),
    }
}

/// Reports a log event (a no-op outside [`with_reporter`]).
pub fn log(level: Level, logger: &'static str, message: impl Into<String>) {
    let _ = REPORTER.try_with(|r| {
        r.report(Report::Log {
            level,
            logger,
            message: message.into(),
        })
    });
}

/// Reports progress (a no-op outside [`with_reporter`]).
pub fn progress(done: f64, total: Option<f64>, message: Option<String>) {
    let _ = REPORTER.try_with(|r| {
        r.report(Report::Progress {
            done,
            total,
            message,
        })
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[derive(Default)]
    struct Collect(Mutex<Vec<Report>>);

    impl Reporter for Collect {
        fn report(&self, report: Report) {
            self.0.lock().unwrap().push(report);
        }
    }

    #[tokio::test]
    async fn reports_reach_the_reporter_of_their_call_only() {
        let collect = Arc::new(Collect::default());
        log(Level::Info, "test", "nobody listens");
        with_reporter(collect.clone(), async {
            log(Level::Warning, "test", "retrying");
            tokio::task::yield_now().await;
            progress(1.0, Some(2.0), Some("half".into()));
        })
        .await;
        progress(2.0, Some(2.0), None);
        // Blocking work handed to another thread reports to the call that started it.
        with_reporter(collect.clone(), async {
            let work = carried(|| log(Level::Info, "test", "from the blocking pool"));
            tokio::task::spawn_blocking(work).await.unwrap();
        })
        .await;
        tokio::task::spawn_blocking(carried(|| log(Level::Info, "test", "nobody")))
            .await
            .unwrap();
        let got = collect.0.lock().unwrap().clone();
        assert_eq!(
            got,
            [
                Report::Log {
                    level: Level::Warning,
                    logger: "test",
                    message: "retrying".into()
                },
                Report::Progress {
                    done: 1.0,
                    total: Some(2.0),
                    message: Some("half".into())
                },
                Report::Log {
                    level: Level::Info,
                    logger: "test",
                    message: "from the blocking pool".into()
                }
            ]
        );
    }
}
