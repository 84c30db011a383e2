//! [`Replicas`]: what the replicas of a server share through the database they already
//! use (`TOOLPACK_DATABASE_URL`): each key's budget, the upstream answers and the
//! per-caller limits, and what a replica does when that database is away.
//!
//! - **Budget**: the key's requests per minute over every replica. A replica takes tokens
//!   in small leases ([`lease_size`]) that are good for [`LEASE_LIFE`]; the shared budget
//!   counts each lease for a minute and that life, so no replica sends a request the
//!   shared budget did not grant, and at most the key's limit go out in any minute. A
//!   `Retry-After` pauses the key for every replica.
//! - **Cache**: a replica's own cache first, then the shared one, then the upstream. One
//!   replica claims a request and fetches it; the others poll the shared cache for its
//!   answer (bounded by their call's deadline; a claim ends by itself after the fetch's).
//! - **Down**: an operation that fails or passes [`OPERATION_DEADLINE`] ([`FIRST_DEADLINE`]
//!   until the shared state first answered) marks the shared
//!   state away for a while (1 s, doubling to 15 s); meanwhile the replica uses its own
//!   cache, its own share of the budget (the limit divided by the replicas seen recently)
//!   and its own limits, logs it once, and counts it. The next operation after the pause
//!   tries again, and the replica is back by itself.

mod backend;
mod entry;
mod leased;

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

pub use backend::{Backend, BudgetId, LeaseAsk, LeaseGrant, RequestId, SharedEntry, SharedLookup};
pub(crate) use entry::{cached_to_shared, shared_to_cached};
use leased::Leased;

/// How long a replica may hold leased tokens before spending them.
pub(crate) const LEASE_LIFE: Duration = Duration::from_secs(2);

/// The budget's window: a minute.
const MINUTE: Duration = Duration::from_secs(60);

/// How long one operation on the shared state may take before the replica goes on alone.
pub(crate) const OPERATION_DEADLINE: Duration = Duration::from_secs(1);

/// The same before the shared state first answered: the first operations open the pool
/// (and the first one migrates), which a burst of calls at start waits on. A
/// [`Backend`]'s connection waits are bounded by it.
pub const FIRST_DEADLINE: Duration = Duration::from_secs(5);

/// The first pause after a failure; it doubles up to [`LONGEST_PAUSE`].
const FIRST_PAUSE: Duration = Duration::from_secs(1);
const LONGEST_PAUSE: Duration = Duration::from_secs(15);

/// Shared answers written between two trims of the shared cache, by one replica.
const TRIM_EVERY: u32 = 64;

/// Tokens one lease asks for: a fiftieth of the key's minute, 1 to 10, so that a small
/// budget is not held idle by one replica.
pub(crate) fn lease_size(per_minute: u32) -> u32 {
    (per_minute / 50).clamp(1, 10)
}

/// Whether the shared state is away, and until when the replica does not ask it.
#[derive(Debug, Default)]
struct Away {
    until: Option<Instant>,
    pause: Duration,
}

/// One replica's link to the shared state.
#[derive(Debug)]
pub(crate) struct Replicas {
    backend: Arc<dyn Backend>,
    cache_bytes: u64,
    away: Mutex<Away>,
    replicas_seen: AtomicU32,
    leases: Mutex<HashMap<BudgetId, Arc<tokio::sync::Mutex<Leased>>>>,
    puts: AtomicU32,
    answered: AtomicBool,
}

impl Replicas {
    /// A link through `backend`, sharing answers up to `cache_bytes` (0: no shared cache).
    pub fn new(backend: Arc<dyn Backend>, cache_bytes: u64) -> Self {
        crate::telemetry::shared_state_up(true);
        Self {
            backend,
            cache_bytes,
            away: Mutex::default(),
            replicas_seen: AtomicU32::new(1),
            leases: Mutex::default(),
            puts: AtomicU32::new(0),
            answered: AtomicBool::new(false),
        }
    }

    /// Whether answers are shared.
    pub fn caches(&self) -> bool {
        self.cache_bytes > 0
    }

    /// Replicas that used the shared budget in the last minute, as last seen (at least 1).
    pub fn replicas_seen(&self) -> u32 {
        self.replicas_seen.load(Ordering::Relaxed).max(1)
    }

    /// The budget of `family`'s key `secret` (or of calls without a key) on every replica.
    pub fn budget_id(family: &'static str, secret: Option<&str>) -> BudgetId {
        let key = match secret {
            Some(secret) => {
                let digest = Sha256::new()
                    .chain_update(b"toolpack upstream key\0")
                    .chain_update(secret.as_bytes())
                    .finalize();
                hex(&digest[..16])
            }
            None => "none".to_owned(),
        };
        BudgetId { family, key }
    }

    /// The identity of the request whose cache key is `request` on every replica.
    pub fn request_id(request: &str) -> RequestId {
        RequestId {
            hash: Sha256::digest(request.as_bytes()).into(),
            request: request.to_owned(),
        }
    }

    /// Takes one token of `budget` (`per_minute` over every replica), waiting at most
    /// `max_wait`: `Some(Ok(waited))`, `Some(Err(wait needed))` when that would be longer,
    /// `None` when the shared state is away (use the replica's own share).
    pub async fn take_token(
        &self,
        budget: &BudgetId,
        per_minute: u32,
        max_wait: Duration,
    ) -> Option<Result<bool, Duration>> {
        let leased = self.leased(budget);
        let give_up = Instant::now() + max_wait;
        let mut waited = false;
        loop {
            let wait = {
                let mut leased = leased.lock().await;
                if leased.take(Instant::now()) {
                    return Some(Ok(waited));
                }
                let want = if waited { 1 } else { lease_size(per_minute) };
                let ask = LeaseAsk {
                    budget,
                    per_window: per_minute,
                    window: MINUTE + LEASE_LIFE,
                    want,
                };
                let grant = self.run("lease", self.backend.lease(ask)).await?;
                self.replicas_seen
                    .store(grant.replicas.max(1), Ordering::Relaxed);
                if grant.granted > 0 {
                    crate::telemetry::shared_budget_lease(budget.family, grant.granted);
                    leased.add(grant.granted - 1, Instant::now() + LEASE_LIFE);
                    return Some(Ok(waited));
                }
                grant.wait
            };
            if Instant::now() + wait > give_up {
                return Some(Err(wait));
            }
            waited = true;
            tokio::time::sleep(wait).await;
        }
    }

    /// The upstream asked `budget`'s key to wait `wait`: this replica drops its leased
    /// tokens, and every replica's next lease waits.
    pub async fn pause(&self, budget: &BudgetId, wait: Duration) {
        self.leased(budget).lock().await.drop_all();
        self.run("pause", self.backend.pause(budget, wait)).await;
    }

    /// The shared answer to `id`, claiming its fetch for `claim_for` when none is fresh;
    /// `None` when the shared state is away.
    pub async fn lookup(&self, id: &RequestId, claim_for: Duration) -> Option<SharedLookup> {
        self.run("cache", self.backend.lookup(id, claim_for)).await
    }

    /// Shares `entry` as the answer to `id` (and ends this replica's claim); now and then
    /// trims the shared cache to its bound.
    pub async fn put(&self, id: &RequestId, entry: SharedEntry) {
        if entry.body.len() as u64 + id.request.len() as u64 > self.cache_bytes / 8 {
            return self.release(id).await;
        }
        self.run("cache", self.backend.put(id, entry)).await;
        if self.puts.fetch_add(1, Ordering::Relaxed) % TRIM_EVERY == TRIM_EVERY - 1 {
            self.run("trim", self.backend.trim(self.cache_bytes)).await;
        }
    }

    /// Ends this replica's claim on `id` without an answer to share.
    pub async fn release(&self, id: &RequestId) {
        self.run("cache", self.backend.release(id)).await;
    }

    /// Whether `caller` may call `tool` under `per_second` over every replica; `None` when
    /// the shared state is away (the replica's own limit stands alone).
    pub async fn caller_permit(&self, tool: &str, caller: &str, per_second: u32) -> Option<bool> {
        self.run(
            "limit",
            self.backend.caller_permit(tool, caller, per_second),
        )
        .await
    }

    fn leased(&self, budget: &BudgetId) -> Arc<tokio::sync::Mutex<Leased>> {
        let mut leases = self.leases.lock().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(leases.entry(budget.clone()).or_default())
    }

    /// `operation` on the shared state, unless it is away; a failure or a pass of
    /// [`OPERATION_DEADLINE`] marks it away. `None`: go on alone.
    async fn run<T>(
        &self,
        operation: &'static str,
        work: impl Future<Output = Result<T, String>>,
    ) -> Option<T> {
        if self.is_away() {
            crate::telemetry::shared_state_fallback(operation);
            return None;
        }
        let deadline = if self.answered.load(Ordering::Relaxed) {
            OPERATION_DEADLINE
        } else {
            FIRST_DEADLINE
        };
        let outcome = tokio::time::timeout(deadline, work)
            .await
            .unwrap_or_else(|_| Err(format!("no answer within {} ms", deadline.as_millis())));
        match outcome {
            Ok(value) => {
                self.answered.store(true, Ordering::Relaxed);
                self.back();
                Some(value)
            }
            Err(error) => {
                self.went_away(operation, &error);
                crate::telemetry::shared_state_fallback(operation);
                None
            }
        }
    }

    fn away(&self) -> std::sync::MutexGuard<'_, Away> {
        self.away.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn is_away(&self) -> bool {
        self.away()
            .until
            .is_some_and(|until| Instant::now() < until)
    }

    fn went_away(&self, operation: &'static str, error: &str) {
        let mut away = self.away();
        let first = away.until.is_none();
        away.pause = if first {
            FIRST_PAUSE
        } else {
            (away.pause * 2).min(LONGEST_PAUSE)
        };
        away.until = Some(Instant::now() + away.pause);
        if first {
            crate::telemetry::shared_state_up(false);
            tracing::warn!(
                target: "toolpack::http",
                operation,
                error,
                replicas_seen = self.replicas_seen(),
                "the shared state is unavailable: this replica uses its own cache, its share of \
                 each key's budget (the limit divided by the replicas seen) and its own limits \
                 until it is back"
            );
        }
    }

    fn back(&self) {
        let mut away = self.away();
        if away.until.take().is_some() {
            away.pause = Duration::ZERO;
            crate::telemetry::shared_state_up(true);
            tracing::info!(target: "toolpack::http", "the shared state is back");
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use futures_util::future::BoxFuture;

    use super::backend::LeaseGrant;
    use super::*;

    /// A shared state in memory that can be told to fail, and counts what it is asked
    /// (when a call's future runs, as a database would be asked).
    #[derive(Debug, Default)]
    struct Fake {
        state: Mutex<FakeState>,
    }

    #[derive(Debug, Default)]
    struct FakeState {
        failing: bool,
        /// Grants to give in turn (the last one repeats); none: the tokens asked for.
        grants: Vec<(u32, Duration)>,
        leases: usize,
        asked: usize,
    }

    impl Fake {
        fn answer<T>(&self, value: impl FnOnce(&mut FakeState) -> T) -> Result<T, String> {
            let mut state = self.state.lock().unwrap();
            state.asked += 1;
            if state.failing {
                return Err("connection refused".to_owned());
            }
            Ok(value(&mut state))
        }
    }

    impl Backend for Fake {
        fn lease<'a>(&'a self, ask: LeaseAsk<'a>) -> BoxFuture<'a, Result<LeaseGrant, String>> {
            Box::pin(async move {
                self.answer(|state| {
                    state.leases += 1;
                    let (granted, wait) = match state.grants.len() {
                        0 => (ask.want, Duration::ZERO),
                        1 => state.grants[0],
                        _ => state.grants.remove(0),
                    };
                    LeaseGrant {
                        granted,
                        wait,
                        replicas: 3,
                    }
                })
            })
        }
        fn pause<'a>(&'a self, _: &'a BudgetId, _: Duration) -> BoxFuture<'a, Result<(), String>> {
            Box::pin(async move { self.answer(|_| ()) })
        }
        fn lookup<'a>(
            &'a self,
            _: &'a RequestId,
            _: Duration,
        ) -> BoxFuture<'a, Result<SharedLookup, String>> {
            Box::pin(async move {
                self.answer(|_| SharedLookup {
                    entry: None,
                    claimed: true,
                })
            })
        }
        fn put<'a>(
            &'a self,
            _: &'a RequestId,
            _: SharedEntry,
        ) -> BoxFuture<'a, Result<(), String>> {
            Box::pin(async move { self.answer(|_| ()) })
        }
        fn release<'a>(&'a self, _: &'a RequestId) -> BoxFuture<'a, Result<(), String>> {
            Box::pin(async move { self.answer(|_| ()) })
        }
        fn trim(&self, _: u64) -> BoxFuture<'_, Result<(), String>> {
            Box::pin(async move { self.answer(|_| ()) })
        }
        fn caller_permit<'a>(
            &'a self,
            _: &'a str,
            _: &'a str,
            _: u32,
        ) -> BoxFuture<'a, Result<bool, String>> {
            Box::pin(async move { self.answer(|_| true) })
        }
    }

    fn link() -> (Arc<Fake>, Replicas) {
        let fake = Arc::new(Fake::default());
        let replicas = Replicas::new(Arc::clone(&fake) as Arc<dyn Backend>, 1 << 20);
        (fake, replicas)
    }

    #[tokio::test]
    async fn leased_tokens_serve_requests_until_spent_and_the_replicas_are_counted() {
        let (fake, replicas) = link();
        let budget = Replicas::budget_id("tfl", Some("the key"));
        assert_eq!(lease_size(500), 10);
        for _ in 0..10 {
            let taken = replicas.take_token(&budget, 500, Duration::ZERO).await;
            assert_eq!(taken, Some(Ok(false)));
        }
        assert_eq!(fake.state.lock().unwrap().leases, 1, "one lease of 10");
        replicas.take_token(&budget, 500, Duration::ZERO).await;
        assert_eq!(fake.state.lock().unwrap().leases, 2);
        assert_eq!(replicas.replicas_seen(), 3);
        // A pause drops what is held: the next token is leased again.
        replicas.pause(&budget, Duration::from_secs(1)).await;
        replicas.take_token(&budget, 500, Duration::ZERO).await;
        assert_eq!(fake.state.lock().unwrap().leases, 3);
    }

    #[tokio::test]
    async fn a_spent_budget_is_waited_for_within_the_bound_else_refused_with_the_wait() {
        let (fake, replicas) = link();
        let budget = Replicas::budget_id("digitransit", None);
        fake.state.lock().unwrap().grants =
            vec![(0, Duration::from_millis(30)), (1, Duration::ZERO)];
        let taken = replicas
            .take_token(&budget, 100, Duration::from_millis(200))
            .await;
        assert_eq!(taken, Some(Ok(true)), "waited, then granted");
        fake.state.lock().unwrap().grants = vec![(0, Duration::from_secs(5))];
        let taken = replicas
            .take_token(&budget, 100, Duration::from_millis(200))
            .await;
        assert_eq!(taken, Some(Err(Duration::from_secs(5))));
    }

    #[tokio::test]
    async fn a_failing_shared_state_is_left_alone_for_a_while_then_asked_again() {
        let (fake, replicas) = link();
        let budget = Replicas::budget_id("tfl", Some("k"));
        fake.state.lock().unwrap().failing = true;
        assert_eq!(
            replicas.take_token(&budget, 500, Duration::ZERO).await,
            None
        );
        assert_eq!(replicas.caller_permit("arrivals", "alice", 5).await, None);
        let id = Replicas::request_id("GET /a");
        assert!(replicas.lookup(&id, Duration::from_secs(1)).await.is_none());
        assert_eq!(
            fake.state.lock().unwrap().asked,
            1,
            "while away, nothing more is asked"
        );
        fake.state.lock().unwrap().failing = false;
        tokio::time::sleep(FIRST_PAUSE + Duration::from_millis(50)).await;
        assert_eq!(
            replicas.caller_permit("arrivals", "alice", 5).await,
            Some(true)
        );
        assert!(
            replicas
                .lookup(&id, Duration::from_secs(1))
                .await
                .is_some_and(|l| l.claimed)
        );
        assert_eq!(fake.state.lock().unwrap().asked, 3, "back by itself");
    }

    #[test]
    fn a_keys_budget_is_the_same_on_every_replica_and_never_shows_the_key() {
        let a = Replicas::budget_id("tfl", Some("secret-key-123"));
        assert_eq!(a, Replicas::budget_id("tfl", Some("secret-key-123")));
        assert_ne!(a, Replicas::budget_id("tfl", Some("another key")));
        assert_eq!(a.key.len(), 32);
        assert!(!a.key.contains("secret"));
        assert_eq!(Replicas::budget_id("tfl", None).key, "none");
        assert_eq!(lease_size(100), 2);
        assert_eq!(lease_size(10), 1);
    }
}
