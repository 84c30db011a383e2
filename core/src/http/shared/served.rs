//! [`Served`]: an upstream answer with when it was fetched and whether it is stale.

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
