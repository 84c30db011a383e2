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

mod budget;
mod cache;
mod coalesce;
mod freshness;
mod served;

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use crate::config::Config;
use crate::toolset::Toolset;

pub use freshness::AnswerKind;
#[cfg(feature = "digitransit")]
pub(crate) use served::oldest_fetch;
pub use served::{Served, ServedAs, ServedFields};
pub(crate) use served::{note_served, observe_served};

pub(crate) use budget::Budget;
pub(crate) use cache::{Cached, Lookup, ResponseCache};
pub(crate) use coalesce::{InFlight, Role, follow};
pub(crate) use freshness::fresh_for;

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
    budgets: Mutex<HashMap<(Toolset, u64), Budget>>,
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
    /// key): `Ok(wait)` to wait before sending, or `Err(HttpError::OverBudget)` when the
    /// wait would pass `max_wait`. No budget set: `Ok(0)`.
    pub fn reserve(
        &self,
        family: Option<Toolset>,
        secret: Option<&str>,
        max_wait: Duration,
    ) -> Result<Duration, HttpError> {
        self.with_budget(family, secret, |budget, now| budget.reserve(now, max_wait))
            .unwrap_or(Ok(Duration::ZERO))
            .map_err(|wait| HttpError::OverBudget {
                retry_after_secs: wait.as_secs().max(1),
            })
    }

    /// The upstream asked `family`'s key `secret` to send nothing for `wait`.
    pub fn pause(&self, family: Option<Toolset>, secret: Option<&str>, wait: Duration) {
        self.with_budget(family, secret, |budget, now| budget.pause_until(now + wait));
    }

    /// Runs `act` on the budget of `family`'s key `secret` (made full on first use) at
    /// the current time; `None` when the family has no budget.
    fn with_budget<R>(
        &self,
        family: Option<Toolset>,
        secret: Option<&str>,
        act: impl FnOnce(&mut Budget, Instant) -> R,
    ) -> Option<R> {
        let family = family?;
        let per_minute = *self.settings.budget_per_minute.get(&family)?;
        if per_minute == 0 {
            return None;
        }
        let now = Instant::now();
        let mut budgets = self.budgets.lock().unwrap_or_else(PoisonError::into_inner);
        let budget = budgets
            .entry((family, self.fingerprint(secret)))
            .or_insert_with(|| Budget::new(per_minute, now));
        Some(act(budget, now))
    }

    fn fingerprint(&self, secret: Option<&str>) -> u64 {
        self.fingerprints.hash_one(secret)
    }
}
