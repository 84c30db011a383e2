//! [`Toolpack`]: the handle every surface holds. Cheap to clone; all state is shared.
//! The handle names no tool family: each family keeps its state in [`FamilyStates`]
//! and reaches it through the handle. Building is in [`build`], calling in [`call`], and
//! every tool's typed method is generated in [`typed`].

mod build;
mod call;
mod typed;

use std::sync::Arc;

use crate::ask::Asker;
use crate::caller::Caller;
use crate::config::Config;
use crate::family_state::{FamilyState, FamilyStates};
use crate::http::HttpClient;
use crate::rate_limit::RateLimiters;
use crate::report::Reporter;

pub use build::BuildError;
pub use call::PendingCall;

/// The configured set of tools: configuration, the shared HTTP client, rate
/// limiters and each family's state (caches, data), acting for one [`Caller`]. Clone
/// it freely; [`Toolpack::for_caller`] gives a handle on the same state that acts for
/// another caller, [`Toolpack::reporting_to`] one whose calls report their progress
/// and log events to a [`Reporter`], and [`Toolpack::asking`] one whose calls ask an
/// [`Asker`] which place an ambiguous name means.
#[derive(Clone)]
pub struct Toolpack {
    inner: Arc<Inner>,
    caller: Caller,
    reporter: Option<Arc<dyn Reporter>>,
    asker: Option<Arc<dyn Asker>>,
}

impl std::fmt::Debug for Toolpack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Toolpack")
            .field("inner", &self.inner)
            .field("caller", &self.caller)
            .field("reporting", &self.reporter.is_some())
            .field("asking", &self.asker.is_some())
            .finish()
    }
}

#[derive(Debug)]
struct Inner {
    config: Config,
    http: HttpClient,
    limiters: RateLimiters,
    #[cfg_attr(
        not(any(feature = "tfl", feature = "digitransit", feature = "loko")),
        allow(dead_code)
    )]
    families: FamilyStates,
}

impl Toolpack {
    /// A handle on freshly assembled parts, acting for the local caller.
    fn assemble(config: Config, http: HttpClient, limiters: RateLimiters) -> Self {
        Self {
            inner: Arc::new(Inner {
                config,
                http,
                limiters,
                families: FamilyStates::default(),
            }),
            caller: Caller::local(),
            reporter: None,
            asker: None,
        }
    }

    /// A handle on the same tools and state that acts for `caller`: its saved places,
    /// its own rate-limit budgets. Surfaces call this with the caller they
    /// authenticated; tools only read [`Toolpack::caller`].
    pub fn for_caller(&self, caller: Caller) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
            caller,
            reporter: self.reporter.clone(),
            asker: self.asker.clone(),
        }
    }

    /// A handle on the same tools, state and caller whose calls send their reports
    /// (progress, log events) to `reporter`: how the Python and Node clients hand them to
    /// an `on_report` callback. A call made inside [`crate::report::with_reporter`]
    /// reports there instead.
    pub fn reporting_to(&self, reporter: Arc<dyn Reporter>) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
            caller: self.caller.clone(),
            reporter: Some(reporter),
            asker: self.asker.clone(),
        }
    }

    /// A handle on the same tools, state and caller whose calls ask `asker` which place
    /// a name means when it means several ([`crate::ask`]): how the Python, Node and
    /// Kotlin clients hand the question to an `on_choice` callback. A call made inside
    /// [`crate::ask::with_asker`] asks there instead.
    pub fn asking(&self, asker: Arc<dyn Asker>) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
            caller: self.caller.clone(),
            reporter: self.reporter.clone(),
            asker: Some(asker),
        }
    }

    /// Who this handle's calls run for.
    pub fn caller(&self) -> &Caller {
        &self.caller
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// The shared HTTP client.
    pub fn http(&self) -> &HttpClient {
        &self.inner.http
    }

    /// The state of the family that keeps an `S`, made on first use.
    #[cfg_attr(
        not(any(feature = "tfl", feature = "digitransit", feature = "loko")),
        allow(dead_code)
    )]
    pub(crate) fn family<S: FamilyState>(&self) -> Arc<S> {
        self.inner.families.get::<S>(&self.inner.config)
    }

    /// The rate limiters (per caller and tool, and per upstream key).
    fn limiters(&self) -> &RateLimiters {
        &self.inner.limiters
    }
}
