//! The shared HTTP layer for upstream APIs: one reqwest client, connect and total
//! timeouts, a response-size cap, retries with backoff and jitter for idempotent
//! requests (honouring `Retry-After`), and API keys sent as headers and redacted.

mod client;
mod error;
mod policy;
mod retry;

pub use client::{HttpClient, UpstreamRequest, UpstreamResponse};
pub use error::HttpError;
pub use policy::RequestPolicy;
