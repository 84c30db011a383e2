//! Scenarios: how the fake misbehaves for matching requests.

use serde::{Deserialize, Serialize};

/// What body to send.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum BodyMode {
    /// The route's recorded body (or `json` when given).
    #[default]
    Fixture,
    /// An empty body.
    Empty,
    /// Text that is not valid JSON.
    Malformed,
    /// Part of the body, then the connection is broken.
    Truncated,
    /// `bytes` of padding with a matching `Content-Length`.
    Oversized,
    /// `bytes` of padding streamed without a `Content-Length`.
    OversizedChunked,
    /// Headers are never sent; the connection stays open.
    Hang,
    /// The connection is broken before the first byte of the body (the server resets it).
    Reset,
}

/// An override for requests whose path starts with `route` (all requests when absent).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Scenario {
    /// Path prefix (case-insensitive, percent-decoded) this scenario applies to.
    #[serde(default)]
    pub route: Option<String>,
    /// Status to answer with instead of the route's.
    #[serde(default)]
    pub status: Option<u16>,
    /// Latency added before answering, in milliseconds.
    #[serde(default)]
    pub delay_ms: Option<u64>,
    /// A `Retry-After` header value.
    #[serde(default)]
    pub retry_after: Option<String>,
    /// The body to send.
    #[serde(default)]
    pub body: BodyMode,
    /// An inline JSON body (with `body: fixture`), used instead of the route's file.
    #[serde(default)]
    pub json: Option<serde_json::Value>,
    /// A body file relative to the fixtures directory (with `body: fixture`), used
    /// instead of the route's file.
    #[serde(default)]
    pub file: Option<std::path::PathBuf>,
    /// Size of an oversized body (default 16 MiB).
    #[serde(default)]
    pub bytes: Option<usize>,
    /// How many matching requests it applies to before it expires (unlimited when absent).
    #[serde(default)]
    pub times: Option<u32>,
}

impl Scenario {
    /// A scenario for requests under `route`.
    pub fn on(route: impl Into<String>) -> Self {
        Self {
            route: Some(route.into()),
            ..Self::default()
        }
    }
    /// Sets the status.
    pub fn status(mut self, status: u16) -> Self {
        self.status = Some(status);
        self
    }
    /// Sets the added latency.
    pub fn delay_ms(mut self, ms: u64) -> Self {
        self.delay_ms = Some(ms);
        self
    }
    /// Sets the `Retry-After` header.
    pub fn retry_after(mut self, value: impl Into<String>) -> Self {
        self.retry_after = Some(value.into());
        self
    }
    /// Sets the body mode.
    pub fn body(mut self, body: BodyMode) -> Self {
        self.body = body;
        self
    }
    /// Sets an inline JSON body.
    pub fn json(mut self, json: serde_json::Value) -> Self {
        self.json = Some(json);
        self
    }
    /// Sets a body file (relative to the fixtures directory).
    pub fn file(mut self, file: impl Into<std::path::PathBuf>) -> Self {
        self.file = Some(file.into());
        self
    }
    /// Sets the oversized body's size.
    pub fn bytes(mut self, bytes: usize) -> Self {
        self.bytes = Some(bytes);
        self
    }
    /// Limits the scenario to the next `times` matching requests.
    pub fn times(mut self, times: u32) -> Self {
        self.times = Some(times);
        self
    }

    pub(crate) fn applies_to(&self, normalized_path: &str) -> bool {
        self.times != Some(0)
            && self
                .route
                .as_deref()
                .is_none_or(|r| normalized_path.starts_with(&super::routes::normalize_path(r)))
    }
}
