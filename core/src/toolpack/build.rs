//! Building a [`Toolpack`]: the configuration checked against the catalog, the HTTP
//! client, and a rate limiter for each tool of the catalog.

use crate::Toolpack;
use crate::catalog::Catalog;
use crate::config::{Config, ConfigError, rate_limit_env_name};
use crate::http::{HttpClient, HttpError};
use crate::rate_limit::{LimitedTool, RateLimiters};

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

impl Toolpack {
    /// A toolpack with `config`, acting for the local caller. A per-tool rate limit
    /// that names no tool of the catalog is refused, naming the setting.
    pub fn new(config: Config) -> Result<Self, BuildError> {
        let entries = Catalog::get().entries();
        if let Some(unknown) = config.per_tool_rate_limit_names().find(|name| {
            !entries
                .iter()
                .any(|e| rate_limit_env_name(e.spec.name) == *name)
        }) {
            return Err(
                ConfigError::invalid(unknown, "unknown setting: no tool has that name").into(),
            );
        }
        let http = HttpClient::with_layer(crate::http::LayerSettings::from_config(&config))?;
        let limiters = RateLimiters::new(
            &config,
            entries.iter().map(|e| LimitedTool {
                name: e.spec.name,
                toolset: e.spec.toolset,
                calls_upstream: e.spec.annotations.open_world,
            }),
        );
        Ok(Self::assemble(config, http, limiters))
    }

    /// A toolpack configured from the process environment ([`Config::from_env`]).
    pub fn from_env() -> Result<Self, BuildError> {
        Self::new(Config::from_env()?)
    }
}
