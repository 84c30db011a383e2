//! [`Answer`]: the response of a tool family whose errors are a separate envelope
//! (Digitransit, loko): the success body, or the family's error envelope, one or the
//! other on the wire (untagged). A family brings its envelope ([`Envelope`]); the
//! catalog plumbing ([`ToolOutput`], the JSON schema) is written once, here.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Serialize;

use crate::http::ServedFields;
use crate::tool::{SuccessBody, ToolOutput};

/// A family's error envelope, e.g. `{"error": {"code", "message", …}}`.
pub trait Envelope: Serialize + JsonSchema + Send + Sized + 'static {
    /// The contract's error code.
    fn code(&self) -> &str;
    /// The contract's validation error for arguments that do not fit the input schema.
    fn invalid_arguments(message: String) -> Self;
    /// The contract's answer when the local rate limit refuses a call to `tool`.
    fn rate_limited(tool: &str) -> Self;
    /// The contract's internal error, for a failure that is nobody's input's fault.
    fn internal_error(tool: &str) -> Self;
}

/// A tool's answer: its success body `T`, or the error envelope `E`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Answer<T, E> {
    /// The success body.
    Ok(T),
    /// The error envelope.
    Err(E),
}

impl<T, E> Answer<T, E> {
    /// The success body, or the error envelope.
    pub fn into_result(self) -> Result<T, E> {
        match self {
            Self::Ok(body) => Ok(body),
            Self::Err(envelope) => Err(envelope),
        }
    }
}

impl<T: JsonSchema, E: JsonSchema> JsonSchema for Answer<T, E> {
    fn schema_name() -> Cow<'static, str> {
        format!("{}Response", T::schema_name()).into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let ok = generator.subschema_for::<T>();
        let err = generator.subschema_for::<E>();
        json_schema!({
            "description": "The success body, or the error envelope `{\"error\": {...}}`.",
            "anyOf": [ok, err],
        })
    }
}

impl<T, E> ToolOutput for Answer<T, E>
where
    T: Serialize + JsonSchema + SuccessBody + Send + 'static,
    E: Envelope,
{
    type Success = T;
    type Error = E;
    const ERROR_CODE_AT: &'static str = "/error/code";

    fn error_code(&self) -> Option<&str> {
        match self {
            Self::Ok(_) => None,
            Self::Err(envelope) => Some(envelope.code()),
        }
    }

    fn into_success(self) -> Result<T, Self> {
        match self {
            Self::Ok(body) => Ok(body),
            err => Err(err),
        }
    }

    fn invalid_arguments(_tool: &str, message: String) -> Self {
        Self::Err(E::invalid_arguments(message))
    }

    fn rate_limited(tool: &str) -> Self {
        Self::Err(E::rate_limited(tool))
    }

    fn internal_error(tool: &str) -> Self {
        Self::Err(E::internal_error(tool))
    }

    fn served_fields(&mut self) -> Option<&mut Option<ServedFields>> {
        match self {
            Self::Ok(body) => body.served_fields(),
            Self::Err(_) => None,
        }
    }
}
