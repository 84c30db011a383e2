//! The two traits every tool implements: [`Tool`] (what it is and how it runs) and
//! [`ToolOutput`] (how its response reports errors in its family's contract shape).

use std::future::Future;

use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::Toolpack;
use crate::config::Config;

pub use crate::toolset::Toolset;

/// MCP tool annotations: hints a client may use to decide how to call a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Annotations {
    /// The tool does not modify its environment.
    pub read_only: bool,
    /// The tool may destroy or overwrite data (meaningful only when not read-only).
    pub destructive: bool,
    /// Calling it again with the same arguments has no further effect.
    pub idempotent: bool,
    /// The tool reaches an open world of external entities (e.g. a public API).
    pub open_world: bool,
}

impl Annotations {
    /// Reads local data only: read-only, idempotent, closed world.
    pub const READ_ONLY_LOCAL: Annotations = Annotations {
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
    };
    /// Replaces local files with what the arguments say (a diagram, a build output):
    /// destructive, idempotent, closed world.
    pub const REPLACES_LOCAL: Annotations = Annotations {
        read_only: false,
        destructive: true,
        idempotent: true,
        open_world: false,
    };
    /// Adds local files and never overwrites one: not destructive, not idempotent (a
    /// second call finds the first one's work), closed world.
    pub const CREATES_LOCAL: Annotations = Annotations {
        read_only: false,
        destructive: false,
        idempotent: false,
        open_world: false,
    };
    /// Reads from an external API: read-only, idempotent, open world.
    pub const READ_ONLY_REMOTE: Annotations = Annotations {
        open_world: true,
        ..Self::READ_ONLY_LOCAL
    };
}

/// What a tool is: everything the catalog and every surface show about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolSpec {
    /// The contract's tool name, e.g. `stationToilets`.
    pub name: &'static str,
    /// A short human-readable title.
    pub title: &'static str,
    /// What the tool does and when to use it, written for an LLM choosing a tool.
    pub description: &'static str,
    /// The family the tool belongs to.
    pub toolset: Toolset,
    /// MCP annotations.
    pub annotations: Annotations,
}

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
    type Success: Serialize + Send + 'static;
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
}
