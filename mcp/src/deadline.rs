//! A call's deadline that stands still while a person is choosing: the time a person takes
//! to answer an elicitation is not the tool's time (it has its own bound, the
//! `--elicitation-wait-ms` setting).

use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;

/// When a call is due, and whether a person is being asked now.
#[derive(Debug, Clone, Copy)]
struct State {
    due: Instant,
    /// Questions waiting for a person now.
    asking: usize,
    /// Since when the oldest of them has waited.
    since: Instant,
}

/// One call's deadline. Cheap to clone: every clone is the same deadline.
#[derive(Debug, Clone)]
pub(crate) struct Deadline {
    state: watch::Sender<State>,
}

/// Holds the deadline still until dropped.
pub(crate) struct Paused {
    deadline: Deadline,
}

impl Deadline {
    /// A deadline `limit` from now.
    pub fn after(limit: Duration) -> Self {
        let now = Instant::now();
        let (state, _) = watch::channel(State {
            due: now + limit,
            asking: 0,
            since: now,
        });
        Self { state }
    }

    /// Stops the clock until the returned guard is dropped; then the deadline moves on
    /// by the time it stood still.
    pub fn pause(&self) -> Paused {
        self.state.send_modify(|state| {
            if state.asking == 0 {
                state.since = Instant::now();
            }
            state.asking += 1;
        });
        Paused {
            deadline: self.clone(),
        }
    }

    /// Resolves when the deadline has passed (never while it stands still).
    pub async fn passed(&self) {
        let mut changes = self.state.subscribe();
        loop {
            let state = *changes.borrow_and_update();
            if state.asking > 0 {
                if changes.changed().await.is_err() {
                    return std::future::pending().await;
                }
                continue;
            }
            tokio::select! {
                () = tokio::time::sleep_until(state.due) => return,
                changed = changes.changed() => {
                    if changed.is_err() {
                        return std::future::pending().await;
                    }
                }
            }
        }
    }
}

impl Drop for Paused {
    fn drop(&mut self) {
        self.deadline.state.send_modify(|state| {
            state.asking -= 1;
            if state.asking == 0 {
                state.due += state.since.elapsed();
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn the_clock_stands_still_while_a_person_chooses() {
        let deadline = Deadline::after(Duration::from_secs(30));
        let started = Instant::now();
        tokio::time::sleep(Duration::from_secs(10)).await;
        let paused = deadline.pause();
        let waiting = {
            let deadline = deadline.clone();
            tokio::spawn(async move {
                deadline.passed().await;
                Instant::now()
            })
        };
        // A person takes a minute: far past the 30 s, and the deadline has not passed.
        tokio::time::sleep(Duration::from_secs(60)).await;
        assert!(!waiting.is_finished());
        drop(paused);
        let passed = waiting.await.unwrap();
        // 10 s before the question, 20 s after: 30 s of the call's own time.
        assert_eq!(passed - started, Duration::from_secs(90));
    }

    #[tokio::test(start_paused = true)]
    async fn without_questions_it_is_a_plain_deadline() {
        let deadline = Deadline::after(Duration::from_millis(1500));
        let started = Instant::now();
        deadline.passed().await;
        assert_eq!(started.elapsed(), Duration::from_millis(1500));
    }
}
