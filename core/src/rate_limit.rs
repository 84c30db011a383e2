//! Local, in-process, fail-fast rate limits: one limiter per tool.

use std::collections::HashMap;
use std::num::NonZeroU32;

use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};

use crate::config::Config;

/// One GCRA limiter per tool: a burst of N calls, refilled at N per second.
#[derive(Debug, Default)]
pub struct RateLimiters {
    by_tool: HashMap<&'static str, DefaultDirectRateLimiter>,
}

impl RateLimiters {
    /// Limiters for `tools` (name, toolset), with the per-second limits of `config`
    /// (0 = unlimited; see [`Config::rate_limit_in`]).
    pub fn new(
        config: &Config,
        tools: impl IntoIterator<Item = (&'static str, crate::Toolset)>,
    ) -> Self {
        let by_tool = tools
            .into_iter()
            .filter_map(|(tool, toolset)| {
                NonZeroU32::new(config.rate_limit_in(tool, toolset))
                    .map(|n| (tool, RateLimiter::direct(Quota::per_second(n))))
            })
            .collect();
        Self { by_tool }
    }

    /// Takes one permit for `tool`; `false` means the call must be refused now.
    pub fn try_acquire(&self, tool: &str) -> bool {
        self.by_tool
            .get(tool)
            .is_none_or(|limiter| limiter.check().is_ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Toolset;

    #[test]
    fn burst_then_refuse_and_unlimited_tools_pass() {
        let config = Config::builder()
            .rate_limit("limited", 2)
            .rate_limit("free", 0)
            .build();
        let limiters = RateLimiters::new(
            &config,
            [
                ("limited", Toolset::Tfl),
                ("free", Toolset::Tfl),
                ("local", Toolset::Loko),
            ],
        );
        assert!(limiters.try_acquire("limited"));
        assert!(limiters.try_acquire("limited"));
        assert!(!limiters.try_acquire("limited"));
        for _ in 0..100 {
            assert!(limiters.try_acquire("free"));
            assert!(
                limiters.try_acquire("local"),
                "loko tools are unlimited by default"
            );
        }
    }
}
