//! When and how long to wait before retrying an upstream request.

use std::time::{Duration, SystemTime};

use reqwest::StatusCode;
use reqwest::header::{HeaderMap, RETRY_AFTER};

/// Whether a response status is worth retrying (server-side failures only;
/// 429 is not: TfL uses it for an invalid key).
pub(crate) fn is_retryable_status(status: StatusCode) -> bool {
    status.is_server_error()
}

/// Exponential backoff with jitter: a random wait in `[b/2, b]` where
/// `b = base * 2^retry`.
pub(crate) fn backoff(base: Duration, retry: u32) -> Duration {
    let ceiling = base.saturating_mul(1u32 << retry.min(16));
    let half = ceiling / 2;
    half + half.mul_f64(fastrand::f64())
}

/// The wait a `Retry-After` header asks for: delta-seconds or an HTTP date.
pub fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let date = httpdate::parse_http_date(value).ok()?;
    Some(
        date.duration_since(SystemTime::now())
            .unwrap_or(Duration::ZERO),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    #[test]
    fn backoff_grows_and_stays_within_its_jitter_band() {
        let base = Duration::from_millis(100);
        for retry in 0..4 {
            let ceiling = base * (1 << retry);
            for _ in 0..50 {
                let wait = backoff(base, retry);
                assert!(
                    wait >= ceiling / 2 && wait <= ceiling,
                    "{wait:?} vs {ceiling:?}"
                );
            }
        }
    }

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        let mut h = HeaderMap::new();
        assert_eq!(retry_after(&h), None);
        h.insert(RETRY_AFTER, HeaderValue::from_static("2"));
        assert_eq!(retry_after(&h), Some(Duration::from_secs(2)));
        let past = httpdate::fmt_http_date(SystemTime::UNIX_EPOCH);
        h.insert(RETRY_AFTER, HeaderValue::from_str(&past).unwrap());
        assert_eq!(retry_after(&h), Some(Duration::ZERO));
        h.insert(RETRY_AFTER, HeaderValue::from_static("soon"));
        assert_eq!(retry_after(&h), None);
    }

    #[test]
    fn only_server_errors_are_retried() {
        assert!(is_retryable_status(StatusCode::SERVICE_UNAVAILABLE));
        assert!(!is_retryable_status(StatusCode::TOO_MANY_REQUESTS));
        assert!(!is_retryable_status(StatusCode::MULTIPLE_CHOICES));
    }
}
