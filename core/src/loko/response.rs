//! The loko contract's answer shapes: a tool's success body, or the error envelope
//! `{"error":{"code","message","details"?}}` with the contract's upper-case codes.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::answer::{Answer, Envelope};

/// The loko contract's error codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum LokoErrorCode {
    /// The arguments break a rule of the contract (also a locally configured rate limit).
    InvalidInput,
    /// The project, system, container, component or template does not exist.
    NotFound,
    /// The entity to create exists already (it is never overwritten).
    AlreadyExists,
    /// A path is outside the project or `LOKO_ALLOWED_ROOTS`, or the file system refused access.
    PermissionDenied,
    /// D2 (or frontmatter) that does not parse; `details` has the line and column.
    InvalidSyntax,
    /// A bug or an unexpected I/O failure; nobody's input is at fault.
    InternalError,
}

impl LokoErrorCode {
    /// The code as it appears in JSON, e.g. `NOT_FOUND`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InvalidInput => "INVALID_INPUT",
            Self::NotFound => "NOT_FOUND",
            Self::AlreadyExists => "ALREADY_EXISTS",
            Self::PermissionDenied => "PERMISSION_DENIED",
            Self::InvalidSyntax => "INVALID_SYNTAX",
            Self::InternalError => "INTERNAL_ERROR",
        }
    }
}

/// The body of a loko error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct LokoErrorBody {
    /// The contract's error code.
    pub code: LokoErrorCode,
    /// What went wrong, for a person (the contract's message).
    pub message: String,
    /// More context: the file, d2's own message with line and column, the candidates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<String>,
}

/// `{"error": {...}}`: how every loko tool answers a failure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct LokoErrorEnvelope {
    /// The error.
    pub error: LokoErrorBody,
}

/// A failure inside a loko tool.
pub type Failure = LokoErrorBody;

impl LokoErrorBody {
    /// A failure with `code` and `message`.
    pub fn new(code: LokoErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            details: None,
        }
    }

    /// An `INVALID_INPUT` failure.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(LokoErrorCode::InvalidInput, message)
    }

    /// A `NOT_FOUND` failure.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(LokoErrorCode::NotFound, message)
    }

    /// An `INTERNAL_ERROR` for an I/O failure nobody's input caused.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(LokoErrorCode::InternalError, message)
    }

    /// The same failure with details.
    pub fn details(mut self, details: impl Into<String>) -> Self {
        self.details = Some(details.into());
        self
    }
}

/// A loko tool's answer: its success body `T`, or the error envelope (untagged on the wire).
pub type LokoResponse<T> = Answer<T, LokoErrorEnvelope>;

impl<T> Answer<T, LokoErrorEnvelope> {
    /// The answer of a tool's `result`.
    pub(crate) fn of(result: Result<T, Failure>) -> Self {
        match result {
            Ok(body) => Self::Ok(body),
            Err(error) => Self::Err(LokoErrorEnvelope { error }),
        }
    }
}

impl Envelope for LokoErrorEnvelope {
    fn code(&self) -> &str {
        self.error.code.as_str()
    }

    fn invalid_arguments(message: String) -> Self {
        LokoErrorEnvelope {
            error: Failure::invalid(message),
        }
    }

    fn rate_limited(tool: &str) -> Self {
        LokoErrorEnvelope {
            error: Failure::invalid(format!(
                "Local rate limit exceeded for {tool}; retry in a second."
            ))
            .details("rate-limited"),
        }
    }

    fn internal_error(tool: &str) -> Self {
        LokoErrorEnvelope {
            error: Failure::internal(format!("Unexpected error in {tool}.")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::ToolOutput;

    // Any body will do: an error body stands in for a success body here.
    crate::tool::offline_bodies!(LokoErrorBody);
    type Response = LokoResponse<LokoErrorBody>;

    #[test]
    fn catalog_errors_are_envelopes_with_the_contract_codes() {
        for (response, code) in [
            (Response::internal_error("t"), "INTERNAL_ERROR"),
            (Response::rate_limited("t"), "INVALID_INPUT"),
            (
                Response::invalid_arguments("t", "bad".into()),
                "INVALID_INPUT",
            ),
        ] {
            assert_eq!(response.error_code(), Some(code));
            let json = serde_json::to_value(&response).unwrap();
            assert_eq!(json["error"]["code"], code);
            assert!(response.into_success().is_err());
        }
        let ok = Response::Ok(Failure::not_found("x"));
        assert_eq!(ok.error_code(), None);
        assert_eq!(
            serde_json::to_value(&ok).unwrap(),
            serde_json::json!({"code": "NOT_FOUND", "message": "x"})
        );
    }
}
