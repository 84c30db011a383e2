//! `toolpack_agents._native`: the PyO3 layer over the toolpack core. It converts, calls and
//! maps errors; every tool, type and rule lives in the core catalog. The Python package
//! (`python/toolpack_agents/`) adds the typed asyncio and sync clients generated from it.

mod completion;

use std::collections::BTreeMap;
use std::sync::OnceLock;

use pyo3::exceptions::{PyLookupError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use serde_json::Value;
use toolpack::ask::{BlockingAsker, Question};
use toolpack::report::{Report, Reporter};
use toolpack::{Caller, Catalog, Config, ErrorKind, Scopes, ToolResult, Toolpack, UnknownTool};

/// The process that started the tokio runtime. A process forked after that has no
/// runtime threads, so calls there fail fast with a clear error instead of hanging.
static RUNTIME_PID: OnceLock<u32> = OnceLock::new();

/// `(error code or None, error kind or None, JSON)` of one call: the contract body, or
/// with `as_mcp` the MCP `CallToolResult` JSON.
type CallOutcome = (Option<String>, Option<&'static str>, String);

/// A configured toolpack: the native handle behind `toolpack.Toolpack` and
/// `toolpack.AsyncToolpack`.
#[pyclass(frozen, module = "toolpack_agents._native")]
struct NativeToolpack {
    inner: Toolpack,
}

#[pymethods]
impl NativeToolpack {
    /// Builds a toolpack from `settings` (environment names → values), on top of the
    /// process environment when `from_env` is true. A bad setting raises `ValueError`
    /// naming it.
    #[new]
    #[pyo3(signature = (settings, from_env))]
    fn new(settings: BTreeMap<String, String>, from_env: bool) -> PyResult<Self> {
        let base = if from_env {
            Config::from_env().map_err(value_error)?
        } else {
            Config::default()
        };
        let config = base
            .to_builder()
            .set_pairs(&settings)
            .map_err(value_error)?;
        let inner = Toolpack::new(config.build()).map_err(value_error)?;
        Ok(Self { inner })
    }

    /// The same toolpack (state, caches, limits) acting for the caller `id`: its own
    /// saved places and rate-limit budgets. A blank, over-long or control-character id
    /// raises `ValueError`.
    fn for_caller(&self, id: &str) -> PyResult<Self> {
        let caller = Caller::new(id, Scopes::ALL).map_err(value_error)?;
        Ok(Self {
            inner: self.inner.for_caller(caller),
        })
    }

    /// The same toolpack and caller, whose calls hand each report (progress, log events) to
    /// `callback` as JSON text. The callback runs on whichever thread the call is on (a
    /// toolpack worker thread for calls that wait); the Python clients wrap it.
    fn reporting_to(&self, callback: Py<PyAny>) -> Self {
        Self {
            inner: self
                .inner
                .reporting_to(std::sync::Arc::new(PyReporter(callback))),
        }
    }

    /// The same toolpack, caller and reports, whose calls ask `callback` which place a
    /// name means when it means several: it gets the question as JSON text and returns
    /// the picked value, or `None`. It runs on toolpack's blocking pool, never on the
    /// call's thread or an event loop, so it may wait for a person.
    fn asking(&self, callback: Py<PyAny>) -> Self {
        let asker = BlockingAsker::new(move |question: Question| {
            let json = serde_json::to_string(&question).unwrap_or_default();
            completion::with_python(|py| match callback.call1(py, (json,)) {
                Ok(picked) => picked
                    .extract::<Option<String>>(py)
                    .unwrap_or_else(|error| {
                        error.write_unraisable(py, None);
                        None
                    }),
                Err(error) => {
                    error.write_unraisable(py, None);
                    None
                }
            })
            .flatten()
        });
        Self {
            inner: self.inner.asking(std::sync::Arc::new(asker)),
        }
    }

    /// The id of the caller this handle acts for (`local` unless `for_caller` chose one).
    #[getter]
    fn caller_id(&self) -> String {
        self.inner.caller().id().to_owned()
    }

    /// Calls tool `name` with JSON `arguments` for asyncio: the outcome itself when the
    /// call finishes on its first poll (local tools), else an awaitable of it.
    ///
    /// The first poll runs here, with the GIL released, inside the runtime's context;
    /// a call that has to wait (upstream I/O, timers) then continues on the tokio
    /// runtime. This saves the two thread hops of an awaitable for calls that never wait.
    fn call<'py>(
        &self,
        py: Python<'py>,
        name: String,
        arguments: &str,
        as_mcp: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let arguments = prepare(arguments)?;
        let first = py.detach(|| {
            let _context = pyo3_async_runtimes::tokio::get_runtime().enter();
            self.inner.call_json_now_or_later(name, arguments)
        });
        match first {
            Ok(result) => Ok(outcome(result, as_mcp)?.into_pyobject(py)?.into_any()),
            Err(pending) => {
                completion::spawn_for_asyncio(py, async move { outcome(pending.await, as_mcp) })
            }
        }
    }

    /// Calls tool `name` with JSON `arguments` and waits, with the GIL released.
    fn call_blocking(
        &self,
        py: Python<'_>,
        name: String,
        arguments: &str,
        as_mcp: bool,
    ) -> PyResult<CallOutcome> {
        let arguments = prepare(arguments)?;
        let toolpack = self.inner.clone();
        let result = py.detach(|| {
            pyo3_async_runtimes::tokio::get_runtime().block_on(toolpack.call_json(&name, arguments))
        });
        outcome(result, as_mcp)
    }
}

/// Every tool of the catalog (name, title, description, toolset, input and output
/// JSON schema, annotations), as JSON.
#[pyfunction]
fn tools_json() -> String {
    Catalog::get().to_json().to_string()
}

/// The MCP Apps views as MCP `resources/list` entries, as JSON.
#[pyfunction]
fn resources_json() -> String {
    toolpack::views::resources_json().to_string()
}

/// The MCP `resources/read` result of the view at `uri`, as JSON (`None`: no such view).
#[pyfunction]
fn read_resource_json(uri: &str) -> Option<String> {
    toolpack::views::find(uri).map(|view| view.read_json().to_string())
}

/// Hands reports to a Python callable, as JSON text. An exception in the callable is
/// reported as unraisable (`sys.unraisablehook`) and never fails the call.
struct PyReporter(Py<PyAny>);

impl Reporter for PyReporter {
    fn report(&self, report: Report) {
        let json = report.to_json().to_string();
        completion::with_python(|py| {
            if let Err(error) = self.0.call1(py, (json,)) {
                error.write_unraisable(py, None);
            }
        });
    }
}

/// Checks the process (see `RUNTIME_PID`) and parses the arguments.
fn prepare(arguments: &str) -> PyResult<Value> {
    let pid = *RUNTIME_PID.get_or_init(std::process::id);
    if pid != std::process::id() {
        return Err(PyRuntimeError::new_err(
            "toolpack was used before this process was forked and cannot be used in the \
child: create clients after fork(), or use the 'spawn'/'forkserver' multiprocessing start method",
        ));
    }
    serde_json::from_str(arguments)
        .map_err(|e| PyValueError::new_err(format!("arguments are not valid JSON: {e}")))
}

fn outcome(result: Result<ToolResult, UnknownTool>, as_mcp: bool) -> PyResult<CallOutcome> {
    let result = result.map_err(|e| PyLookupError::new_err(e.to_string()))?;
    let kind = result.error_kind().map(ErrorKind::as_str);
    let json = result.json_text(as_mcp);
    Ok((result.error_code, kind, json))
}

fn value_error(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// The native module.
#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<NativeToolpack>()?;
    module.add_function(wrap_pyfunction!(tools_json, module)?)?;
    module.add_function(wrap_pyfunction!(resources_json, module)?)?;
    module.add_function(wrap_pyfunction!(read_resource_json, module)?)?;
    module.add_function(wrap_pyfunction!(completion::close, module)?)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
