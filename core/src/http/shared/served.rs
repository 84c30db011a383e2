//! [`Served`]: an upstream answer with when it was fetched and whether it is stale; the
//! record of what one tool call was served ([`observe_served`]); and the contract fields
//! that say so ([`ServedFields`]: `asOf`, `stale`).

use std::cell::Cell;
use std::future::Future;
use std::ops::Deref;
use std::sync::Arc;
use std::time::SystemTime;

use crate::http::response::UpstreamResponse;

/// An upstream answer as the layer serves it: fresh from the upstream, from the cache,
/// or stale in place of an error.
#[derive(Debug, Clone)]
pub struct Served {
    response: Arc<UpstreamResponse>,
    as_of: SystemTime,
    stale: bool,
}

impl Served {
    /// `response`, fetched at `as_of`.
    pub(crate) fn new(response: Arc<UpstreamResponse>, as_of: SystemTime, stale: bool) -> Self {
        Self {
            response,
            as_of,
            stale,
        }
    }

    /// When the answer was fetched from the upstream.
    pub fn as_of(&self) -> SystemTime {
        self.as_of
    }

    /// Whether the answer is a cached one standing in for an upstream error.
    pub fn is_stale(&self) -> bool {
        self.stale
    }
}

impl Deref for Served {
    type Target = UpstreamResponse;
    fn deref(&self) -> &UpstreamResponse {
        &self.response
    }
}

/// What the answers of one call were: the oldest fetch time and whether any was stale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServedAs {
    /// When the oldest answer the call used was fetched from the upstream.
    pub as_of: SystemTime,
    /// Whether a cached answer stood in for an upstream error.
    pub stale: bool,
}

/// The two fields every live tool's successful answer carries, defined once: each live
/// success body holds them (flattened into its JSON, a `served` record in Kotlin and Swift,
/// see [`crate::tool::SuccessBody`]), and [`crate::Toolpack::call`] fills them in.
#[derive(
    Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct ServedFields {
    /// When the upstream answer behind this one was fetched (ISO 8601, UTC, to the
    /// second). An answer from toolpack's shared cache keeps the time it was fetched; with
    /// several upstream answers, the oldest.
    pub as_of: String,
    /// True when the upstream failed (timed out, erred, throttled, or the key's budget was
    /// spent) and a cached answer past its freshness stands in for it; left out otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stale: bool,
}

impl ServedFields {
    /// The fields of a call served as `served`.
    pub fn of(served: ServedAs) -> Self {
        Self {
            as_of: utc_iso(served.as_of),
            stale: served.stale,
        }
    }
}

/// `time` as ISO 8601 UTC with a `Z`, to the second (`2026-11-28T04:21:41Z`).
fn utc_iso(time: SystemTime) -> String {
    let secs = time
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

tokio::task_local! {
    static SERVED: Cell<Option<ServedAs>>;
}

/// Runs `call`, noting what its upstream answers were ([`note_served`]).
pub(crate) async fn observe_served<F: Future>(call: F) -> (F::Output, Option<ServedAs>) {
    SERVED
        .scope(Cell::new(None), async move {
            let output = call.await;
            (output, SERVED.with(Cell::get))
        })
        .await
}

/// When the oldest upstream answer the current call has used so far was fetched: `None`
/// outside [`observe_served`] or before any answer.
#[cfg(feature = "digitransit")]
pub(crate) fn oldest_fetch() -> Option<SystemTime> {
    SERVED.try_with(Cell::get).ok().flatten().map(|s| s.as_of)
}

/// Notes an answer the current call used (nothing outside [`observe_served`]).
pub(crate) fn note_served(served: &Served) {
    let _ = SERVED.try_with(|seen| {
        let noted = match seen.get() {
            None => ServedAs {
                as_of: served.as_of,
                stale: served.stale,
            },
            Some(before) => ServedAs {
                as_of: before.as_of.min(served.as_of),
                stale: before.stale || served.stale,
            },
        };
        seen.set(Some(noted));
    });
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn times_are_iso_8601_utc_to_the_second() {
        let at = |secs: u64| utc_iso(SystemTime::UNIX_EPOCH + Duration::from_secs(secs));
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(1_795_753_301), "2026-11-27T04:21:41Z");
        assert_eq!(at(4_107_542_399), "2100-02-28T23:59:59Z");
    }
}
