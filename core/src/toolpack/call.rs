//! Calling tools on a [`Toolpack`]: typed, by name with JSON, and the one guard every
//! call passes (the caller's rate limit, a panic turned into the internal error, the
//! call's span and metrics, and a live answer's `asOf` and `stale`).

use std::future::Future;
use std::panic::AssertUnwindSafe;

use futures_util::FutureExt;
use serde_json::Value;
use tracing::Instrument;

use crate::Toolpack;
use crate::ask;
use crate::catalog::{Catalog, ToolResult, UnknownTool};
use crate::http::{ServedFields, observe_served};
use crate::rate_limit::Refusal;
use crate::report;
use crate::telemetry::{self, CallMeter};
use crate::tool::{Tool, ToolOutput};

/// A JSON call that has to wait: drive it to completion on a tokio runtime.
pub type PendingCall =
    std::pin::Pin<Box<dyn Future<Output = Result<ToolResult, UnknownTool>> + Send + 'static>>;

impl Toolpack {
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

    /// Runs `work`, the call of tool `T`, under the guard: the caller's rate limit first,
    /// a panic turned into the contract's internal error, all inside an `execute_tool`
    /// span (the parent of its upstream and d2 spans) and measured.
    pub(crate) async fn guarded<T: Tool, F>(&self, work: F) -> T::Output
    where
        F: Future<Output = T::Output>,
    {
        let name = T::SPEC.name;
        let span = tracing::info_span!(
            "execute_tool",
            otel.name = format_args!("execute_tool {name}"),
            gen_ai.operation.name = "execute_tool",
            gen_ai.tool.name = name,
            toolpack.toolset = T::SPEC.toolset.as_str(),
            error.type = tracing::field::Empty,
            otel.status_code = tracing::field::Empty,
        );
        let meter = CallMeter::start(name);
        let work = self.guarded_work::<T, F>(work).instrument(span.clone());
        // Each branch awaits its future where it is built: an offline tool's call is not
        // wrapped in one more future (the cost guard counts the moves of a large one).
        // With this toolpack's asker and progress reporter installed, unless one already
        // is. Their calls are boxed: the plain call's future stays as it was (a tool's
        // future nested in two more scopes overflows a foreign thread's stack).
        macro_rules! asked {
            ($work:expr) => {
                match self.asker.clone() {
                    Some(asker) if !ask::has_asker() => {
                        ask::with_asker(Some(asker), Box::pin($work)).await
                    }
                    _ => $work.await,
                }
            };
        }
        macro_rules! reported {
            ($work:expr) => {
                match self.reporter.clone() {
                    Some(reporter) if !report::has_reporter() => {
                        report::with_reporter(reporter, Box::pin(async { asked!($work) })).await
                    }
                    _ => asked!($work),
                }
            };
        }
        let output = if T::SPEC.annotations.open_world {
            reported!(served(work))
        } else {
            reported!(work)
        };
        let code = output.error_code();
        if let Some(code) = code {
            span.record("error.type", code);
            span.record("otel.status_code", "ERROR");
        }
        meter.finish(code);
        output
    }

    async fn guarded_work<T: Tool, F>(&self, work: F) -> T::Output
    where
        F: Future<Output = T::Output>,
    {
        let name = T::SPEC.name;
        if let Err(refusal) = self.limiters().try_acquire(name, &self.caller) {
            tracing::info!(tool = name, ?refusal, "local rate limit exceeded");
            let limit = match refusal {
                Refusal::Caller => "caller",
                Refusal::UpstreamKey => "upstream_key",
            };
            telemetry::rate_limited(name, limit);
            return T::Output::rate_limited(name);
        }
        if let Some(replicas) = self.http().replicas()
            && let Some(per_second) = self.limiters().caller_limit(name)
            && Box::pin(replicas.caller_permit(name, self.caller.id(), per_second)).await
                == Some(false)
        {
            tracing::info!(tool = name, "rate limit across replicas exceeded");
            telemetry::rate_limited(name, "caller");
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

/// Runs a live tool's `work`, and fills in its success's `asOf` and `stale` from the
/// upstream answers it used.
async fn served<O: ToolOutput>(work: impl Future<Output = O>) -> O {
    // Boxed first: the observing scope would otherwise move the whole (large) future.
    let (mut output, served) = observe_served(Box::pin(work)).await;
    if let (Some(served), Some(slot)) = (served, output.served_fields()) {
        *slot = Some(ServedFields::of(served));
    }
    output
}
