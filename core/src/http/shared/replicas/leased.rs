//! [`Leased`]: the tokens one replica holds of one key's shared budget. Sans-I/O: the
//! caller passes the time. A lease is good for [`super::LEASE_LIFE`]; what is left then is
//! dropped, so every token is spent inside the window the shared budget counted it in.

use std::time::Instant;

/// Tokens leased and not yet spent, good until a moment.
#[derive(Debug, Default)]
pub(crate) struct Leased {
    tokens: u32,
    good_until: Option<Instant>,
}

impl Leased {
    /// Takes one token at `now`, if one is held and still good.
    pub fn take(&mut self, now: Instant) -> bool {
        match self.good_until {
            Some(until) if now < until && self.tokens > 0 => {
                self.tokens -= 1;
                true
            }
            _ => {
                self.tokens = 0;
                false
            }
        }
    }

    /// Holds `tokens` more, good until `until` (a newer lease renews the old tokens' life
    /// only up to its own, which is later).
    pub fn add(&mut self, tokens: u32, until: Instant) {
        self.tokens += tokens;
        self.good_until = Some(until);
    }

    /// Drops every token held (the upstream asked the key to wait).
    pub fn drop_all(&mut self) {
        self.tokens = 0;
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn tokens_are_spent_one_at_a_time_until_their_lease_ends() {
        let t0 = Instant::now();
        let mut leased = Leased::default();
        assert!(!leased.take(t0), "nothing is held before a lease");
        leased.add(2, t0 + Duration::from_secs(2));
        assert!(leased.take(t0));
        assert!(leased.take(t0 + Duration::from_secs(1)));
        assert!(!leased.take(t0 + Duration::from_secs(1)), "two were leased");
        leased.add(3, t0 + Duration::from_secs(4));
        assert!(
            !leased.take(t0 + Duration::from_secs(4)),
            "a lease's tokens are gone when it ends"
        );
        assert!(!leased.take(t0 + Duration::from_secs(3)), "and stay gone");
        leased.add(3, t0 + Duration::from_secs(6));
        leased.drop_all();
        assert!(!leased.take(t0 + Duration::from_secs(5)));
    }
}
