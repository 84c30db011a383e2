//! [`ErrorKind`]: the one table that groups every contract's error codes into kinds,
//! so each binding maps a failed call to one exception class per kind without a
//! per-tool table of its own.

/// What kind of failure a contract error code means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The arguments are invalid (`VALIDATION_ERROR`, `validation-error`).
    Validation,
    /// Nothing matches the input (`STATION_NOT_FOUND`, `geocode-no-results`, `NOT_FOUND`, …).
    NotFound,
    /// The input matches several things; the answer lists candidates to choose from.
    DisambiguationRequired,
    /// The local rate limit (or an upstream's) refused the call.
    RateLimited,
    /// An upstream API did not answer in time.
    UpstreamTimeout,
    /// An upstream API failed or could not be reached.
    Upstream,
    /// Local data could not be read.
    DataNotAvailable,
    /// The thing to create exists already (`ALREADY_EXISTS`); nothing was overwritten.
    AlreadyExists,
    /// A path is outside what the tool may touch, or the file system refused (`PERMISSION_DENIED`).
    PermissionDenied,
    /// A bug: nobody's input is at fault.
    Internal,
    /// Any other contract code.
    Other,
}

impl ErrorKind {
    /// The kind of contract error `code`, in any contract's spelling
    /// (`UPSTREAM_TIMEOUT` and `upstream-timeout` are the same kind).
    pub fn of(code: &str) -> Self {
        let normalised = code.trim().to_ascii_uppercase().replace('-', "_");
        match normalised.as_str() {
            "VALIDATION_ERROR" | "INVALID_ARGUMENT" | "INVALID_INPUT" | "INVALID_SYNTAX"
            | "UNSUPPORTED_REGION" => Self::Validation,
            "DISAMBIGUATION_REQUIRED" => Self::DisambiguationRequired,
            "RATE_LIMIT_EXCEEDED" | "RATE_LIMITED" => Self::RateLimited,
            "UPSTREAM_TIMEOUT" => Self::UpstreamTimeout,
            "UPSTREAM_ERROR" | "NETWORK_ERROR" => Self::Upstream,
            "DATA_NOT_AVAILABLE" | "STORAGE_ERROR" => Self::DataNotAvailable,
            "NO_ITINERARY_FOUND" => Self::NotFound,
            "INTERNAL_ERROR" => Self::Internal,
            "ALREADY_EXISTS" => Self::AlreadyExists,
            "PERMISSION_DENIED" => Self::PermissionDenied,
            c if c.ends_with("NOT_FOUND") || c.ends_with("NO_RESULTS") => Self::NotFound,
            _ => Self::Other,
        }
    }

    /// The kind's stable name, e.g. `not_found`, as bindings receive it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Validation => "validation",
            Self::NotFound => "not_found",
            Self::DisambiguationRequired => "disambiguation_required",
            Self::RateLimited => "rate_limited",
            Self::UpstreamTimeout => "upstream_timeout",
            Self::Upstream => "upstream",
            Self::DataNotAvailable => "data_not_available",
            Self::AlreadyExists => "already_exists",
            Self::PermissionDenied => "permission_denied",
            Self::Internal => "internal",
            Self::Other => "other",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorKind;

    #[test]
    fn every_spelling_of_a_code_has_one_kind() {
        for (code, kind) in [
            ("VALIDATION_ERROR", ErrorKind::Validation),
            ("validation-error", ErrorKind::Validation),
            ("STATION_NOT_FOUND", ErrorKind::NotFound),
            ("geocode-no-results", ErrorKind::NotFound),
            ("DISAMBIGUATION_REQUIRED", ErrorKind::DisambiguationRequired),
            ("RATE_LIMIT_EXCEEDED", ErrorKind::RateLimited),
            ("rate-limited", ErrorKind::RateLimited),
            ("UPSTREAM_TIMEOUT", ErrorKind::UpstreamTimeout),
            ("upstream-error", ErrorKind::Upstream),
            ("DATA_NOT_AVAILABLE", ErrorKind::DataNotAvailable),
            ("INTERNAL_ERROR", ErrorKind::Internal),
            ("internal-error", ErrorKind::Internal),
            ("unsupported-region", ErrorKind::Validation),
            ("no-itinerary-found", ErrorKind::NotFound),
            ("not-found", ErrorKind::NotFound),
            ("network-error", ErrorKind::Upstream),
            ("storage-error", ErrorKind::DataNotAvailable),
            ("ALREADY_EXISTS", ErrorKind::AlreadyExists),
            ("PERMISSION_DENIED", ErrorKind::PermissionDenied),
            ("INVALID_SYNTAX", ErrorKind::Validation),
            ("NOT_FOUND", ErrorKind::NotFound),
            ("SOMETHING_ELSE", ErrorKind::Other),
        ] {
            assert_eq!(ErrorKind::of(code), kind, "{code}");
        }
    }
}
