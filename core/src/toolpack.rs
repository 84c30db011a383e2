//! [`Toolpack`]: the handle every surface holds. Cheap to clone; all state is shared.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures_util::FutureExt;
use serde_json::Value;

use crate::caller::Caller;
use crate::catalog::{Catalog, ToolResult, UnknownTool};
use crate::config::{Config, ConfigError};
use crate::http::{HttpClient, HttpError};
use crate::rate_limit::{LimitedTool, RateLimiters};
use crate::tool::{Tool, ToolOutput};

/// A JSON call that has to wait: drive it to completion on a tokio runtime.
pub type PendingCall =
    std::pin::Pin<Box<dyn Future<Output = Result<ToolResult, UnknownTool>> + Send + 'static>>;

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
/// limiters and each family's state (caches, data), acting for one [`Caller`]. Clone
/// it freely; [`Toolpack::for_caller`] gives a handle on the same state that acts for
/// another caller.
#[derive(Clone, Debug)]
pub struct Toolpack {
    inner: Arc<Inner>,
    caller: Caller,
}

#[derive(Debug)]
struct Inner {
    config: Config,
    http: HttpClient,
    limiters: RateLimiters,
    #[cfg(feature = "tfl")]
    tfl: crate::tfl::TflState,
    #[cfg(feature = "digitransit")]
    digitransit: crate::digitransit::DigitransitState,
    #[cfg(feature = "loko")]
    loko: crate::loko::LokoState,
}

impl Toolpack {
    /// A toolpack with `config`, acting for the local caller. A per-tool rate limit
    /// that names no tool of the catalog is refused, naming the setting.
    pub fn new(config: Config) -> Result<Self, BuildError> {
        let entries = Catalog::get().entries();
        if let Some(unknown) = config.per_tool_rate_limit_names().find(|name| {
            !entries
                .iter()
                .any(|e| crate::config::rate_limit_env_name(e.spec.name) == *name)
        }) {
            return Err(
                ConfigError::invalid(unknown, "unknown setting: no tool has that name").into(),
            );
        }
        let http = HttpClient::new()?;
        let limiters = RateLimiters::new(
            &config,
            Catalog::get().entries().iter().map(|e| LimitedTool {
                name: e.spec.name,
                toolset: e.spec.toolset,
                calls_upstream: e.spec.annotations.open_world,
            }),
        );
        Ok(Self {
            inner: Arc::new(Inner {
                #[cfg(feature = "tfl")]
                tfl: crate::tfl::TflState::default(),
                #[cfg(feature = "digitransit")]
                digitransit: crate::digitransit::DigitransitState::new(&config),
                #[cfg(feature = "loko")]
                loko: crate::loko::LokoState::default(),
                config,
                http,
                limiters,
            }),
            caller: Caller::local(),
        })
    }

    /// A handle on the same tools and state that acts for `caller`: its saved places,
    /// its own rate-limit budgets. Surfaces call this with the caller they
    /// authenticated; tools only read [`Toolpack::caller`].
    pub fn for_caller(&self, caller: Caller) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
            caller,
        }
    }

    /// Who this handle's calls run for.
    pub fn caller(&self) -> &Caller {
        &self.caller
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

    #[cfg(feature = "digitransit")]
    pub(crate) fn digitransit(&self) -> &crate::digitransit::DigitransitState {
        &self.inner.digitransit
    }

    #[cfg(feature = "loko")]
    pub(crate) fn loko(&self) -> &crate::loko::LokoState {
        &self.inner.loko
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

    /// Starts a JSON call and polls it once, on the calling thread: a call that never
    /// waits (local data) is answered right here, and a call that waits (upstream I/O,
    /// timers) is returned as a future to drive on an executor. Bindings use it to
    /// answer local tools without handing work to another thread. Call it inside the
    /// tokio runtime's context (`Runtime::enter`), as a tool may create timers.
    pub fn call_json_now_or_later(
        &self,
        name: String,
        arguments: Value,
    ) -> Result<Result<ToolResult, UnknownTool>, PendingCall> {
        let toolpack = self.clone();
        let mut call: PendingCall =
            Box::pin(async move { toolpack.call_json(&name, arguments).await });
        let mut context = std::task::Context::from_waker(std::task::Waker::noop());
        match call.as_mut().poll(&mut context) {
            std::task::Poll::Ready(result) => Ok(result),
            std::task::Poll::Pending => Err(call),
        }
    }

    pub(crate) async fn guarded<T: Tool, F>(&self, work: F) -> T::Output
    where
        F: Future<Output = T::Output>,
    {
        let name = T::SPEC.name;
        if let Err(refusal) = self.inner.limiters.try_acquire(name, &self.caller) {
            tracing::info!(tool = name, ?refusal, "local rate limit exceeded");
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
