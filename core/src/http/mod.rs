//! The shared HTTP layer for upstream APIs: one reqwest client, connect and total
//! timeouts, a response-size cap, retries with backoff and jitter for idempotent
//! requests (honouring `Retry-After`), and API keys sent as headers and redacted; and in
//! front of it the shared layer (`shared`: the cache, coalescing, stale answers and the
//! keys' budgets), which every live call goes through.

mod client;
mod error;
mod policy;
mod response;
mod retry;
pub(crate) mod shared;
mod tls;

pub use client::{HttpClient, RefusedKey, UpstreamRequest};
pub use error::HttpError;
pub use policy::RequestPolicy;
pub use response::UpstreamResponse;
pub use retry::retry_after;
pub(crate) use shared::observe_served;
#[cfg(feature = "digitransit")]
pub(crate) use shared::oldest_fetch;
pub use shared::{AnswerKind, LayerSettings, Served, ServedAs, ServedFields};
pub use tls::install_crypto_provider;
#[cfg(feature = "digitransit")]
pub use tls::platform_tls_config;

/// Percent-encodes everything but RFC 3986 unreserved characters, so spaces, `'`, `&`,
/// `/`, `,`, `?`, `#`, `|` and non-ASCII text stay inside one URL path segment or one
/// field of a composite key.
pub fn encode_component(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 3);
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// A fresh correlation id (a random UUID v4 string) for upstreams and contracts that
/// carry one.
pub fn new_correlation_id() -> String {
    let bits = fastrand::u128(..);
    // Set the version (4) and variant (10xx) bits.
    let bits = (bits & !(0xf << 76) | (0x4 << 76)) & !(0x3 << 62) | (0x2 << 62);
    let hex = format!("{bits:032x}");
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn correlation_ids_are_distinct_uuid_v4_strings() {
        let (a, b) = (super::new_correlation_id(), super::new_correlation_id());
        assert_ne!(a, b);
        for id in [a, b] {
            let parts: Vec<&str> = id.split('-').collect();
            assert_eq!(
                parts.iter().map(|p| p.len()).collect::<Vec<_>>(),
                [8, 4, 4, 4, 12]
            );
            assert!(parts[2].starts_with('4'), "{id}");
            assert!(
                matches!(parts[3].as_bytes()[0], b'8' | b'9' | b'a' | b'b'),
                "{id}"
            );
        }
    }
}
