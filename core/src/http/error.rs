//! Errors of the HTTP layer. Messages never contain an API key.

/// Why an upstream request produced no response to read.
///
/// Non-2xx statuses are *not* errors here: callers classify bodies themselves
/// (TfL answers disambiguation with HTTP 300 and a JSON body).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HttpError {
    /// The total or connect timeout elapsed.
    #[error("upstream request timed out after {elapsed_ms} ms")]
    Timeout {
        /// Milliseconds spent before giving up.
        elapsed_ms: u128,
    },
    /// Connection refused or reset, DNS failure, broken body, TLS failure.
    #[error("upstream request failed: {message}")]
    Transport {
        /// What went wrong, with secrets redacted.
        message: String,
    },
    /// The response body was larger than the policy allows.
    #[error("upstream response exceeded {limit} bytes")]
    TooLarge {
        /// The cap, in bytes.
        limit: usize,
    },
    /// The upstream key's budget of requests is spent (see `crate::http`'s layer); nothing
    /// was sent.
    #[error("the upstream key's budget of requests is spent; retry after {retry_after_secs} s")]
    OverBudget {
        /// Seconds until the budget has room again.
        retry_after_secs: u64,
    },
    /// The request could not be built (bad base URL, client set-up).
    #[error("invalid upstream request: {message}")]
    InvalidRequest {
        /// What is wrong with it.
        message: String,
    },
}

impl HttpError {
    /// Whether this failure was a timeout.
    pub fn is_timeout(&self) -> bool {
        matches!(self, Self::Timeout { .. })
    }

    /// A short fixed name of the failure, for metric labels and spans (`timeout`,
    /// `transport`, `too_large`, `over_budget`, `invalid`).
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Timeout { .. } => "timeout",
            Self::Transport { .. } => "transport",
            Self::TooLarge { .. } => "too_large",
            Self::OverBudget { .. } => "over_budget",
            Self::InvalidRequest { .. } => "invalid",
        }
    }
}
