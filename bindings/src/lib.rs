//! The uniffi layer over the toolpack core, for Kotlin and Swift: converts, calls and
//! maps errors. The request and response records are the core's own contract types
//! (its `uniffi` feature adds the derives), and the typed methods are generated from
//! the core's one tool list ([`toolpack::with_every_tool!`]): adding a tool to the core
//! adds its method here with no code of its own.

// The layout of the largest tool futures (plan_trip's, inside uniffi's async wrapper)
// nests deeper than the default limit of 128.
#![recursion_limit = "256"]

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use toolpack::ask::{BlockingAsker, Question};
use toolpack::{Caller, Catalog, Config, ErrorKind, Scopes, Tool, ToolOutput, Toolpack};

uniffi::setup_scaffolding!();

/// Defines [`ToolpackError`] from the core's one list of error kinds
/// ([`toolpack::with_every_error_kind!`]): one case per kind, plus the two errors of
/// this layer (`InvalidSetting`, `InvalidCall`).
macro_rules! define_toolpack_error {
    ($($variant:ident $name:literal $doc:literal;)*) => {
        /// Why a call failed. Each contract error kind is one case carrying the
        /// contract's exact `code`, its message (`error_message`; Kotlin reserves
        /// `message`) and the contract's error JSON (`json`).
        #[derive(Debug, thiserror::Error, uniffi::Error)]
        pub enum ToolpackError {
            $(
                #[doc = $doc]
                #[error("{code}: {error_message}")]
                $variant {
                    /// The contract's exact error code.
                    code: String,
                    /// The contract's error message.
                    error_message: String,
                    /// The contract's error JSON.
                    json: String,
                },
            )*
            /// A setting could not be used (`reason` names it).
            #[error("{reason}")]
            InvalidSetting {
                /// What was wrong.
                reason: String,
            },
            /// `call` named a tool the catalog does not have, or its arguments were not JSON.
            #[error("{reason}")]
            InvalidCall {
                /// What was wrong.
                reason: String,
            },
        }

        impl ToolpackError {
            /// The case of `kind`.
            fn of_kind(kind: ErrorKind, code: String, error_message: String, json: String) -> Self {
                match kind {
                    $(ErrorKind::$variant => Self::$variant { code, error_message, json },)*
                }
            }
        }
    };
}

toolpack::with_every_error_kind!(define_toolpack_error);

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
        Self::of_kind(ErrorKind::of(code), code.to_owned(), message, json)
    }
}

/// Every tool of the catalog (name, title, description, toolset, input schemas plain,
/// strict and Gemini, output schema, annotations), as a JSON array, without a client.
#[uniffi::export]
pub fn tools() -> String {
    Catalog::get().to_json().to_string()
}

/// Asked which place a name means when it means several (`planJourney`'s `from` and
/// `to`, `arrivals`' `stop`, `stationToilets`, `liftOutages`).
#[uniffi::export(with_foreign)]
pub trait OnChoice: Send + Sync {
    /// The picked choice's `value`, and the call goes on with it; `null` gives the answer
    /// without it (`DISAMBIGUATION_REQUIRED` with the candidates). Called on a toolpack
    /// worker thread, never the caller's, so it may wait for a person.
    fn choose(&self, question: Question) -> Option<String>;
}

/// The toolpack client: one async method per catalog tool, plus `tools` and `call`.
#[derive(uniffi::Object)]
pub struct ToolpackClient {
    inner: Toolpack,
}

#[uniffi::export(async_runtime = "tokio")]
impl ToolpackClient {
    /// A client configured only by `settings` (the core's setting names, e.g.
    /// `TFL_API_KEY`, to values); the environment is not read. `on_choice`, when given,
    /// is asked which place a name means when it means several.
    #[uniffi::constructor(default(on_choice = None))]
    pub fn new(
        settings: HashMap<String, String>,
        on_choice: Option<Arc<dyn OnChoice>>,
    ) -> Result<Arc<Self>, ToolpackError> {
        Self::build(Config::default(), settings, on_choice)
    }

    /// A client configured from the process environment, with `overrides` on top.
    #[uniffi::constructor(default(on_choice = None))]
    pub fn from_env(
        overrides: HashMap<String, String>,
        on_choice: Option<Arc<dyn OnChoice>>,
    ) -> Result<Arc<Self>, ToolpackError> {
        let base = Config::from_env().map_err(invalid_setting)?;
        Self::build(base, overrides, on_choice)
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
    /// JSON schema, annotations), as a JSON array: the same as the top-level `tools()`.
    pub fn tools(&self) -> String {
        tools()
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
    fn build(
        base: Config,
        settings: HashMap<String, String>,
        on_choice: Option<Arc<dyn OnChoice>>,
    ) -> Result<Arc<Self>, ToolpackError> {
        let sorted: BTreeMap<String, String> = settings.into_iter().collect();
        let config = base
            .to_builder()
            .set_pairs(sorted)
            .map_err(invalid_setting)?;
        let mut inner = Toolpack::new(config.build()).map_err(invalid_setting)?;
        if let Some(on_choice) = on_choice {
            let asker = BlockingAsker::new(move |question: Question| on_choice.choose(question));
            inner = inner.asking(Arc::new(asker));
        }
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
