//! Streamable HTTP serving: `/mcp` behind optional bearer-token auth, `GET /healthz`,
//! the DNS-rebinding allow-lists, a body-size limit, stateless mode, and session
//! termination answered with 204.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::json;

use crate::ToolpackServer;

/// The environment variable holding the bearer tokens: `tok1,tok2`, or `@/path/to/file`
/// with one token per line (blank lines and `#` comments ignored).
pub const TOKENS_ENV: &str = "TOOLPACK_HTTP_TOKENS";
/// Default largest request body, in bytes.
pub const DEFAULT_MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// How `/mcp` is served.
#[derive(Clone, Default)]
pub struct HttpOptions {
    /// Accepted bearer tokens; empty means no authentication.
    pub tokens: Vec<String>,
    /// Host names (or `host:port`) accepted besides the loopback names.
    pub allowed_hosts: Vec<String>,
    /// Browser origins accepted (`https://app.example.com`); empty: Origin not checked.
    pub allowed_origins: Vec<String>,
    /// No sessions: every POST is answered on its own (JSON), so replicas need no
    /// sticky sessions.
    pub stateless: bool,
    /// Largest request body, in bytes (`0`: the default).
    pub max_body_bytes: usize,
}

impl std::fmt::Debug for HttpOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpOptions")
            .field("tokens", &format!("[{} redacted]", self.tokens.len()))
            .field("allowed_hosts", &self.allowed_hosts)
            .field("allowed_origins", &self.allowed_origins)
            .field("stateless", &self.stateless)
            .field("max_body_bytes", &self.max_body_bytes)
            .finish()
    }
}

/// Reads the tokens of [`TOKENS_ENV`]'s value: a comma-separated list, or `@file`.
pub fn parse_tokens(value: &str) -> std::io::Result<Vec<String>> {
    let value = value.trim();
    let text = match value.strip_prefix('@') {
        Some(path) => std::fs::read_to_string(path.trim())?,
        None => value.replace(',', "\n"),
    };
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|t| !t.is_empty() && !t.starts_with('#'))
        .map(str::to_owned)
        .collect())
}

/// The HTTP app: `/mcp` (MCP streamable HTTP) and `/healthz`, and a function that ends
/// every open MCP session (for shutdown).
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
    if options.max_body_bytes > 0 {
        config.max_request_body_bytes = options.max_body_bytes;
    }
    let sessions = config.cancellation_token.clone();
    let tool_count = server.tools().len();
    let service = StreamableHttpService::new(
        move || Ok(server.for_session()),
        LocalSessionManager::default().into(),
        config,
    );
    let tokens: Arc<Vec<Vec<u8>>> = Arc::new(
        options
            .tokens
            .iter()
            .map(|t| t.as_bytes().to_vec())
            .collect(),
    );
    let mcp = Router::new()
        .nest_service("/mcp", service)
        .layer(middleware::from_fn(deleted_is_no_content))
        .layer(middleware::from_fn_with_state(tokens, bearer_auth));
    let app = mcp.route(
        "/healthz",
        axum::routing::get(move || async move {
            axum::Json(json!({
                "status": "ok",
                "version": env!("CARGO_PKG_VERSION"),
                "tools": tool_count,
            }))
        }),
    );
    (app, move || sessions.cancel())
}

/// Refuses a request without an accepted `Authorization: Bearer <token>` (when tokens are
/// configured) with 401 and `WWW-Authenticate: Bearer`. Tokens are compared in constant
/// time and never logged.
async fn bearer_auth(
    State(tokens): State<Arc<Vec<Vec<u8>>>>,
    request: Request,
    next: Next,
) -> Response {
    if tokens.is_empty() {
        return next.run(request).await;
    }
    let given = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|t| t.trim().as_bytes());
    let accepted = given.is_some_and(|given| {
        tokens
            .iter()
            .fold(false, |found, token| found | constant_time_eq(token, given))
    });
    if accepted {
        return next.run(request).await;
    }
    let mut response = (
        StatusCode::UNAUTHORIZED,
        axum::Json(json!({"error": "a valid bearer token is required"})),
    )
        .into_response();
    response.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static("Bearer realm=\"toolpack-mcp\""),
    );
    response
}

/// Equality whose time depends only on the lengths.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
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
    fn tokens_come_from_a_list_or_a_file() {
        assert_eq!(parse_tokens(" a, b ,,c ").unwrap(), ["a", "b", "c"]);
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), "# team tokens\nt1\n\n t2 \n").unwrap();
        let value = format!("@{}", file.path().display());
        assert_eq!(parse_tokens(&value).unwrap(), ["t1", "t2"]);
        assert!(parse_tokens("@/no/such/file").is_err());
    }

    #[test]
    fn comparison_is_exact() {
        assert!(constant_time_eq(b"secret", b"secret"));
        assert!(!constant_time_eq(b"secret", b"secreT"));
        assert!(!constant_time_eq(b"secret", b"secret2"));
    }

    #[test]
    fn debug_never_shows_tokens() {
        let options = HttpOptions {
            tokens: vec!["sk-never-print".into()],
            ..HttpOptions::default()
        };
        assert!(!format!("{options:?}").contains("sk-never-print"));
    }
}
