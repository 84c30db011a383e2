//! An answer as this process keeps it ([`Cached`]) and as the replicas share it
//! ([`SharedEntry`]): the status, the headers as `name: value` lines, the body, when it
//! was fetched and how long it stays fresh.

use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};

use super::backend::SharedEntry;
use crate::http::response::UpstreamResponse;
use crate::http::shared::{Cached, Served};

/// `served`, fresh for `fresh` from now and good in place of an error `stale_for` after.
pub(crate) fn cached_to_shared(
    served: &Served,
    fresh: Duration,
    stale_for: Duration,
) -> SharedEntry {
    let mut headers = String::new();
    for (name, value) in &served.headers {
        if let Ok(value) = value.to_str() {
            headers.push_str(name.as_str());
            headers.push_str(": ");
            headers.push_str(value);
            headers.push('\n');
        }
    }
    SharedEntry {
        status: served.status.as_u16(),
        headers,
        body: served.body.clone(),
        as_of: served.as_of(),
        fresh_for: fresh,
        stale_for,
    }
}

/// The shared `entry` as this process keeps it (fresh until its freshness from now).
pub(crate) fn shared_to_cached(entry: SharedEntry) -> Cached {
    let mut headers = HeaderMap::new();
    for line in entry.headers.lines() {
        if let Some((name, value)) = line.split_once(": ")
            && let (Ok(name), Ok(value)) = (
                HeaderName::from_bytes(name.as_bytes()),
                HeaderValue::from_str(value),
            )
        {
            headers.append(name, value);
        }
    }
    let status = StatusCode::from_u16(entry.status).unwrap_or(StatusCode::OK);
    Cached {
        response: Arc::new(UpstreamResponse::new(status, headers, entry.body, 1)),
        as_of: entry.as_of,
        fresh_until: Instant::now() + entry.fresh_for,
    }
}

#[cfg(test)]
mod tests {
    use std::time::SystemTime;

    use super::*;

    #[test]
    fn an_answer_crosses_to_the_replicas_and_back_whole() {
        let mut headers = HeaderMap::new();
        headers.append("content-type", HeaderValue::from_static("application/json"));
        headers.append("x-several", HeaderValue::from_static("a"));
        headers.append("x-several", HeaderValue::from_static("b"));
        let as_of = SystemTime::now();
        let served = Served::new(
            Arc::new(UpstreamResponse::new(
                StatusCode::MULTIPLE_CHOICES,
                headers.clone(),
                br#"{"a":1}"#.to_vec(),
                2,
            )),
            as_of,
            false,
        );
        let shared = cached_to_shared(&served, Duration::from_secs(20), Duration::from_secs(300));
        assert_eq!(
            shared.headers,
            "content-type: application/json\nx-several: a\nx-several: b\n"
        );
        let back = shared_to_cached(shared);
        assert_eq!(back.response.status, StatusCode::MULTIPLE_CHOICES);
        assert_eq!(back.response.headers, headers);
        assert_eq!(back.response.body, br#"{"a":1}"#);
        assert_eq!(back.as_of, as_of);
        let left = back.fresh_until.saturating_duration_since(Instant::now());
        assert!(left > Duration::from_secs(19) && left <= Duration::from_secs(20));
    }
}
