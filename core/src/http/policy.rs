//! How one upstream request is made: timeouts, size cap and retry budget.

use std::time::Duration;

use crate::toolset::Toolset;

/// Limits for one logical upstream request (all its attempts together).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RequestPolicy {
    /// Deadline for the whole request, retries and waits included.
    pub total_timeout: Duration,
    /// Largest response body accepted, in bytes.
    pub max_body_bytes: usize,
    /// Attempts in all (1 = no retry). Only idempotent requests are retried.
    pub max_attempts: u32,
    /// First backoff; doubled on each retry, with jitter.
    pub base_backoff: Duration,
    /// The longest `Retry-After` honoured; a longer one ends the retries.
    pub max_retry_after: Duration,
    /// Whether a 429 is retried like a 5xx (Digitransit throttling). Off by default:
    /// TfL answers an invalid key with 429.
    pub retry_rate_limited: bool,
    /// The family whose upstream this is, for metrics and spans (`None`: `other`).
    pub family: Option<Toolset>,
}

impl Default for RequestPolicy {
    fn default() -> Self {
        Self {
            total_timeout: Duration::from_secs(10),
            max_body_bytes: 8 * 1024 * 1024,
            max_attempts: 3,
            base_backoff: Duration::from_millis(200),
            max_retry_after: Duration::from_secs(5),
            retry_rate_limited: false,
            family: None,
        }
    }
}

impl RequestPolicy {
    /// The default policy with `total_timeout` (usually from
    /// [`crate::Config::upstream_timeout`]).
    pub fn with_timeout(total_timeout: Duration) -> Self {
        Self {
            total_timeout,
            ..Self::default()
        }
    }

    /// This policy, for the upstream of `family`.
    pub fn for_family(self, family: Toolset) -> Self {
        Self {
            family: Some(family),
            ..self
        }
    }

    /// The family's name as metrics and spans show it.
    pub fn family_name(&self) -> &'static str {
        self.family.map_or("other", Toolset::as_str)
    }
}
