//! What the fake received: each request, kept for the tests and the judge.

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};

use serde::Serialize;

/// One request the fake received.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordedRequest {
    /// HTTP method.
    pub method: String,
    /// The raw path.
    pub path: String,
    /// Decoded query parameters.
    pub query: BTreeMap<String, String>,
    /// Headers, names lower-cased.
    pub headers: BTreeMap<String, String>,
    /// The body as text.
    pub body: String,
}

/// `m` locked, even if a holder panicked (the log stays readable).
pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
