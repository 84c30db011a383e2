#![warn(missing_docs)]
//! `toolpack-mcp`: an MCP server generic over the toolpack catalog. Every tool in
//! [`toolpack::Catalog`] is served with its input and output schemas and
//! annotations; there is no per-tool code here.

mod ask;
mod auth;
mod cache_hints;
pub mod cost;
mod deadline;
mod icons;
mod notify;
mod prompts;
mod server;
pub mod stdio;
mod tasks;
mod toolsets;
mod views;

pub mod cli;
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub mod fuzzing;
pub mod http;
pub mod telemetry;

pub use ask::StateKey;
pub use auth::{
    ALGORITHMS, AuthFailure, Authenticator, JwtError, JwtValidator, OAuthOptions, ProtectedResource,
};
pub use server::{CALL_DEADLINE_EXCEEDED, SERVER_BUSY, ServerLimits, ToolpackServer};
pub use toolsets::{Selection, SelectionError, ToolChoice, select_tools};
