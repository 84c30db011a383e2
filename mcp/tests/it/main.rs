//! The MCP server's integration tests, as modules of one test binary: one link of the
//! whole dependency graph instead of one per file. Each module is one subject (a
//! transport, a protocol feature, the binary's flags); `common` holds what they share.

mod binary;
mod common;
mod elicitation;
mod http;
mod http_callers;
mod in_process;
mod loko_build;
mod metrics;
mod notifications;
mod oauth;
mod prompts;
mod replicas;
mod shared_state;
mod tasks;
mod validate_cache;
mod views;
