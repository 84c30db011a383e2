//! Local, in-process, fail-fast rate limits.
//!
//! - **Per caller and tool**: each caller has its own GCRA budget for each limited tool,
//!   so one caller's burst never throttles another. By default only the tools that
//!   call an upstream API are limited (`TOOLPACK_RATE_LIMIT_PER_SECOND`, default 5);
//!   local tools are unlimited unless a per-tool limit is set.
//! - **Per upstream API key** (optional): one shared ceiling per family's API key
//!   (`TFL_API_RATE_LIMIT_PER_SECOND`, `DIGITRANSIT_API_RATE_LIMIT_PER_SECOND`) over
//!   every caller, protecting the upstream quota a server's callers share.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::Toolset;
use crate::caller::Caller;
use crate::config::Config;

/// Checks between two sweeps of a tool's idle caller budgets.
const SWEEP_EVERY: u32 = 4096;

/// A tool as the limiters see it.
#[derive(Debug, Clone, Copy)]
pub struct LimitedTool {
    /// The tool's catalog name.
    pub name: &'static str,
    /// Its family (whose API key it uses upstream).
    pub toolset: Toolset,
    /// Whether it calls an upstream API (the catalog's open-world annotation).
    pub calls_upstream: bool,
}

/// Why a call was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The caller used its own budget for this tool.
    Caller,
    /// The shared ceiling of the family's upstream API key is reached.
    UpstreamKey,
}

#[derive(Debug)]
struct PerCaller {
    per_second: u32,
    limiter: DefaultKeyedRateLimiter<Arc<str>>,
    checks: AtomicU32,
}

/// Every limiter of one toolpack.
#[derive(Debug, Default)]
pub struct RateLimiters {
    per_caller: HashMap<&'static str, PerCaller>,
    upstream_of: HashMap<&'static str, Toolset>,
    upstream: HashMap<Toolset, DefaultDirectRateLimiter>,
}

impl RateLimiters {
    /// Limiters for `tools`, with the per-second limits of `config` (0 = unlimited; see
    /// [`Config::rate_limit_of`] and [`Config::upstream_rate_limit`]).
    pub fn new(config: &Config, tools: impl IntoIterator<Item = LimitedTool>) -> Self {
        let mut limiters = Self::default();
        for tool in tools {
            if let Some(n) = NonZeroU32::new(config.rate_limit_of(tool.name, tool.calls_upstream)) {
                limiters.per_caller.insert(
                    tool.name,
                    PerCaller {
                        per_second: n.get(),
                        limiter: RateLimiter::keyed(Quota::per_second(n)),
                        checks: AtomicU32::new(0),
                    },
                );
            }
            if tool.calls_upstream
                && let Some(n) = NonZeroU32::new(config.upstream_rate_limit(tool.toolset))
            {
                limiters.upstream_of.insert(tool.name, tool.toolset);
                limiters
                    .upstream
                    .entry(tool.toolset)
                    .or_insert_with(|| RateLimiter::direct(Quota::per_second(n)));
            }
        }
        limiters
    }

    /// Takes one permit of `tool` for `caller` (and of its upstream key's ceiling).
    pub fn try_acquire(&self, tool: &str, caller: &Caller) -> Result<(), Refusal> {
        if let Some(per_caller) = self.per_caller.get(tool) {
            per_caller
                .limiter
                .check_key(caller.shared_id())
                .map_err(|_| Refusal::Caller)?;
            // Forget callers whose budget is full again, so idle ones cost no memory.
            if per_caller.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
                per_caller.limiter.retain_recent();
            }
        }
        if let Some(toolset) = self.upstream_of.get(tool) {
            self.upstream[toolset]
                .check()
                .map_err(|_| Refusal::UpstreamKey)?;
        }
        Ok(())
    }

    /// Each caller's limit of `tool`, in calls per second, when it has one (replicas that
    /// share state hold it across them too).
    pub fn caller_limit(&self, tool: &str) -> Option<u32> {
        self.per_caller.get(tool).map(|p| p.per_second)
    }

    /// Callers with a budget in use for `tool` (for tests).
    #[cfg(test)]
    pub fn callers_tracked(&self, tool: &str) -> usize {
        self.per_caller.get(tool).map_or(0, |p| p.limiter.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::caller::Scopes;

    fn tool(name: &'static str, calls_upstream: bool) -> LimitedTool {
        LimitedTool {
            name,
            toolset: Toolset::Tfl,
            calls_upstream,
        }
    }

    fn caller(id: &str) -> Caller {
        Caller::new(id, Scopes::ALL).unwrap()
    }

    #[test]
    fn each_caller_has_its_own_budget_and_local_tools_are_unlimited() {
        let config = Config::builder()
            .rate_limit("limited", 2)
            .rate_limit("free", 0)
            .build();
        let limiters = RateLimiters::new(
            &config,
            [
                tool("limited", true),
                tool("free", true),
                tool("local", false),
                tool("remote", true),
            ],
        );
        let (alice, bob) = (caller("alice"), caller("bob"));
        assert!(limiters.try_acquire("limited", &alice).is_ok());
        assert!(limiters.try_acquire("limited", &alice).is_ok());
        assert_eq!(
            limiters.try_acquire("limited", &alice),
            Err(Refusal::Caller)
        );
        // Alice's burst leaves Bob's budget whole.
        assert!(limiters.try_acquire("limited", &bob).is_ok());
        assert!(limiters.try_acquire("limited", &bob).is_ok());
        for _ in 0..100 {
            assert!(limiters.try_acquire("free", &alice).is_ok());
            assert!(
                limiters.try_acquire("local", &alice).is_ok(),
                "tools without an upstream are unlimited by default"
            );
        }
        // Upstream tools get the default limit (5 a second).
        let took = (0..10)
            .filter(|_| limiters.try_acquire("remote", &alice).is_ok())
            .count();
        assert_eq!(took, 5);
        assert_eq!(limiters.callers_tracked("limited"), 2);
    }

    #[test]
    fn the_upstream_key_ceiling_is_shared_by_every_caller() {
        let config = Config::builder()
            .default_rate_limit(0)
            .upstream_rate_limit(Toolset::Tfl, 3)
            .build();
        let limiters = RateLimiters::new(&config, [tool("remote", true), tool("local", false)]);
        let answered = (0..6)
            .filter(|i| {
                limiters
                    .try_acquire("remote", &caller(&format!("c{i}")))
                    .is_ok()
            })
            .count();
        assert_eq!(answered, 3);
        assert_eq!(
            limiters.try_acquire("remote", &caller("late")),
            Err(Refusal::UpstreamKey)
        );
        assert!(limiters.try_acquire("local", &caller("late")).is_ok());
    }
}
