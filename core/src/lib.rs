#![warn(missing_docs)]
//! # toolpack
//!
//! Agent tools as typed async Rust functions, listed in one [`Catalog`] that every
//! surface serves: the MCP server (`toolpack-mcp`), and the Python, Node and
//! Kotlin/Swift bindings.
//!
//! ```
//! # #[tokio::main]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use toolpack::{Config, Toolpack};
//! use toolpack::tfl::StationToiletLookupRequest;
//!
//! let toolpack = Toolpack::new(Config::default())?;
//! // Typed call:
//! let answer = toolpack.station_toilets(StationToiletLookupRequest::new("King's Cross")).await;
//! assert!(answer.success);
//! // JSON call by name, as MCP and the bindings do:
//! let result = toolpack
//!     .call_json("stationToilets", serde_json::json!({"stationName": "Abbey Wood"}))
//!     .await?;
//! assert!(!result.is_error());
//! # Ok(()) }
//! ```
//!
//! Tool families, each behind a cargo feature (all on by default): `tfl`,
//! `digitransit`, `loko`.

#[cfg(feature = "uniffi")]
uniffi::setup_scaffolding!();

pub mod answer;
mod arguments;
pub mod ask;
pub mod caller;
pub mod catalog;
pub mod config;
mod contract;
pub mod database;
mod error_code;
pub mod error_kind;
// Without a family nothing keeps family state: the parts are there, unused.
#[cfg_attr(
    not(any(feature = "tfl", feature = "digitransit", feature = "loko")),
    allow(dead_code)
)]
mod family_state;
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub mod fuzzing;
#[cfg_attr(not(any(feature = "tfl", feature = "digitransit")), allow(dead_code))]
mod geo;
pub mod http;
pub mod icons;
pub mod instructions;
#[cfg_attr(not(any(feature = "tfl", feature = "loko")), allow(dead_code))]
mod nearest;
pub mod prompts;
mod rate_limit;
pub mod report;
pub mod schema;
pub mod secret;
pub mod telemetry;
pub mod tool;
mod tool_search;
mod tool_spec;
mod toolpack;
mod toolset;
pub mod views;
pub mod walking_speed;
#[cfg_attr(not(any(feature = "tfl", feature = "digitransit")), allow(dead_code))]
mod words;

#[cfg(feature = "digitransit")]
pub mod digitransit;
#[cfg(feature = "loko")]
pub mod loko;
#[cfg(feature = "tfl")]
pub mod tfl;

pub use caller::{Caller, Scope, Scopes};
pub use catalog::{AdapterSchema, Catalog, ToolEntry, ToolResult, UnknownTool};
pub use config::{Config, ConfigBuilder, ConfigError};
pub use error_code::ErrorCode;
pub use error_kind::ErrorKind;
pub use secret::Secret;
pub use tool::{Annotations, Tool, ToolOutput, ToolSpec, Toolset};
pub use toolpack::{BuildError, PendingCall, Toolpack};
