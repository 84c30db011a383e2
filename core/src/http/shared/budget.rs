//! [`Budget`]: an upstream key's requests per minute as a token bucket, with the pause an
//! upstream asks for (`Retry-After`). Sans-I/O: the caller passes the time and does the
//! waiting.

use std::time::{Duration, Instant};

/// One key's budget.
#[derive(Debug)]
pub(crate) struct Budget {
    capacity: f64,
    per_second: f64,
    tokens: f64,
    updated: Instant,
    paused_until: Option<Instant>,
}

impl Budget {
    /// A full budget of `per_minute` requests a minute (at least 1), refilled evenly.
    pub fn new(per_minute: u32, now: Instant) -> Self {
        let capacity = f64::from(per_minute.max(1));
        Self {
            capacity,
            per_second: capacity / 60.0,
            tokens: capacity,
            updated: now,
            paused_until: None,
        }
    }

    /// An empty budget of `per_minute` (at least 1), refilled evenly from `now`: a
    /// replica's share while the shared budget is away starts with nothing to burst.
    pub fn empty(per_minute: u32, now: Instant) -> Self {
        Self {
            tokens: 0.0,
            ..Self::new(per_minute, now)
        }
    }

    /// Notes a request sent on a token granted elsewhere (the shared budget): one token
    /// less at `now`, never below none, so that while the shared budget is away this
    /// share goes on from what the replica spent, not from a full bucket.
    pub fn spend(&mut self, now: Instant) {
        self.refill(now);
        self.tokens = (self.tokens - 1.0).max(0.0);
    }

    fn refill(&mut self, now: Instant) {
        let elapsed = now.saturating_duration_since(self.updated).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.capacity);
        self.updated = now;
    }

    /// Takes one request's token at `now`: `Ok(wait)`, the time to wait before sending
    /// (zero when a token is there), when that is at most `max_wait`; else `Err(wait)`,
    /// the wait that would have been needed, and nothing is taken.
    pub fn reserve(&mut self, now: Instant, max_wait: Duration) -> Result<Duration, Duration> {
        self.refill(now);
        let for_token = if self.tokens >= 1.0 {
            Duration::ZERO
        } else {
            Duration::from_secs_f64((1.0 - self.tokens) / self.per_second)
        };
        let for_pause = self
            .paused_until
            .map_or(Duration::ZERO, |until| until.saturating_duration_since(now));
        let wait = for_token.max(for_pause);
        if wait > max_wait {
            return Err(wait);
        }
        // Waiters queue: each takes its token now, so the next one waits longer.
        self.tokens -= 1.0;
        Ok(wait)
    }

    /// The upstream asked for no requests until `until` (a `Retry-After`).
    pub fn pause_until(&mut self, until: Instant) {
        self.paused_until = Some(self.paused_until.map_or(until, |p| p.max(until)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_spends_the_budget_then_waits_in_turn_then_is_refused() {
        let t0 = Instant::now();
        let mut budget = Budget::new(60, t0);
        for _ in 0..60 {
            assert_eq!(budget.reserve(t0, Duration::ZERO), Ok(Duration::ZERO));
        }
        // One a second comes back: the next two wait 1 s and 2 s; a third would wait 3 s.
        let max_wait = Duration::from_millis(2500);
        assert_eq!(budget.reserve(t0, max_wait), Ok(Duration::from_secs(1)));
        assert_eq!(budget.reserve(t0, max_wait), Ok(Duration::from_secs(2)));
        assert_eq!(budget.reserve(t0, max_wait), Err(Duration::from_secs(3)));
        // After the refill, there is room again.
        let later = t0 + Duration::from_secs(10);
        assert_eq!(budget.reserve(later, Duration::ZERO), Ok(Duration::ZERO));
    }

    #[test]
    fn a_share_spent_elsewhere_starts_where_it_was_left() {
        let t0 = Instant::now();
        let mut share = Budget::empty(60, t0);
        assert_eq!(
            share.reserve(t0, Duration::ZERO),
            Err(Duration::from_secs(1)),
            "an empty share has nothing to burst"
        );
        let t10 = t0 + Duration::from_secs(10);
        for _ in 0..30 {
            share.spend(t10);
        }
        // Ten refilled, thirty spent elsewhere: none left, never less than none.
        assert_eq!(
            share.reserve(t10, Duration::ZERO),
            Err(Duration::from_secs(1))
        );
        let t12 = t10 + Duration::from_secs(2);
        assert_eq!(share.reserve(t12, Duration::ZERO), Ok(Duration::ZERO));
    }

    #[test]
    fn a_retry_after_pauses_every_request_until_then() {
        let t0 = Instant::now();
        let mut budget = Budget::new(500, t0);
        budget.pause_until(t0 + Duration::from_secs(5));
        assert_eq!(
            budget.reserve(t0, Duration::from_secs(2)),
            Err(Duration::from_secs(5))
        );
        let t4 = t0 + Duration::from_secs(4);
        assert_eq!(
            budget.reserve(t4, Duration::from_secs(2)),
            Ok(Duration::from_secs(1))
        );
        // A shorter pause does not cut a longer one short.
        budget.pause_until(t0 + Duration::from_secs(1));
        assert_eq!(
            budget.reserve(t4, Duration::from_secs(2)),
            Ok(Duration::from_secs(1))
        );
    }
}
