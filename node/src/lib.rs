//! The napi-rs layer over the toolpack core: converts, calls and maps errors. Every
//! tool, type and rule lives in the core catalog; `index.js` adds the typed client
//! (one camelCase method per catalog tool) and `index.d.ts` is generated from the
//! catalog's JSON schemas.

use std::collections::HashMap;

use napi::bindgen_prelude::*;
use napi_derive::napi;
use toolpack::{Catalog, Config, ErrorKind, Toolpack};

/// The outcome of one call.
#[napi(object)]
pub struct CallOutcome {
    /// The contract error code, when the call failed.
    pub code: Option<String>,
    /// The error's kind (`validation`, `not_found`, …), when the call failed.
    pub kind: Option<String>,
    /// The contract body JSON, or the MCP `CallToolResult` JSON when asked for.
    pub json: String,
}

/// A configured toolpack: the native handle behind the `Toolpack` class.
#[napi]
pub struct NativeToolpack {
    inner: Toolpack,
}

#[napi]
impl NativeToolpack {
    /// Builds a toolpack from `settings` (environment names → values), on top of the
    /// process environment when `fromEnv` is true. A bad setting throws, naming it.
    #[napi(constructor)]
    pub fn new(settings: HashMap<String, String>, from_env: bool) -> Result<Self> {
        let base = if from_env {
            Config::from_env().map_err(invalid)?
        } else {
            Config::default()
        };
        let mut builder = base.to_builder();
        let mut names: Vec<&String> = settings.keys().collect();
        names.sort();
        for name in names {
            builder = builder.set(name, &settings[name]).map_err(invalid)?;
        }
        let inner = Toolpack::new(builder.build()).map_err(invalid)?;
        Ok(Self { inner })
    }

    /// Calls tool `name` with JSON `arguments` on the tokio runtime (never on the
    /// event loop); resolves to the outcome. An unknown tool or arguments that are not
    /// JSON reject with code `InvalidArg`.
    #[napi]
    pub async fn call(&self, name: String, arguments: String, as_mcp: bool) -> Result<CallOutcome> {
        let arguments: serde_json::Value = serde_json::from_str(&arguments).map_err(|e| {
            Error::new(
                Status::InvalidArg,
                format!("arguments are not valid JSON: {e}"),
            )
        })?;
        let result = self
            .inner
            .call_json(&name, arguments)
            .await
            .map_err(|e| Error::new(Status::InvalidArg, e.to_string()))?;
        let json = if as_mcp {
            result.to_mcp_json().to_string()
        } else {
            result.body.to_string()
        };
        Ok(CallOutcome {
            kind: result
                .error_code
                .as_deref()
                .map(|c| ErrorKind::of(c).as_str().to_owned()),
            code: result.error_code,
            json,
        })
    }
}

/// Every tool of the catalog (name, title, description, toolset, input and output
/// JSON schema, annotations), as JSON.
#[napi]
pub fn tools_json() -> String {
    Catalog::get().to_json().to_string()
}

fn invalid(error: impl std::fmt::Display) -> Error {
    Error::new(Status::InvalidArg, error.to_string())
}
