//! How long an upstream answer stays fresh: the upstream's own word (`Cache-Control:
//! max-age`, `Expires`, `Age`, `no-store`) bounded by a default for each kind of answer.

use std::time::{Duration, SystemTime};

use reqwest::header::{AGE, CACHE_CONTROL, DATE, EXPIRES, HeaderMap};

/// What kind of answer a request asks for; each kind has its own freshness when the
/// upstream says nothing (see [`crate::Config::freshness`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AnswerKind {
    /// Line status (about 30 s).
    LineStatus,
    /// Arrivals and departures (about 20 s).
    Arrivals,
    /// Journeys (about 60 s).
    Journeys,
    /// Alerts and lift outages (about 60 s).
    Disruptions,
    /// Bike and rental availability (about 60 s).
    Bikes,
    /// Stop searches, routes, timetables and geocoding (about 12 h).
    Places,
}

/// How long an answer with `headers`, received at `now`, stays fresh: the kind's
/// `default`, or the upstream's bound when that is shorter. `no-store` and `no-cache`
/// give zero (the answer is not kept).
pub(crate) fn fresh_for(headers: &HeaderMap, default: Duration, now: SystemTime) -> Duration {
    match upstream_bound(headers, now) {
        Some(bound) => bound.min(default),
        None => default,
    }
}

/// The upstream's freshness bound, if it gave one: `max-age` (or `Expires` less `Date`,
/// or less now), minus the `Age` the answer already has.
fn upstream_bound(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    let directives = headers
        .get_all(CACHE_CONTROL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|d| d.trim().to_ascii_lowercase())
        .collect::<Vec<_>>();
    if directives
        .iter()
        .any(|d| d == "no-store" || d == "no-cache")
    {
        return Some(Duration::ZERO);
    }
    let max_age = directives
        .iter()
        .filter_map(|d| d.strip_prefix("max-age="))
        .find_map(|n| n.trim_matches('"').parse::<u64>().ok())
        .map(Duration::from_secs);
    let lifetime = max_age.or_else(|| {
        let expires = date(headers, EXPIRES);
        // An `Expires` that is not a date (often "0" or "-1") means already expired.
        if headers.contains_key(EXPIRES) && expires.is_none() {
            return Some(Duration::ZERO);
        }
        let origin = date(headers, DATE).unwrap_or(now);
        Some(expires?.duration_since(origin).unwrap_or(Duration::ZERO))
    })?;
    let age = headers
        .get(AGE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(Duration::ZERO, Duration::from_secs);
    Some(lifetime.saturating_sub(age))
}

fn date(headers: &HeaderMap, name: reqwest::header::HeaderName) -> Option<SystemTime> {
    httpdate::parse_http_date(headers.get(name)?.to_str().ok()?.trim()).ok()
}

#[cfg(test)]
mod tests {
    use reqwest::header::HeaderValue;

    use super::*;

    const DEFAULT: Duration = Duration::from_secs(30);

    fn headers(pairs: &[(&'static str, String)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn silence_gives_the_kinds_default_and_a_shorter_upstream_bound_wins() {
        let now = SystemTime::now();
        assert_eq!(fresh_for(&HeaderMap::new(), DEFAULT, now), DEFAULT);
        let short = headers(&[("cache-control", "public, max-age=10".into())]);
        assert_eq!(fresh_for(&short, DEFAULT, now), Duration::from_secs(10));
        let long = headers(&[("cache-control", "max-age=600, s-maxage=60".into())]);
        assert_eq!(fresh_for(&long, DEFAULT, now), DEFAULT);
    }

    #[test]
    fn age_is_taken_off_and_no_store_keeps_nothing() {
        let now = SystemTime::now();
        let aged = headers(&[("cache-control", "max-age=25".into()), ("age", "20".into())]);
        assert_eq!(fresh_for(&aged, DEFAULT, now), Duration::from_secs(5));
        let older = headers(&[("cache-control", "max-age=25".into()), ("age", "99".into())]);
        assert_eq!(fresh_for(&older, DEFAULT, now), Duration::ZERO);
        for directive in ["no-store", "private, no-cache"] {
            let refused = headers(&[("cache-control", directive.into())]);
            assert_eq!(fresh_for(&refused, DEFAULT, now), Duration::ZERO);
        }
    }

    #[test]
    fn expires_counts_from_the_date_header_or_from_now() {
        let now = SystemTime::now();
        let at = |offset: u64| httpdate::fmt_http_date(now + Duration::from_secs(offset));
        let dated = headers(&[("date", at(0)), ("expires", at(12))]);
        let fresh = fresh_for(&dated, DEFAULT, now).as_secs();
        assert!((11..=12).contains(&fresh), "{fresh}");
        let undated = headers(&[("expires", at(40))]);
        assert_eq!(fresh_for(&undated, DEFAULT, now), DEFAULT);
        for bad in ["0", "-1"] {
            let expired = headers(&[("expires", bad.into())]);
            assert_eq!(fresh_for(&expired, DEFAULT, now), Duration::ZERO);
        }
        // max-age wins over Expires.
        let both = headers(&[("cache-control", "max-age=7".into()), ("expires", at(20))]);
        assert_eq!(fresh_for(&both, DEFAULT, now), Duration::from_secs(7));
    }
}
