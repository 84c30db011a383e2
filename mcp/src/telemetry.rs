//! The server's diagnostics for operators: logs on stderr, OpenTelemetry traces over
//! OTLP/HTTP when the standard `OTEL_EXPORTER_OTLP_ENDPOINT` (or
//! `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set, and the Prometheus recorder behind
//! `GET /metrics`. The core records the metrics and spans; this module only installs
//! where they go, and opens each call's `tools/call` span under the client's trace.

use std::sync::OnceLock;
use std::time::Duration;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use opentelemetry::propagation::Extractor;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::SdkTracerProvider;
use rmcp::model::{JsonObject, RequestId};
use rmcp::service::{RequestContext, RoleServer};
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::Layer as _;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// The environment variables that switch trace export on (the OpenTelemetry standard ones).
pub const OTLP_ENDPOINT_ENVS: [&str; 2] = [
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    "OTEL_EXPORTER_OTLP_ENDPOINT",
];

/// Upper bounds of the call-latency histogram buckets, in seconds.
pub const CALL_SECONDS_BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0, 30.0,
];

/// Counter: tool calls the server refused before the tool ran, by `reason` (`busy`: too
/// many in flight; `deadline`: abandoned at the call deadline).
pub const CALLS_REFUSED: &str = "toolpack_mcp_calls_refused_total";

/// Counts a call refused for `reason` (see [`CALLS_REFUSED`]).
pub fn call_refused(reason: &'static str) {
    metrics::counter!(CALLS_REFUSED, "reason" => reason).increment(1);
}

/// What [`init`] installed; dropping it flushes the spans not yet exported.
#[must_use = "dropping it stops trace export"]
pub struct Telemetry {
    provider: Option<SdkTracerProvider>,
}

impl Telemetry {
    /// Whether spans are exported over OTLP.
    pub fn exports_traces(&self) -> bool {
        self.provider.is_some()
    }
}

impl Drop for Telemetry {
    fn drop(&mut self) {
        if let Some(provider) = self.provider.take()
            && let Err(e) = provider.shutdown()
        {
            eprintln!("toolpack-mcp: flushing traces failed: {e}");
        }
    }
}

/// Whether the environment asks for trace export: an OTLP endpoint is set, and
/// neither `OTEL_SDK_DISABLED=true` nor `OTEL_TRACES_EXPORTER=none` turns it off.
pub fn traces_wanted() -> bool {
    let set = |name: &str| std::env::var(name).is_ok_and(|v| !v.trim().is_empty());
    let is = |name: &str, value: &str| {
        std::env::var(name).is_ok_and(|v| v.trim().eq_ignore_ascii_case(value))
    };
    OTLP_ENDPOINT_ENVS.iter().any(|name| set(name))
        && !is("OTEL_SDK_DISABLED", "true")
        && !is("OTEL_TRACES_EXPORTER", "none")
}

/// Installs the process's subscriber: log lines on stderr (`RUST_LOG`, default `warn`)
/// and, when [`traces_wanted`], toolpack's spans (not its libraries') exported over
/// OTLP/HTTP (protobuf) with the W3C trace-context propagator. The exporter reads the standard `OTEL_*`
/// variables (endpoint, headers, timeout; `OTEL_SERVICE_NAME`, default `toolpack-mcp`).
pub fn init() -> Telemetry {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("warn"));
    let logs = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_filter(filter);
    let provider = traces_wanted().then(tracer_provider).and_then(|built| {
        built
            .map_err(|e| eprintln!("toolpack-mcp: traces not exported: {e}"))
            .ok()
    });
    let traces = provider.as_ref().map(|provider| {
        opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
        tracing_opentelemetry::layer()
            .with_tracer(provider.tracer("toolpack"))
            .with_filter(
                tracing_subscriber::filter::Targets::new()
                    .with_target("toolpack", tracing::Level::INFO)
                    .with_target("toolpack_mcp", tracing::Level::INFO),
            )
    });
    tracing_subscriber::registry()
        .with(logs)
        .with(traces)
        .init();
    Telemetry { provider }
}

fn tracer_provider() -> Result<SdkTracerProvider, opentelemetry_otlp::ExporterBuildError> {
    // The exporter's HTTP client may speak TLS to the collector.
    toolpack::http::install_crypto_provider();
    let exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .build()?;
    let service = std::env::var("OTEL_SERVICE_NAME").unwrap_or_else(|_| "toolpack-mcp".into());
    let resource = opentelemetry_sdk::Resource::builder()
        .with_service_name(service)
        .build();
    Ok(SdkTracerProvider::builder()
        .with_batch_exporter(exporter)
        .with_resource(resource)
        .build())
}

/// The process's Prometheus recorder, installed on first use (the `metrics` facade has
/// one recorder per process): the core's metrics described, call latency as a true
/// histogram, and idle series pruned by an upkeep task on the current tokio runtime.
pub fn prometheus() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let builder = PrometheusBuilder::new()
                .set_buckets_for_metric(
                    Matcher::Full(toolpack::telemetry::names::TOOL_CALL_SECONDS.to_owned()),
                    &CALL_SECONDS_BUCKETS,
                )
                .expect("the bucket list is not empty");
            let handle = match builder.install_recorder() {
                Ok(handle) => handle,
                // Another recorder is installed: ours stays private (and empty).
                Err(_) => PrometheusBuilder::new().build_recorder().handle(),
            };
            toolpack::telemetry::describe();
            metrics::describe_counter!(
                CALLS_REFUSED,
                "Tool calls the server refused or abandoned (busy, deadline)."
            );
            let upkeep = handle.clone();
            tokio::spawn(async move {
                let mut every = tokio::time::interval(Duration::from_secs(5));
                loop {
                    every.tick().await;
                    upkeep.run_upkeep();
                }
            });
            handle
        })
        .clone()
}

/// The `tools/call` span of one MCP request (OpenTelemetry's MCP conventions: a server
/// span named `tools/call <tool>`), continuing the client's trace: the W3C
/// `traceparent` of the request's `_meta` when it has one, else of its HTTP headers.
/// The core's `execute_tool` span, and its upstream and d2 spans, open inside it.
pub fn call_span(tool: &str, context: &RequestContext<RoleServer>) -> tracing::Span {
    request_span(tool, &context.id, Carrier::of(context))
}

/// [`call_span`] from the request's parts: its id, `_meta` and HTTP headers.
pub(crate) fn request_span(tool: &str, id: &RequestId, carrier: Carrier<'_>) -> tracing::Span {
    // A root of its own: not under the MCP library's long-lived session span.
    let span = tracing::info_span!(
        parent: None,
        "tools/call",
        otel.name = format_args!("tools/call {tool}"),
        otel.kind = "server",
        mcp.method.name = "tools/call",
        gen_ai.tool.name = tool,
        jsonrpc.request.id = %request_id(id),
        rpc.response.status_code = tracing::field::Empty,
        error.type = tracing::field::Empty,
        otel.status_code = tracing::field::Empty,
    );
    if !span.is_disabled() {
        let parent = opentelemetry::global::get_text_map_propagator(|propagator| {
            propagator.extract(&carrier)
        });
        // A span that is not exported has no OpenTelemetry data to attach a parent to.
        let _ = span.set_parent(parent);
    }
    span
}

/// Marks `span` (a [`call_span`]) as answered with the JSON-RPC error `code`.
pub fn record_protocol_error(span: &tracing::Span, code: i32) {
    span.record("rpc.response.status_code", code);
    span.record("error.type", code);
    span.record("otel.status_code", "ERROR");
}

/// Marks `span` (a [`call_span`]) as answered with the contract error `code`.
pub fn record_tool_error(span: &tracing::Span, code: &str) {
    span.record("error.type", code);
    span.record("otel.status_code", "ERROR");
}

fn request_id(id: &RequestId) -> String {
    match id {
        RequestId::String(id) => id.to_string(),
        RequestId::Number(id) => id.to_string(),
    }
}

/// Trace-context fields of an MCP request: `_meta` first, then the HTTP headers.
pub(crate) struct Carrier<'a> {
    /// The request's `_meta`, if it has one.
    pub meta: Option<&'a JsonObject>,
    /// The HTTP request's headers (none over stdio).
    pub headers: Option<&'a axum::http::HeaderMap>,
}

impl<'a> Carrier<'a> {
    /// The trace-context fields of a request rmcp's service hands over: its `_meta`, and
    /// the HTTP headers among its extensions (none over stdio).
    pub fn of(context: &'a RequestContext<RoleServer>) -> Self {
        let meta: &JsonObject = &context.meta;
        Self {
            meta: Some(meta),
            headers: context
                .extensions
                .get::<axum::http::request::Parts>()
                .map(|parts| &parts.headers),
        }
    }
}

impl Extractor for Carrier<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        let in_meta = self
            .meta
            .and_then(|meta| meta.get(key))
            .and_then(serde_json::Value::as_str);
        in_meta.or_else(|| self.headers?.get(key)?.to_str().ok())
    }

    fn keys(&self) -> Vec<&str> {
        let mut keys: Vec<&str> = self
            .meta
            .map(|meta| meta.keys().map(String::as_str).collect())
            .unwrap_or_default();
        if let Some(headers) = self.headers {
            keys.extend(headers.keys().map(|name| name.as_str()));
        }
        keys
    }
}
