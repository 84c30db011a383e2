//! [`UpstreamResponse`]: a whole upstream answer, as the client read it and the shared
//! layer keeps it.

use reqwest::StatusCode;
use reqwest::header::HeaderMap;
use serde_json::Value;

/// A complete upstream response of any status.
#[derive(Debug, Clone)]
pub struct UpstreamResponse {
    /// HTTP status.
    pub status: StatusCode,
    /// Response headers.
    pub headers: HeaderMap,
    /// The whole body (at most the policy's cap).
    pub body: Vec<u8>,
    /// How many attempts were made (1 = no retry).
    pub attempts: u32,
}

impl UpstreamResponse {
    /// Parses the body as JSON.
    pub fn json(&self) -> Result<Value, serde_json::Error> {
        serde_json::from_slice(&self.body)
    }
}
