//! The napi-rs layer over the toolpack core: converts, calls and maps errors. Every
//! tool, type and rule lives in the core catalog; `index.js` adds the typed client
//! (one camelCase method per catalog tool) and `index.d.ts` is generated from the
//! catalog's JSON schemas.

use std::collections::{BTreeMap, HashMap};

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use napi::bindgen_prelude::*;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi_derive::napi;
use toolpack::ask::{AskFuture, Asker, Question};
use toolpack::report::{Report, Reporter};
use toolpack::{Caller, Catalog, Config, Scopes, ToolResult, Toolpack, UnknownTool};

/// A JavaScript function called with the JSON text of each report, on the event loop.
/// It keeps the process alive until the call is over (and its reports delivered).
type ReportCallback = ThreadsafeFunction<String, Unknown<'static>, String, Status, false>;

/// Hands one call's reports to a JavaScript function, queued on the event loop in order,
/// and counts them: the call's outcome says how many were sent, so the JavaScript side
/// settles the call only after it has received them all.
struct JsReporter {
    callback: ReportCallback,
    sent: AtomicU32,
}

impl Reporter for JsReporter {
    fn report(&self, report: Report) {
        self.sent.fetch_add(1, Ordering::SeqCst);
        self.callback.call(
            report.to_json().to_string(),
            ThreadsafeFunctionCallMode::NonBlocking,
        );
    }
}

/// A JavaScript function asked which place a name means: it gets the question as JSON
/// text and resolves to the picked value, or `null`.
type ChoiceCallback = ThreadsafeFunction<String, Promise<Option<String>>, String, Status, false>;

/// Asks a JavaScript function on the event loop and waits for its Promise, off it.
struct JsAsker(ChoiceCallback);

impl Asker for JsAsker {
    fn ask<'a>(&'a self, question: &'a Question) -> AskFuture<'a> {
        let json = serde_json::to_string(question).unwrap_or_default();
        Box::pin(async move {
            let promise = self.0.call_async_catch(json).await.ok()?;
            promise.await.ok().flatten()
        })
    }
}

/// The outcome of one call.
#[napi(object)]
pub struct CallOutcome {
    /// The contract error code, when the call failed.
    pub code: Option<String>,
    /// The error's kind (`validation`, `not_found`, …), when the call failed.
    pub kind: Option<String>,
    /// The contract body JSON, or the MCP `CallToolResult` JSON when asked for.
    pub json: String,
    /// How many reports the call sent to its `onReport` callback (when it had one).
    pub reports: Option<u32>,
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
        let sorted: BTreeMap<String, String> = settings.into_iter().collect();
        let config = base.to_builder().set_pairs(sorted).map_err(invalid)?;
        let inner = Toolpack::new(config.build()).map_err(invalid)?;
        Ok(Self { inner })
    }

    /// The same toolpack (state, caches, limits) acting for the caller `id`: its own
    /// saved places and rate-limit budgets. A blank, over-long or control-character id
    /// throws with code `InvalidArg`.
    #[napi]
    pub fn for_caller(&self, id: String) -> Result<NativeToolpack> {
        let caller = Caller::new(id, Scopes::ALL).map_err(invalid)?;
        Ok(Self {
            inner: self.inner.for_caller(caller),
        })
    }

    /// The same toolpack, caller and state, whose calls ask `onChoice` which place a name
    /// means when it means several: it gets the question as JSON text and resolves to the
    /// picked value, or `null`. `index.js` wraps the client's `onChoice` option.
    #[napi]
    pub fn asking(
        &self,
        #[napi(ts_arg_type = "(question: string) => Promise<string | null>")]
        on_choice: ChoiceCallback,
    ) -> NativeToolpack {
        Self {
            inner: self.inner.asking(Arc::new(JsAsker(on_choice))),
        }
    }

    /// The id of the caller this handle acts for (`local` unless `forCaller` chose one).
    #[napi(getter)]
    pub fn caller_id(&self) -> String {
        self.inner.caller().id().to_owned()
    }

    /// Calls tool `name` with JSON `arguments`: the outcome itself when the call
    /// finishes on its first poll (local tools), else a Promise of it.
    ///
    /// The first poll runs here inside the tokio runtime's context; a call that has to
    /// wait (upstream I/O, timers) continues on the runtime's threads, never on the
    /// event loop. This saves the thread hops of a Promise for calls that never wait.
    /// An unknown tool or arguments that are not JSON throw with code `InvalidArg`.
    /// `onReport` receives the call's reports (progress, log events) as JSON text.
    #[napi(ts_return_type = "CallOutcome | Promise<CallOutcome>")]
    pub fn call<'env>(
        &self,
        env: &'env Env,
        name: String,
        arguments: String,
        as_mcp: bool,
        #[napi(ts_arg_type = "((report: string) => void) | undefined | null")] on_report: Option<
            ReportCallback,
        >,
    ) -> Result<Either<CallOutcome, PromiseRaw<'env, CallOutcome>>> {
        let arguments: serde_json::Value = serde_json::from_str(&arguments)
            .map_err(|e| invalid(format!("arguments are not valid JSON: {e}")))?;
        let reporter = on_report.map(|callback| {
            Arc::new(JsReporter {
                callback,
                sent: AtomicU32::new(0),
            })
        });
        let toolpack = match &reporter {
            Some(reporter) => self.inner.reporting_to(reporter.clone()),
            None => self.inner.clone(),
        };
        let sent = move || reporter.as_ref().map(|r| r.sent.load(Ordering::SeqCst));
        match within_runtime_if_available(|| toolpack.call_json_now_or_later(name, arguments)) {
            Ok(result) => Ok(Either::A(outcome(result, as_mcp, sent())?)),
            Err(pending) => Ok(Either::B(env.spawn_future(async move {
                let result = pending.await;
                outcome(result, as_mcp, sent())
            })?)),
        }
    }
}

fn outcome(
    result: std::result::Result<ToolResult, UnknownTool>,
    as_mcp: bool,
    reports: Option<u32>,
) -> Result<CallOutcome> {
    let result = result.map_err(invalid)?;
    Ok(CallOutcome {
        reports,
        kind: result.error_kind().map(|k| k.as_str().to_owned()),
        json: result.json_text(as_mcp),
        code: result.error_code,
    })
}

/// Every tool of the catalog (name, title, description, toolset, input and output
/// JSON schema, annotations), as JSON.
#[napi]
pub fn tools_json() -> String {
    Catalog::get().to_json().to_string()
}

/// The MCP Apps views as MCP `resources/list` entries, as JSON.
#[napi]
pub fn resources_json() -> String {
    toolpack::views::resources_json().to_string()
}

/// The MCP `resources/read` result of the view at `uri`, as JSON (`null`: no such view).
#[napi]
pub fn read_resource_json(uri: String) -> Option<String> {
    toolpack::views::find(&uri).map(|view| view.read_json().to_string())
}

fn invalid(error: impl std::fmt::Display) -> Error {
    Error::new(Status::InvalidArg, error.to_string())
}
