//! Building response bodies for each [`BodyMode`].

use std::time::Duration;

use axum::body::{Body, Bytes};
use futures_util::stream;

use super::scenario::BodyMode;

/// Default size of an oversized body: 16 MiB.
pub const DEFAULT_OVERSIZED_BYTES: usize = 16 * 1024 * 1024;

/// The body for `mode`, given the recorded body `recorded`. `Hang` waits (up to ten
/// minutes) before answering so the caller's timeout fires first.
pub(crate) async fn build(mode: BodyMode, recorded: Bytes, oversized: Option<usize>) -> Body {
    match mode {
        BodyMode::Fixture => Body::from(recorded),
        BodyMode::Empty => Body::empty(),
        BodyMode::Malformed => Body::from(r#"{"journeys": [{"duration": 7,"#),
        BodyMode::Truncated => {
            let half = recorded.slice(..recorded.len() / 2);
            let broken = std::io::Error::new(
                std::io::ErrorKind::ConnectionAborted,
                "truncated by scenario",
            );
            Body::from_stream(stream::iter([Ok(half), Err(broken)]))
        }
        BodyMode::Oversized => Body::from(padding(oversized.unwrap_or(DEFAULT_OVERSIZED_BYTES))),
        BodyMode::OversizedChunked => {
            let chunk = Bytes::from(vec![b' '; 64 * 1024]);
            let count = oversized
                .unwrap_or(DEFAULT_OVERSIZED_BYTES)
                .div_ceil(chunk.len());
            Body::from_stream(stream::iter(
                std::iter::repeat_n(chunk, count).map(Ok::<_, std::io::Error>),
            ))
        }
        BodyMode::Reset => {
            let reset =
                std::io::Error::new(std::io::ErrorKind::ConnectionReset, "reset by scenario");
            Body::from_stream(stream::iter([Err::<Bytes, _>(reset)]))
        }
        BodyMode::Hang => {
            tokio::time::sleep(Duration::from_secs(600)).await;
            Body::empty()
        }
    }
}

/// A JSON document of exactly `size` bytes (at least 10).
fn padding(size: usize) -> Vec<u8> {
    let mut body = br#"{"pad":""#.to_vec();
    body.resize(size.max(10) - 2, b'x');
    body.extend_from_slice(br#""}"#);
    body
}

#[cfg(test)]
mod tests {
    #[test]
    fn padding_is_json_of_the_asked_size() {
        let body = super::padding(1000);
        assert_eq!(body.len(), 1000);
        assert!(serde_json::from_slice::<serde_json::Value>(&body).is_ok());
    }
}
