//! The uniffi layer over the toolpack core, for Kotlin and Swift: converts, calls and
//! maps errors. The request and response records are the core's own contract types
//! (its `uniffi` feature adds the derives), and the typed methods are generated from
//! the core's one tool list ([`toolpack::with_every_tool!`]): adding a tool to the core
//! adds its method here with no code of its own.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use toolpack::{Caller, Catalog, Config, ErrorKind, Scopes, Tool, ToolOutput, Toolpack};

uniffi::setup_scaffolding!();

/// Why a call failed. Each contract error kind is one case carrying the contract's
/// exact `code`, its message (`error_message`; Kotlin reserves `message`) and the
/// contract's error JSON (`json`).
#[derive(Debug, thiserror::Error, uniffi::Error)]
pub enum ToolpackError {
    /// The arguments are invalid (`VALIDATION_ERROR`, `validation-error`).
    #[error("{code}: {error_message}")]
    Validation {
        code: String,
        error_message: String,
        json: String,
    },
    /// Nothing matches the input (`STATION_NOT_FOUND`, `geocode-no-results`, …).
    #[error("{code}: {error_message}")]
    NotFound {
        code: String,
        error_message: String,
        json: String,
    },
    /// The input matches several things; `json` lists the candidates.
    #[error("{code}: {error_message}")]
    DisambiguationRequired {
        code: String,
        error_message: String,
        json: String,
    },
    /// The local rate limit refused the call.
    #[error("{code}: {error_message}")]
    RateLimited {
        code: String,
        error_message: String,
        json: String,
    },
    /// An upstream API did not answer in time.
    #[error("{code}: {error_message}")]
    UpstreamTimeout {
        code: String,
        error_message: String,
        json: String,
    },
    /// An upstream API failed or could not be reached.
    #[error("{code}: {error_message}")]
    Upstream {
        code: String,
        error_message: String,
        json: String,
    },
    /// Local data could not be read.
    #[error("{code}: {error_message}")]
    DataNotAvailable {
        code: String,
        error_message: String,
        json: String,
    },
    /// The entity to create exists already (`ALREADY_EXISTS`); nothing was overwritten.
    #[error("{code}: {error_message}")]
    AlreadyExists {
        code: String,
        error_message: String,
        json: String,
    },
    /// A path outside what the tool may touch, or refused by the file system (`PERMISSION_DENIED`).
    #[error("{code}: {error_message}")]
    PermissionDenied {
        code: String,
        error_message: String,
        json: String,
    },
    /// A bug inside toolpack.
    #[error("{code}: {error_message}")]
    Internal {
        code: String,
        error_message: String,
        json: String,
    },
    /// Any other contract error code.
    #[error("{code}: {error_message}")]
    Other {
        code: String,
        error_message: String,
        json: String,
    },
    /// A setting could not be used (`reason` names it).
    #[error("{reason}")]
    InvalidSetting { reason: String },
    /// `call` named a tool the catalog does not have, or its arguments were not JSON.
    #[error("{reason}")]
    InvalidCall { reason: String },
}

impl ToolpackError {
    /// The error for a contract error `code` with the contract's error JSON `json`.
    fn contract(code: &str, json: String) -> Self {
        let message = serde_json::from_str::<serde_json::Value>(&json)
            .ok()
            .and_then(|body| {
                body.get("message")
                    .or_else(|| body.pointer("/error/message"))
                    .and_then(|m| m.as_str().map(str::to_owned))
            })
            .unwrap_or_default();
        let (code, error_message, json) = (code.to_owned(), message, json);
        match ErrorKind::of(&code) {
            ErrorKind::Validation => Self::Validation {
                code,
                error_message,
                json,
            },
            ErrorKind::NotFound => Self::NotFound {
                code,
                error_message,
                json,
            },
            ErrorKind::DisambiguationRequired => Self::DisambiguationRequired {
                code,
                error_message,
                json,
            },
            ErrorKind::RateLimited => Self::RateLimited {
                code,
                error_message,
                json,
            },
            ErrorKind::UpstreamTimeout => Self::UpstreamTimeout {
                code,
                error_message,
                json,
            },
            ErrorKind::Upstream => Self::Upstream {
                code,
                error_message,
                json,
            },
            ErrorKind::DataNotAvailable => Self::DataNotAvailable {
                code,
                error_message,
                json,
            },
            ErrorKind::AlreadyExists => Self::AlreadyExists {
                code,
                error_message,
                json,
            },
            ErrorKind::PermissionDenied => Self::PermissionDenied {
                code,
                error_message,
                json,
            },
            ErrorKind::Internal => Self::Internal {
                code,
                error_message,
                json,
            },
            ErrorKind::Other => Self::Other {
                code,
                error_message,
                json,
            },
        }
    }
}

/// The toolpack client: one async method per catalog tool, plus `tools` and `call`.
#[derive(uniffi::Object)]
pub struct ToolpackClient {
    inner: Toolpack,
}

#[uniffi::export(async_runtime = "tokio")]
impl ToolpackClient {
    /// A client configured only by `settings` (the core's setting names, e.g.
    /// `TFL_API_KEY`, to values); the environment is not read.
    #[uniffi::constructor]
    pub fn new(settings: HashMap<String, String>) -> Result<Arc<Self>, ToolpackError> {
        Self::build(Config::default(), settings)
    }

    /// A client configured from the process environment, with `overrides` on top.
    #[uniffi::constructor]
    pub fn from_env(overrides: HashMap<String, String>) -> Result<Arc<Self>, ToolpackError> {
        let base = Config::from_env().map_err(invalid_setting)?;
        Self::build(base, overrides)
    }

    /// A client on the same toolpack (state, caches, limits) that acts for the caller
    /// `caller_id`: one of the application's own users, with its own saved places and
    /// rate-limit budgets. Throws `InvalidCall` for a blank, over-long or
    /// control-character id.
    pub fn for_caller(&self, caller_id: String) -> Result<Arc<Self>, ToolpackError> {
        let caller =
            Caller::new(caller_id, Scopes::ALL).map_err(|e| ToolpackError::InvalidCall {
                reason: e.to_string(),
            })?;
        Ok(Arc::new(Self {
            inner: self.inner.for_caller(caller),
        }))
    }

    /// The id of the caller this client acts for (`local` unless `forCaller` chose one).
    pub fn caller_id(&self) -> String {
        self.inner.caller().id().to_owned()
    }

    /// Every tool of the catalog (name, title, description, toolset, input and output
    /// JSON schema, annotations), as a JSON array.
    pub fn tools(&self) -> String {
        Catalog::get().to_json().to_string()
    }

    /// Calls tool `name` with JSON `arguments`; returns the MCP `CallToolResult` JSON,
    /// contract errors included. Throws `InvalidCall` for an unknown tool or bad JSON.
    pub async fn call(&self, name: String, arguments: String) -> Result<String, ToolpackError> {
        let arguments =
            serde_json::from_str(&arguments).map_err(|e| ToolpackError::InvalidCall {
                reason: format!("arguments are not valid JSON: {e}"),
            })?;
        let result = self.inner.call_json(&name, arguments).await.map_err(|e| {
            ToolpackError::InvalidCall {
                reason: e.to_string(),
            }
        })?;
        Ok(result.json_text(true))
    }
}

impl ToolpackClient {
    fn build(base: Config, settings: HashMap<String, String>) -> Result<Arc<Self>, ToolpackError> {
        let sorted: BTreeMap<String, String> = settings.into_iter().collect();
        let config = base
            .to_builder()
            .set_pairs(sorted)
            .map_err(invalid_setting)?;
        let inner = Toolpack::new(config.build()).map_err(invalid_setting)?;
        Ok(Arc::new(Self { inner }))
    }

    /// The typed call of tool `T`: its response, or its contract error as an exception.
    async fn typed<T: Tool>(
        &self,
        request: T::Input,
    ) -> Result<<T::Output as ToolOutput>::Success, ToolpackError> {
        self.inner
            .call::<T>(request)
            .await
            .into_success()
            .map_err(|response| {
                let code = response.error_code().unwrap_or("INTERNAL_ERROR").to_owned();
                let json = serde_json::to_string(&response).unwrap_or_default();
                ToolpackError::contract(&code, json)
            })
    }
}

fn invalid_setting(error: impl std::fmt::Display) -> ToolpackError {
    ToolpackError::InvalidSetting {
        reason: error.to_string(),
    }
}

/// One typed async method per tool of the core's list.
macro_rules! typed_methods {
    ($($feature:literal $method:ident : $tool:ty, $input:ty => $output:ty;)*) => {
        #[uniffi::export(async_runtime = "tokio")]
        impl ToolpackClient {
            $(
                #[cfg(feature = $feature)]
                pub async fn $method(&self, request: $input) -> Result<$output, ToolpackError> {
                    self.typed::<$tool>(request).await
                }
            )*
        }
    };
}

toolpack::with_every_tool!(typed_methods);
