//! [`Toolpack`]: the handle every surface holds. Cheap to clone; all state is shared.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures_util::FutureExt;
use serde_json::Value;

use crate::catalog::{Catalog, ToolResult, UnknownTool};
use crate::config::{Config, ConfigError};
use crate::http::{HttpClient, HttpError};
use crate::rate_limit::RateLimiters;
use crate::tool::{Tool, ToolOutput};

/// A failure to build a [`Toolpack`].
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// A setting could not be parsed.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The HTTP client could not be created.
    #[error(transparent)]
    Http(#[from] HttpError),
}

/// The configured set of tools: configuration, the shared HTTP client, rate
/// limiters and each family's state (caches, data). Clone it freely.
#[derive(Clone, Debug)]
pub struct Toolpack {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    config: Config,
    http: HttpClient,
    limiters: RateLimiters,
    #[cfg(feature = "tfl")]
    tfl: crate::tfl::TflState,
}

impl Toolpack {
    /// A toolpack with `config`.
    pub fn new(config: Config) -> Result<Self, BuildError> {
        let http = HttpClient::new()?;
        let limiters = RateLimiters::new(
            &config,
            Catalog::get().entries().iter().map(|e| e.spec.name),
        );
        Ok(Self {
            inner: Arc::new(Inner {
                #[cfg(feature = "tfl")]
                tfl: crate::tfl::TflState::default(),
                config,
                http,
                limiters,
            }),
        })
    }

    /// A toolpack configured from the process environment ([`Config::from_env`]).
    pub fn from_env() -> Result<Self, BuildError> {
        Self::new(Config::from_env()?)
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// The shared HTTP client.
    pub fn http(&self) -> &HttpClient {
        &self.inner.http
    }

    #[cfg(feature = "tfl")]
    pub(crate) fn tfl(&self) -> &crate::tfl::TflState {
        &self.inner.tfl
    }

    /// Calls tool `T` with a typed request: the rate limit is checked first, and a
    /// panic inside the tool becomes the contract's internal error.
    pub async fn call<T: Tool>(&self, input: T::Input) -> T::Output {
        self.guarded::<T, _>(T::run(self, input)).await
    }

    /// Calls a tool by name with JSON arguments: what every binding and the MCP server use.
    pub async fn call_json(&self, name: &str, arguments: Value) -> Result<ToolResult, UnknownTool> {
        Catalog::get().call(self, name, arguments).await
    }

    pub(crate) async fn guarded<T: Tool, F>(&self, work: F) -> T::Output
    where
        F: Future<Output = T::Output>,
    {
        let name = T::SPEC.name;
        if !self.inner.limiters.try_acquire(name) {
            tracing::info!(tool = name, "local rate limit exceeded");
            return T::Output::rate_limited(name);
        }
        match AssertUnwindSafe(work).catch_unwind().await {
            Ok(output) => output,
            Err(_) => {
                tracing::error!(
                    tool = name,
                    "tool panicked; answering with the internal error"
                );
                T::Output::internal_error(name)
            }
        }
    }
}
