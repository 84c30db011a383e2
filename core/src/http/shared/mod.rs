//! The shared upstream layer every live call goes through ([`super::HttpClient::send`]):
//! one answer serves everyone who asks.
//!
//! - **Cache**: answers by request (method, URL, query, plain headers and body; never the
//!   key), shared by every caller, bounded in bytes, fresh for the upstream's
//!   `max-age`/`Expires` less `Age` or the request's [`AnswerKind`] default, whichever is
//!   shorter. Only whole answers are kept: 2xx or 300, with a JSON body.
//! - **Coalescing**: identical requests in flight at once are sent once.
//! - **Stale if error**: when the upstream times out, errs (5xx, throttling 429, a cut
//!   connection) or the key is over budget, an answer up to `TOOLPACK_STALE_IF_ERROR_SECONDS`
//!   past fresh is served instead, marked stale.
//! - **Budget**: each upstream key's requests per minute, retries included, as a token
//!   bucket that also honours `Retry-After` on 429 and 503. A call waits for a token at most
//!   `TOOLPACK_UPSTREAM_BUDGET_WAIT_MS`.
//! - **Replicas** ([`replicas`]): with `TOOLPACK_DATABASE_URL`, the budget, a second tier
//!   of the cache (with coalescing across replicas) and the per-caller limits are shared
//!   in the database the server supplies ([`crate::database::Database`]); when it is away,
//!   each replica goes on with its own.

mod budget;
mod cache;
mod coalesce;
mod freshness;
pub(crate) mod replicas;
mod served;

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use crate::config::Config;
use crate::database::Database;
use crate::secret::Secret;
use crate::toolset::Toolset;
use replicas::Replicas;

pub use freshness::AnswerKind;
#[cfg(feature = "digitransit")]
pub(crate) use served::oldest_fetch;
pub use served::{Served, ServedAs, ServedFields};
pub(crate) use served::{note_served, observe_served};

pub(crate) use budget::Budget;
pub(crate) use cache::{Cached, Lookup, ResponseCache};
pub(crate) use coalesce::{InFlight, Role, follow};
pub(crate) use freshness::fresh_for;
pub(crate) use replicas::{cached_to_shared, shared_to_cached};

use super::HttpError;

/// The layer's settings, taken from a [`Config`].
#[derive(Debug, Clone)]
pub struct LayerSettings {
    /// Size of the response cache, in bytes (0 = no cache).
    pub cache_bytes: u64,
    /// How long past fresh an answer may stand in for an error.
    pub stale_for: Duration,
    /// How long a call waits for its key's budget.
    pub budget_wait: Duration,
    /// Freshness by kind, when the upstream says nothing.
    pub fresh: HashMap<AnswerKind, Duration>,
    /// Requests per minute of each family's key (absent or 0 = none).
    pub budget_per_minute: HashMap<Toolset, u32>,
    /// The database URL where replicas share the budgets, answers and per-caller limits
    /// (`None`: this process keeps its own).
    pub shared_state: Option<Secret>,
    /// The engine that opens `shared_state` (`None`: this process keeps its own, even
    /// with a URL).
    pub database: Option<Arc<dyn Database>>,
    /// Bound of the answers replicas share, in bytes (0 = none shared).
    pub shared_cache_bytes: u64,
}

impl LayerSettings {
    /// The settings of `config`.
    pub fn from_config(config: &Config) -> Self {
        use AnswerKind::*;
        Self {
            cache_bytes: config.upstream_cache_bytes(),
            stale_for: config.stale_if_error(),
            budget_wait: config.upstream_budget_wait(),
            fresh: [LineStatus, Arrivals, Journeys, Disruptions, Bikes, Places]
                .into_iter()
                .map(|kind| (kind, config.freshness(kind)))
                .collect(),
            budget_per_minute: [Toolset::Tfl, Toolset::Digitransit]
                .into_iter()
                .map(|family| (family, config.upstream_budget_per_minute(family)))
                .collect(),
            shared_state: config.shared_state_url().cloned(),
            database: config.database().cloned(),
            shared_cache_bytes: config.shared_cache_bytes(),
        }
    }
}

impl Default for LayerSettings {
    fn default() -> Self {
        Self::from_config(&Config::default())
    }
}

/// What an upstream request's outcome is, shared with the callers that waited on it.
pub(crate) type Outcome = Result<Served, HttpError>;

/// The cache, the requests in flight and the budgets of one [`super::HttpClient`].
#[derive(Debug)]
pub(crate) struct SharedLayer {
    pub settings: LayerSettings,
    cache: Mutex<ResponseCache>,
    pub in_flight: InFlight<Outcome>,
    /// What is shared with the other replicas, when a database is set.
    pub replicas: Option<Replicas>,
    /// Each key's budget (this process's share of it, when the replicas share it and the
    /// shared state is away), by family, key fingerprint and requests per minute.
    budgets: Mutex<HashMap<(Toolset, u64, u32), Budget>>,
    /// Seeds the fingerprint of a key (a budget is found by it; the key is not kept).
    fingerprints: RandomState,
}

impl SharedLayer {
    /// An empty layer with `settings`.
    pub fn new(settings: LayerSettings) -> Self {
        let capacity = usize::try_from(settings.cache_bytes).unwrap_or(usize::MAX);
        Self {
            cache: Mutex::new(ResponseCache::new(capacity, settings.stale_for)),
            in_flight: InFlight::default(),
            replicas: shared_state(&settings),
            budgets: Mutex::new(HashMap::new()),
            fingerprints: RandomState::new(),
            settings,
        }
    }

    /// Whether answers are kept at all.
    pub fn caches(&self) -> bool {
        self.settings.cache_bytes > 0
    }

    /// The cache, locked (never across an await).
    pub fn cache(&self) -> MutexGuard<'_, ResponseCache> {
        self.cache.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// How long an answer of `kind` stays fresh when the upstream says nothing.
    pub fn default_freshness(&self, kind: AnswerKind) -> Duration {
        self.settings
            .fresh
            .get(&kind)
            .copied()
            .unwrap_or(Duration::ZERO)
    }

    /// Takes a token of `family`'s budget for the key `secret` (or for calls without a
    /// key), waiting for it up to `max_wait`: across replicas when they share it, else (or
    /// while the shared state is away) from this process's own budget or share.
    /// `Err(HttpError::OverBudget)` when the wait would be longer. No budget set: at once.
    pub async fn take_token(
        &self,
        family: Option<Toolset>,
        secret: Option<&str>,
        max_wait: Duration,
    ) -> Result<(), HttpError> {
        let Some((family, per_minute)) = self.budget_of(family) else {
            return Ok(());
        };
        let name = family.as_str();
        let over = |wait: Duration| {
            crate::telemetry::upstream_budget(name, "refused");
            Err(HttpError::OverBudget {
                retry_after_secs: wait.as_secs().max(1),
            })
        };
        let share = self.share_of(per_minute);
        if let Some(replicas) = &self.replicas {
            let budget = Replicas::budget_id(name, secret);
            match replicas.take_token(&budget, per_minute, max_wait).await {
                Some(Ok(waited)) => {
                    if waited {
                        crate::telemetry::upstream_budget(name, "waited");
                    }
                    self.with_budget(family, share, secret, Budget::spend);
                    return Ok(());
                }
                Some(Err(wait)) => return over(wait),
                None => {}
            }
        }
        match self.with_budget(family, share, secret, |budget, now| {
            budget.reserve(now, max_wait)
        }) {
            Ok(wait) if !wait.is_zero() => {
                crate::telemetry::upstream_budget(name, "waited");
                tokio::time::sleep(wait).await;
                Ok(())
            }
            Ok(_) => Ok(()),
            Err(wait) => over(wait),
        }
    }

    /// The upstream asked `family`'s key `secret` to send nothing for `wait`: this
    /// process's budget waits, and every replica's when they share it.
    pub async fn pause(&self, family: Option<Toolset>, secret: Option<&str>, wait: Duration) {
        let Some((family, per_minute)) = self.budget_of(family) else {
            return;
        };
        let share = self.share_of(per_minute);
        self.with_budget(family, share, secret, |budget, now| {
            budget.pause_until(now + wait)
        });
        if let Some(replicas) = &self.replicas {
            let budget = Replicas::budget_id(family.as_str(), secret);
            replicas.pause(&budget, wait).await;
        }
    }

    /// `family` and its key's requests per minute, when it has a budget.
    fn budget_of(&self, family: Option<Toolset>) -> Option<(Toolset, u32)> {
        let family = family?;
        let per_minute = *self.settings.budget_per_minute.get(&family)?;
        (per_minute > 0).then_some((family, per_minute))
    }

    /// This process's share of `per_minute`: all of it alone, the limit divided by the
    /// replicas seen recently when they share it.
    fn share_of(&self, per_minute: u32) -> u32 {
        let replicas = self.replicas.as_ref().map_or(1, Replicas::replicas_seen);
        (per_minute / replicas).max(1)
    }

    /// Runs `act` on the budget of `per_minute` of `family`'s key `secret` at the current
    /// time. Made on first use: full for this process alone; empty as a share of a budget
    /// the replicas share (it stands in only while that is away, and must not burst).
    fn with_budget<R>(
        &self,
        family: Toolset,
        per_minute: u32,
        secret: Option<&str>,
        act: impl FnOnce(&mut Budget, Instant) -> R,
    ) -> R {
        let now = Instant::now();
        let mut budgets = self.budgets.lock().unwrap_or_else(PoisonError::into_inner);
        let budget = budgets
            .entry((family, self.fingerprint(secret), per_minute))
            .or_insert_with(|| match self.replicas {
                Some(_) => Budget::empty(per_minute, now),
                None => Budget::new(per_minute, now),
            });
        act(budget, now)
    }

    fn fingerprint(&self, secret: Option<&str>) -> u64 {
        self.fingerprints.hash_one(secret)
    }
}

/// The link to what replicas share, when `settings` name a database and an engine to open
/// it with.
fn shared_state(settings: &LayerSettings) -> Option<Replicas> {
    let url = settings.shared_state.as_ref()?;
    let Some(database) = &settings.database else {
        tracing::warn!(
            "TOOLPACK_DATABASE_URL is set, but this build has no database engine (the \
             toolpack-mcp server has PostgreSQL): each process keeps its own upstream state"
        );
        return None;
    };
    Some(Replicas::new(
        database.shared_state(url),
        settings.shared_cache_bytes,
    ))
}
