//! The two traits every tool implements: [`Tool`] (what it is and how it runs) and
//! [`ToolOutput`] (how its response reports errors in its family's contract shape).

use std::future::Future;

use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::Toolpack;
use crate::config::Config;
use crate::http::ServedFields;

pub use crate::tool_spec::{Annotations, ToolSpec};
pub use crate::toolset::Toolset;

/// A tool: a typed request, a typed response, and an async function between them.
///
/// Implementations live in their family's module; the catalog lists them.
pub trait Tool: Send + Sync + 'static {
    /// The request type; its JSON schema is the tool's input schema.
    type Input: DeserializeOwned + JsonSchema + Send + 'static;
    /// The response type; its JSON schema is the tool's output schema.
    type Output: ToolOutput;
    /// Name, description and annotations.
    const SPEC: ToolSpec;

    /// Why this tool cannot run with `config` (e.g. a missing API key), or `None`.
    fn missing_prerequisite(_config: &Config) -> Option<String> {
        None
    }

    /// Runs the tool for [`Toolpack::caller`]. Rate limiting and panic capture are
    /// applied by [`Toolpack::call`]; implementations only do the tool's own work.
    ///
    /// **The first poll runs on the caller's thread.** Python and Node poll a call once
    /// where it is made (the asyncio loop's thread, the Node event loop) and hand it to the
    /// tokio runtime only when it returns `Pending`. So nothing before the first `.await`
    /// may block: file work, subprocesses and other blocking I/O go to the blocking pool
    /// (`tokio::task::spawn_blocking`; the loko tools' `blocking`), and CPU work there
    /// stays in microseconds. The same rule keeps the runtime's few worker threads free for
    /// other callers' calls.
    fn run(toolpack: &Toolpack, input: Self::Input) -> impl Future<Output = Self::Output> + Send;
}

/// A tool response that knows its family's contract error shape.
pub trait ToolOutput: Serialize + JsonSchema + Send + Sized + 'static {
    /// What a successful call returns to typed bindings: the response itself when the
    /// contract has one shape for success and failure (TfL), the success body when an
    /// error is a separate envelope (Digitransit).
    type Success: Serialize + JsonSchema + Send + 'static;
    /// The error body a failed call answers: the response itself when the contract has
    /// one shape for success and failure (TfL), the family's envelope otherwise.
    type Error: JsonSchema;
    /// Where the error code sits in [`ToolOutput::Error`], as a JSON pointer
    /// (`/code`, `/error/code`); the catalog lists the codes of the enum found there.
    const ERROR_CODE_AT: &'static str;
    /// The code of that enum that means success (`OK` in TfL's one shape), if any.
    const SUCCESS_CODE: Option<&'static str> = None;
    /// The contract error code when this response is an error, `None` on success.
    fn error_code(&self) -> Option<&str>;
    /// The success, or this response back when it is an error.
    fn into_success(self) -> Result<Self::Success, Self>;
    /// The contract's validation error for arguments that do not fit the input schema.
    fn invalid_arguments(tool: &str, message: String) -> Self;
    /// The contract's rate-limit error for `tool`.
    fn rate_limited(tool: &str) -> Self;
    /// The contract's internal error, for a failure that is nobody's input's fault.
    fn internal_error(tool: &str) -> Self;
    /// Where a successful answer says when its upstream answer was fetched (`asOf`,
    /// `stale`): `Some` for a live tool's success, `None` for an error or a tool that
    /// calls no upstream (the default).
    fn served_fields(&mut self) -> Option<&mut Option<ServedFields>> {
        None
    }
}

/// A success body of a family whose errors are a separate envelope ([`crate::answer`]),
/// and where it says when its upstream answer was fetched.
pub trait SuccessBody {
    /// The body's `asOf`/`stale` fields: `Some` for a live tool's body (a
    /// `#[serde(flatten)] served: Option<ServedFields>` field), `None` (the default) for a
    /// tool that calls no upstream.
    fn served_fields(&mut self) -> Option<&mut Option<ServedFields>> {
        None
    }
}

/// Implements [`SuccessBody`] for the success bodies of tools that call no upstream.
#[cfg(any(feature = "digitransit", feature = "loko"))]
macro_rules! offline_bodies {
    ($($body:ty),* $(,)?) => {
        $(impl $crate::tool::SuccessBody for $body {})*
    };
}
#[cfg(any(feature = "digitransit", feature = "loko"))]
pub(crate) use offline_bodies;

/// Implements [`SuccessBody`] for the success bodies of live tools: each has a
/// `served: Option<ServedFields>` field.
#[cfg(any(feature = "tfl", feature = "digitransit"))]
macro_rules! live_bodies {
    ($($body:ty),* $(,)?) => {
        $(impl $crate::tool::SuccessBody for $body {
            fn served_fields(
                &mut self,
            ) -> Option<&mut Option<$crate::http::ServedFields>> {
                Some(&mut self.served)
            }
        })*
    };
}
#[cfg(any(feature = "tfl", feature = "digitransit"))]
pub(crate) use live_bodies;
