//! [`ErrorKind`]: the one table that groups every contract's error codes into kinds,
//! so each binding maps a failed call to one exception class per kind without a
//! per-tool table of its own. The kinds themselves are listed once, in
//! [`with_every_error_kind!`](crate::with_every_error_kind): the enum here, the uniffi error enum and (through the
//! catalog JSON) the Python exceptions, the TypeScript union and the docs come from it.

/// The one list of error kinds: calls `$callback!` with `Variant "name" "doc";` per
/// kind, in order. [`ErrorKind`] is built from it, and so is every binding that needs one
/// item per kind at compile time (the uniffi error enum).
#[macro_export]
macro_rules! with_every_error_kind {
    ($callback:ident) => {
        $callback! {
            Validation "validation" "The arguments are invalid.";
            NotFound "not_found" "Nothing matches the input.";
            DisambiguationRequired "disambiguation_required" "The input matches several things; the error lists candidates to choose from.";
            RateLimited "rate_limited" "A rate limit refused the call: the local one (per caller and tool) or the upstream's.";
            UpstreamTimeout "upstream_timeout" "An upstream API did not answer in time.";
            Upstream "upstream" "An upstream API failed, refused the key, or could not be reached.";
            DataNotAvailable "data_not_available" "Local data could not be read or written.";
            AlreadyExists "already_exists" "The thing to create exists already; nothing was overwritten.";
            PermissionDenied "permission_denied" "A path is outside what the tool may touch, or the file system refused.";
            Internal "internal" "A bug: nobody's input is at fault.";
            Other "other" "Any other contract code.";
        }
    };
}

/// Defines [`ErrorKind`] from the [`with_every_error_kind!`] list.
macro_rules! define_error_kind {
    ($($variant:ident $name:literal $doc:literal;)*) => {
        /// What kind of failure a contract error code means.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum ErrorKind {
            $(#[doc = $doc] $variant,)*
        }

        impl ErrorKind {
            /// Every kind, in the list's order.
            pub const ALL: &[ErrorKind] = &[$(Self::$variant,)*];

            /// The kind's stable name, e.g. `not_found`, as bindings receive it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Self::$variant => $name,)*
                }
            }

            /// What the kind means, for docs and generated exception classes.
            pub fn description(self) -> &'static str {
                match self {
                    $(Self::$variant => $doc,)*
                }
            }

            /// The variant's name, e.g. `NotFound` (the uniffi error case).
            pub fn variant_name(self) -> &'static str {
                match self {
                    $(Self::$variant => stringify!($variant),)*
                }
            }
        }
    };
}

with_every_error_kind!(define_error_kind);

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
            "UPSTREAM_ERROR" | "NETWORK_ERROR" | "INVALID_API_KEY" => Self::Upstream,
            "DATA_NOT_AVAILABLE" | "STORAGE_ERROR" => Self::DataNotAvailable,
            "NO_ITINERARY_FOUND" | "STOP_NOT_ON_LINE" => Self::NotFound,
            "INTERNAL_ERROR" => Self::Internal,
            "ALREADY_EXISTS" => Self::AlreadyExists,
            "PERMISSION_DENIED" => Self::PermissionDenied,
            c if c.ends_with("NOT_FOUND") || c.ends_with("NO_RESULTS") => Self::NotFound,
            _ => Self::Other,
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
            ("STOP_NOT_ON_LINE", ErrorKind::NotFound),
            ("geocode-no-results", ErrorKind::NotFound),
            ("DISAMBIGUATION_REQUIRED", ErrorKind::DisambiguationRequired),
            ("RATE_LIMIT_EXCEEDED", ErrorKind::RateLimited),
            ("rate-limited", ErrorKind::RateLimited),
            ("UPSTREAM_TIMEOUT", ErrorKind::UpstreamTimeout),
            ("upstream-error", ErrorKind::Upstream),
            ("INVALID_API_KEY", ErrorKind::Upstream),
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
