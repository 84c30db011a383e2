//! Streamable HTTP serving: `/mcp` behind authentication (static bearer tokens and/or
//! OAuth 2.1 access tokens, each credential its own caller), scope checks with the
//! MCP step-up answer, the protected-resource metadata, `GET /healthz`, the
//! DNS-rebinding allow-lists, a body-size limit, stateless mode, session termination
//! answered with 204, and `GET /metrics` (Prometheus text, behind the same
//! authentication unless made public).

use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{Value, json};
use toolpack::{Caller, Catalog, Scope, Scopes};

use crate::ToolpackServer;
use crate::auth::{AuthFailure, Authenticator, METADATA_PATH, OAuthOptions, ProtectedResource};

pub use crate::auth::{StaticToken, parse_tokens};

/// The environment variable holding the bearer tokens (see [`parse_tokens`]).
pub const TOKENS_ENV: &str = "TOOLPACK_HTTP_TOKENS";
/// Default largest request body, in bytes.
pub const DEFAULT_MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// How `/mcp` is served.
#[derive(Clone, Default)]
pub struct HttpOptions {
    /// Accepted static bearer tokens, each its own caller.
    pub tokens: Vec<StaticToken>,
    /// Accepted OAuth access tokens. With neither tokens nor OAuth, there is no
    /// authentication and every request acts for the local caller.
    pub oauth: Option<OAuthOptions>,
    /// Host names (or `host:port`) accepted besides the loopback names.
    pub allowed_hosts: Vec<String>,
    /// Browser origins accepted (`https://app.example.com`); empty: Origin not checked.
    pub allowed_origins: Vec<String>,
    /// No sessions: every POST is answered on its own (JSON), so replicas need no
    /// sticky sessions.
    pub stateless: bool,
    /// Largest request body, in bytes (`0`: the default).
    pub max_body_bytes: usize,
    /// Whether and how `GET /metrics` is served.
    pub metrics: MetricsRoute,
}

/// How `GET /metrics` (the Prometheus text format) is served.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum MetricsRoute {
    /// Behind the same authentication as `/mcp` (any accepted credential may scrape).
    #[default]
    Authenticated,
    /// Without authentication, for a scraper on a private network (`--metrics-public`).
    Public,
    /// Not served, and no metrics recorded (`--no-metrics`).
    Off,
}

impl HttpOptions {
    /// Whether requests must carry a credential.
    pub fn authenticates(&self) -> bool {
        !self.tokens.is_empty() || self.oauth.is_some()
    }

    fn body_limit(&self) -> usize {
        if self.max_body_bytes > 0 {
            self.max_body_bytes
        } else {
            DEFAULT_MAX_BODY_BYTES
        }
    }
}

impl std::fmt::Debug for HttpOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpOptions")
            .field("tokens", &format!("[{} redacted]", self.tokens.len()))
            .field("oauth", &self.oauth)
            .field("allowed_hosts", &self.allowed_hosts)
            .field("allowed_origins", &self.allowed_origins)
            .field("stateless", &self.stateless)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("metrics", &self.metrics)
            .finish()
    }
}

/// What the authentication layer needs.
struct AuthGate {
    auth: Authenticator,
    resource: ProtectedResource,
    body_limit: usize,
}

/// The HTTP app: `/mcp` (MCP streamable HTTP), `/healthz` and, with authentication,
/// the protected-resource metadata; and a function that ends every open MCP session
/// (for shutdown). rmcp answers every `/mcp` request.
pub fn router(
    server: ToolpackServer,
    options: &HttpOptions,
) -> (Router, impl Fn() + Clone + use<>) {
    let mut config = StreamableHttpServerConfig::default();
    config
        .allowed_hosts
        .extend(options.allowed_hosts.iter().cloned());
    config.allowed_origins = options.allowed_origins.clone();
    config.legacy_session_mode = !options.stateless;
    config.json_response = options.stateless;
    config.max_request_body_bytes = options.body_limit();
    let sessions = config.cancellation_token.clone();
    let tool_count = server.tools().len();
    let held_sessions = Arc::new(LocalSessionManager::default());
    let service =
        StreamableHttpService::new(move || Ok(server.for_session()), held_sessions, config);
    let auth_gate = Arc::new(AuthGate {
        auth: Authenticator::new(options.tokens.clone(), options.oauth.clone()),
        resource: ProtectedResource {
            resource: options.oauth.as_ref().map(|o| o.audience.clone()),
            issuer: options.oauth.as_ref().map(|o| o.issuer.clone()),
        },
        body_limit: options.body_limit(),
    });
    let mut app: Router = Router::new().nest_service("/mcp", service);
    if options.metrics == MetricsRoute::Authenticated {
        app = app.route("/metrics", metrics_route());
    }
    app = app
        .layer(middleware::from_fn(deleted_is_no_content))
        .layer(middleware::from_fn_with_state(
            auth_gate.clone(),
            authenticate,
        ))
        .route(
            "/healthz",
            axum::routing::get(move || async move {
                axum::Json(json!({
                    "status": "ok",
                    "version": env!("CARGO_PKG_VERSION"),
                    "tools": tool_count,
                }))
            }),
        );
    if options.metrics == MetricsRoute::Public {
        app = app.route("/metrics", metrics_route());
    }
    if options.authenticates() {
        let resource = auth_gate.resource.clone();
        let metadata = axum::routing::get(move |headers: HeaderMap| {
            let document = resource.metadata(host_of(&headers));
            async move { axum::Json(document) }
        });
        app = app
            .route(METADATA_PATH, metadata.clone())
            .route(&format!("{METADATA_PATH}/mcp"), metadata);
    }
    (app, move || sessions.cancel())
}

/// `GET /metrics`: the process's metrics in the Prometheus text format.
fn metrics_route() -> axum::routing::MethodRouter {
    let handle = crate::telemetry::prometheus();
    axum::routing::get(move || {
        let text = handle.render();
        async move {
            (
                [(
                    header::CONTENT_TYPE,
                    "text/plain; version=0.0.4; charset=utf-8",
                )],
                text,
            )
        }
    })
}

fn host_of(headers: &HeaderMap) -> &str {
    headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("localhost")
}

/// Finds the request's caller from its credential (401 with the resource-metadata
/// challenge when there is none or it is refused), refuses a tool call beyond the
/// caller's scopes (403, the step-up challenge), and hands the caller to the MCP
/// handler in the request's extensions, with the tools its `X-MCP-*` headers choose when
/// they choose any (400 when they name no valid toolset or tool). Credentials are never
/// logged. One middleware does both: every layer costs each request its own boxed call.
async fn authenticate(
    State(auth_gate): State<Arc<AuthGate>>,
    mut request: Request,
    next: Next,
) -> Response {
    let authorization = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    let caller = match auth_gate.auth.caller(authorization).await {
        Ok(caller) => caller,
        Err(failure) => {
            let host = host_of(request.headers());
            let invalid = match &failure {
                AuthFailure::Missing => None,
                AuthFailure::Invalid(why) => Some(why.as_str()),
            };
            tracing::info!(reason = %failure, "refused an unauthenticated request");
            return challenge(
                StatusCode::UNAUTHORIZED,
                &auth_gate.resource.unauthorized(host, invalid),
                &failure.to_string(),
            );
        }
    };
    if caller.scopes() != Scopes::ALL && request.method() == Method::POST {
        let (parts, body) = request.into_parts();
        let Ok(bytes) = axum::body::to_bytes(body, auth_gate.body_limit).await else {
            return (StatusCode::PAYLOAD_TOO_LARGE, "request body too large").into_response();
        };
        if let Some(scope) = missing_scope(&caller, &bytes) {
            let host = host_of(&parts.headers);
            return challenge(
                StatusCode::FORBIDDEN,
                &auth_gate.resource.insufficient_scope(host, scope),
                &format!("this call needs the scope {}", scope.as_str()),
            );
        }
        request = Request::from_parts(parts, axum::body::Body::from(bytes));
    }
    let choice = match crate::toolsets::ToolChoice::from_headers(request.headers()) {
        Ok(choice) => choice,
        Err(message) => return refused_choice(message),
    };
    if choice != crate::toolsets::ToolChoice::default() {
        request.extensions_mut().insert(choice);
    }
    request.extensions_mut().insert(caller);
    next.run(request).await
}

/// The scope `caller` lacks for a `tools/call` in the JSON-RPC `body` (one message or
/// a batch), if any. Unknown tools and unreadable bodies pass: the MCP layer answers
/// them.
fn missing_scope(caller: &Caller, body: &[u8]) -> Option<Scope> {
    let message: Value = serde_json::from_slice(body).ok()?;
    let messages = match message {
        Value::Array(batch) => batch,
        single => vec![single],
    };
    messages.iter().find_map(|m| {
        if m.get("method")?.as_str()? != "tools/call" {
            return None;
        }
        let name = m.pointer("/params/name")?.as_str()?;
        caller.missing_scope(&Catalog::get().find(name)?.spec)
    })
}

fn challenge(status: StatusCode, www_authenticate: &str, message: &str) -> Response {
    let mut response = (status, axum::Json(json!({ "error": message }))).into_response();
    if let Ok(value) = HeaderValue::from_str(www_authenticate) {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, value);
    }
    response
}

/// HTTP 400 with a JSON-RPC error: the request's `X-MCP-*` headers name no valid choice.
fn refused_choice(message: String) -> Response {
    (
        StatusCode::BAD_REQUEST,
        axum::Json(json!({
            "jsonrpc": "2.0",
            "id": null,
            "error": {"code": -32602, "message": message},
        })),
    )
        .into_response()
}

/// Session termination (`DELETE /mcp`) answers 204 No Content (rmcp answers 202, which
/// clients log as a failed termination).
async fn deleted_is_no_content(request: Request, next: Next) -> Response {
    let is_delete = request.method() == Method::DELETE;
    let mut response = next.run(request).await;
    if is_delete && response.status() == StatusCode::ACCEPTED {
        *response.status_mut() = StatusCode::NO_CONTENT;
        *response.body_mut() = axum::body::Body::empty();
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_tokens() {
        let options = HttpOptions {
            tokens: vec!["sk-never-print".into()],
            ..HttpOptions::default()
        };
        assert!(!format!("{options:?}").contains("sk-never-print"));
    }

    #[test]
    fn a_tools_call_beyond_the_callers_scopes_is_found_in_batches_too() {
        let reader = Caller::new("r", Scopes::parse("toolpack:read")).unwrap();
        let call = |tool: &str| json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool}});
        let text = |v: Value| v.to_string().into_bytes();
        assert_eq!(missing_scope(&reader, &text(call("stationToilets"))), None);
        assert_eq!(
            missing_scope(&reader, &text(call("save_user_variable"))),
            Some(Scope::Write)
        );
        assert_eq!(
            missing_scope(
                &reader,
                &text(json!([call("stationToilets"), call("create_system")]))
            ),
            Some(Scope::Write)
        );
        assert_eq!(missing_scope(&reader, &text(call("no_such_tool"))), None);
        assert_eq!(missing_scope(&reader, b"not json"), None);
        let nobody = Caller::new("n", Scopes::NONE).unwrap();
        assert_eq!(
            missing_scope(&nobody, &text(call("stationToilets"))),
            Some(Scope::Read)
        );
    }
}
