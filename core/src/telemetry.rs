//! What toolpack tells its operators: metrics through the [`metrics`] facade and spans
//! through [`tracing`]. Both cost next to nothing until an application installs a
//! recorder or a subscriber (`toolpack-mcp` serves the metrics at `/metrics` and exports
//! the spans over OTLP).
//!
//! Every label has a small, fixed set of values (tool names, contract error codes,
//! families, HTTP statuses): never a caller, token, key or argument.

use std::time::Instant;

use metrics::{counter, gauge, histogram};

/// The metric names, one place for the code that records them and the docs that list them.
pub mod names {
    /// Counter: tool calls by `tool` and outcome `code` (`OK`, a contract error code,
    /// or `CANCELLED` when the call was dropped before it answered).
    pub const TOOL_CALLS: &str = "toolpack_tool_calls_total";
    /// Histogram: seconds per tool call, by `tool`.
    pub const TOOL_CALL_SECONDS: &str = "toolpack_tool_call_duration_seconds";
    /// Gauge: tool calls running now, by `tool`.
    pub const TOOL_CALLS_IN_FLIGHT: &str = "toolpack_tool_calls_in_flight";
    /// Counter: calls refused by a local rate limit, by `tool` and `limit` (`caller`:
    /// the caller's own budget; `upstream_key`: the shared ceiling of an API key).
    pub const RATE_LIMITED: &str = "toolpack_rate_limited_total";
    /// Counter: upstream HTTP attempts by `family` and `status` (the HTTP status, or
    /// `timeout`, `transport`, `too_large`, `invalid`).
    pub const UPSTREAM_REQUESTS: &str = "toolpack_upstream_requests_total";
    /// Counter: upstream attempts that were retries, by `family`.
    pub const UPSTREAM_RETRIES: &str = "toolpack_upstream_retries_total";
    /// Counter: live requests by how the shared layer answered them, by `family` and
    /// `outcome` (`hit`: a fresh cached answer; `miss`: sent upstream; `coalesced`: joined
    /// an identical request in flight; `stale`: a cached answer in place of an error;
    /// with replicas sharing state, `shared_hit`: a fresh answer another replica fetched,
    /// and `shared_wait`: waited for another replica's fetch).
    pub const UPSTREAM_CACHE: &str = "toolpack_upstream_cache_total";
    /// Gauge: bytes the shared upstream response cache holds.
    pub const UPSTREAM_CACHE_BYTES: &str = "toolpack_upstream_cache_bytes";
    /// Counter: upstream attempts that met a spent key budget, by `family` and `outcome`
    /// (`waited`: sent after a wait; `refused`: not sent).
    pub const UPSTREAM_BUDGET: &str = "toolpack_upstream_budget_total";
    /// Counter: tokens of a key's budget this replica leased from the shared budget, by
    /// `family`.
    pub const SHARED_BUDGET_TOKENS: &str = "toolpack_shared_budget_tokens_total";
    /// Counter: leases (refills) this replica took of the shared budget, by `family`.
    pub const SHARED_BUDGET_LEASES: &str = "toolpack_shared_budget_leases_total";
    /// Counter: operations on the replicas' shared state done by this replica alone
    /// instead (the state was away), by `operation` (`lease`, `pause`, `cache`, `trim`,
    /// `limit`).
    pub const SHARED_STATE_FALLBACKS: &str = "toolpack_shared_state_fallbacks_total";
    /// Gauge: 1 while the replicas' shared state answers this replica, 0 while it is away.
    pub const SHARED_STATE_UP: &str = "toolpack_shared_state_up";
    /// Counter: saved-places store operations that failed, by `store` (`sqlite`,
    /// `postgres`).
    pub const STORE_ERRORS: &str = "toolpack_store_errors_total";
    /// Counter: d2 runs by `command` (`render`, `validate`) and `outcome` (`ok`,
    /// `rejected` for a source d2 refuses, `failed` when d2 could not run).
    pub const D2_RUNS: &str = "toolpack_d2_runs_total";
    /// Counter: d2 work answered from a cache instead, by `cache` (`svg`: a rendered
    /// diagram; `syntax`: a syntax check).
    pub const D2_CACHE_HITS: &str = "toolpack_d2_cache_hits_total";
}

/// Describes every metric to the installed recorder (help text and unit). Call it once
/// after installing one; without a recorder it does nothing.
pub fn describe() {
    use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
    describe_counter!(names::TOOL_CALLS, "Tool calls by tool and outcome code.");
    describe_histogram!(
        names::TOOL_CALL_SECONDS,
        Unit::Seconds,
        "Time from a tool call's start to its answer."
    );
    describe_gauge!(names::TOOL_CALLS_IN_FLIGHT, "Tool calls running now.");
    describe_counter!(
        names::RATE_LIMITED,
        "Calls refused by a local rate limit (the caller's, or an API key's ceiling)."
    );
    describe_counter!(
        names::UPSTREAM_REQUESTS,
        "Upstream HTTP attempts by family and status."
    );
    describe_counter!(
        names::UPSTREAM_RETRIES,
        "Upstream attempts that were retries."
    );
    describe_counter!(
        names::UPSTREAM_CACHE,
        "Live requests by how the shared layer answered: hit, miss, coalesced, stale."
    );
    describe_gauge!(
        names::UPSTREAM_CACHE_BYTES,
        Unit::Bytes,
        "Bytes the shared upstream response cache holds."
    );
    describe_counter!(
        names::UPSTREAM_BUDGET,
        "Upstream attempts that met a spent key budget: waited or refused."
    );
    describe_counter!(
        names::SHARED_BUDGET_TOKENS,
        "Tokens of a key's budget leased from the budget replicas share."
    );
    describe_counter!(
        names::SHARED_BUDGET_LEASES,
        "Leases (refills) taken of the budget replicas share."
    );
    describe_counter!(
        names::SHARED_STATE_FALLBACKS,
        "Shared-state operations this replica did alone because the shared state was away."
    );
    describe_gauge!(
        names::SHARED_STATE_UP,
        "1 while the replicas' shared state answers, 0 while it is away."
    );
    describe_counter!(
        names::STORE_ERRORS,
        "Saved-places store operations that failed."
    );
    describe_counter!(names::D2_RUNS, "d2 runs by command and outcome.");
    describe_counter!(
        names::D2_CACHE_HITS,
        "d2 work answered from a cache instead of a d2 run."
    );
}

/// One tool call being measured: in flight from [`CallMeter::start`] until it is
/// finished or dropped (a dropped call counts as `CANCELLED`).
#[derive(Debug)]
pub(crate) struct CallMeter {
    tool: &'static str,
    started: Instant,
    finished: bool,
}

impl CallMeter {
    /// Starts measuring a call of `tool`.
    pub(crate) fn start(tool: &'static str) -> Self {
        gauge!(names::TOOL_CALLS_IN_FLIGHT, "tool" => tool).increment(1.0);
        Self {
            tool,
            started: Instant::now(),
            finished: false,
        }
    }

    /// Records the call's answer: `code` is its contract error code, `None` on success.
    pub(crate) fn finish(mut self, code: Option<&str>) {
        self.record(code.unwrap_or("OK").to_owned());
        self.finished = true;
    }

    fn record(&self, code: String) {
        counter!(names::TOOL_CALLS, "tool" => self.tool, "code" => code).increment(1);
        histogram!(names::TOOL_CALL_SECONDS, "tool" => self.tool)
            .record(self.started.elapsed().as_secs_f64());
    }
}

impl Drop for CallMeter {
    fn drop(&mut self) {
        if !self.finished {
            self.record("CANCELLED".to_owned());
        }
        gauge!(names::TOOL_CALLS_IN_FLIGHT, "tool" => self.tool).decrement(1.0);
    }
}

/// Counts a call of `tool` refused by the `limit` named (`caller`, `upstream_key`).
pub(crate) fn rate_limited(tool: &'static str, limit: &'static str) {
    counter!(names::RATE_LIMITED, "tool" => tool, "limit" => limit).increment(1);
}

/// Counts one upstream attempt of `family` that ended with `status`; `retry` when it
/// was not the first attempt.
pub(crate) fn upstream_attempt(family: &'static str, status: String, retry: bool) {
    counter!(names::UPSTREAM_REQUESTS, "family" => family, "status" => status).increment(1);
    if retry {
        counter!(names::UPSTREAM_RETRIES, "family" => family).increment(1);
    }
}

/// Counts a live request of `family` answered by the shared layer with `outcome`.
pub(crate) fn upstream_cache(family: &'static str, outcome: &'static str) {
    counter!(names::UPSTREAM_CACHE, "family" => family, "outcome" => outcome).increment(1);
}

/// Records the bytes the shared response cache holds.
pub(crate) fn upstream_cache_bytes(bytes: usize) {
    gauge!(names::UPSTREAM_CACHE_BYTES).set(bytes as f64);
}

/// Counts an upstream attempt of `family` that met a spent budget (`waited`, `refused`).
pub(crate) fn upstream_budget(family: &'static str, outcome: &'static str) {
    counter!(names::UPSTREAM_BUDGET, "family" => family, "outcome" => outcome).increment(1);
}

/// Counts a lease of `tokens` of `family`'s shared budget.
pub(crate) fn shared_budget_lease(family: &'static str, tokens: u32) {
    counter!(names::SHARED_BUDGET_LEASES, "family" => family).increment(1);
    counter!(names::SHARED_BUDGET_TOKENS, "family" => family).increment(tokens.into());
}

/// Counts a shared-state `operation` done by this replica alone.
pub(crate) fn shared_state_fallback(operation: &'static str) {
    counter!(names::SHARED_STATE_FALLBACKS, "operation" => operation).increment(1);
}

/// Records whether the shared state answers.
pub(crate) fn shared_state_up(up: bool) {
    gauge!(names::SHARED_STATE_UP).set(if up { 1.0 } else { 0.0 });
}

/// Counts a failed operation of the saved-places `store`.
#[cfg(feature = "digitransit")]
pub(crate) fn store_error(store: &'static str) {
    counter!(names::STORE_ERRORS, "store" => store).increment(1);
}

/// Counts a d2 run of `command` with its `outcome`.
#[cfg(feature = "loko")]
pub(crate) fn d2_run(command: &'static str, outcome: &'static str) {
    counter!(names::D2_RUNS, "command" => command, "outcome" => outcome).increment(1);
}

/// Counts d2 work answered from `cache` (`svg`, `syntax`).
#[cfg(feature = "loko")]
pub(crate) fn d2_cache_hit(cache: &'static str) {
    counter!(names::D2_CACHE_HITS, "cache" => cache).increment(1);
}
