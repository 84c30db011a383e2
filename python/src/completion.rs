//! How work on toolpack's runtime threads reaches Python: the gate every such thread
//! passes to take the GIL, and the asyncio delivery of a call that had to wait.
//!
//! A runtime thread that takes the GIL while the interpreter finalizes aborts the process
//! (`PyGILState_Release: thread state must be current`). So runtime threads touch Python
//! only through [`with_python`], and at interpreter exit ([`close`], registered with
//! `atexit` by the package) the gate shuts and waits for every thread inside it to leave.
//! A call that finishes after that drops its result: nobody is left to read it.

use std::sync::{Condvar, Mutex};

use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use tokio::task::AbortHandle;

/// Whether the gate is shut, and how many runtime threads are inside it.
struct Gate {
    closed: bool,
    inside: usize,
}

static GATE: Mutex<Gate> = Mutex::new(Gate {
    closed: false,
    inside: 0,
});
static LEFT: Condvar = Condvar::new();

/// Runs `work` with the GIL from a runtime thread, unless the interpreter is exiting
/// (then `None`, and Python is not touched).
pub fn with_python<R>(work: impl FnOnce(Python<'_>) -> R) -> Option<R> {
    {
        let mut gate = GATE.lock().unwrap_or_else(|e| e.into_inner());
        if gate.closed {
            return None;
        }
        gate.inside += 1;
    }
    let result = Python::attach(work);
    let mut gate = GATE.lock().unwrap_or_else(|e| e.into_inner());
    gate.inside -= 1;
    LEFT.notify_all();
    Some(result)
}

/// Shuts the gate and waits, with the GIL released, until no runtime thread is inside.
/// The package registers it with `atexit`, which runs before the interpreter finalizes.
#[pyfunction]
pub fn close(py: Python<'_>) {
    py.detach(|| {
        let mut gate = GATE.lock().unwrap_or_else(|e| e.into_inner());
        gate.closed = true;
        while gate.inside > 0 {
            gate = LEFT.wait(gate).unwrap_or_else(|e| e.into_inner());
        }
    });
}

/// Runs `call` on the runtime and returns an asyncio future, on the running loop, that
/// resolves to its outcome. Cancelling the future aborts the call.
pub fn spawn_for_asyncio<T>(
    py: Python<'_>,
    call: impl Future<Output = PyResult<T>> + Send + 'static,
) -> PyResult<Bound<'_, PyAny>>
where
    T: for<'py> IntoPyObject<'py> + Send + 'static,
{
    let event_loop = py
        .import("asyncio")?
        .call_method0("get_running_loop")?
        .unbind();
    let future = event_loop.bind(py).call_method0("create_future")?;
    let target = future.clone().unbind();
    let task = pyo3_async_runtimes::tokio::get_runtime().spawn(async move {
        let result = call.await;
        with_python(|py| {
            let delivery = Delivery {
                future: target,
                result: Some(result.and_then(|value| value.into_py_any(py))),
            };
            // A closed loop cannot take the result; nobody awaits it any more.
            let _ = event_loop
                .bind(py)
                .call_method1("call_soon_threadsafe", (delivery,));
        });
    });
    future.call_method1("add_done_callback", (AbortOnCancel(task.abort_handle()),))?;
    Ok(future)
}

/// Sets a call's outcome on its future, on the loop's thread, unless it was cancelled.
#[pyclass]
struct Delivery {
    future: Py<PyAny>,
    result: Option<PyResult<Py<PyAny>>>,
}

#[pymethods]
impl Delivery {
    fn __call__(&mut self, py: Python<'_>) -> PyResult<()> {
        let future = self.future.bind(py);
        if future.call_method0("done")?.is_truthy()? {
            return Ok(());
        }
        match self.result.take() {
            Some(Ok(value)) => future.call_method1("set_result", (value,))?,
            Some(Err(error)) => future.call_method1("set_exception", (error.value(py),))?,
            None => return Ok(()),
        };
        Ok(())
    }
}

/// Aborts a call on the runtime when its asyncio future is cancelled.
#[pyclass(frozen)]
struct AbortOnCancel(AbortHandle);

#[pymethods]
impl AbortOnCancel {
    fn __call__(&self, future: &Bound<'_, PyAny>) -> PyResult<()> {
        if future.call_method0("cancelled")?.is_truthy()? {
            self.0.abort();
        }
        Ok(())
    }
}
