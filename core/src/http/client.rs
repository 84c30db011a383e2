//! [`HttpClient`]: sends an [`UpstreamRequest`] under a [`RequestPolicy`].

use std::time::{Duration, Instant};

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use reqwest::{Method, StatusCode};
use serde_json::Value;
use tokio::time::Instant as TokioInstant;
use tracing::Instrument;

use super::error::HttpError;
use super::policy::RequestPolicy;
use super::retry::{backoff, is_retryable_status, retry_after};
use crate::secret::Secret;

/// Deadline for establishing one TCP/TLS connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// The process-wide upstream client (one connection pool for every tool).
#[derive(Debug, Clone)]
pub struct HttpClient {
    client: reqwest::Client,
}

/// One upstream request, described before it is sent (so it can be retried).
/// Its `Debug` output redacts the secret wherever it appears.
#[derive(Clone)]
pub struct UpstreamRequest {
    method: Method,
    url: String,
    query: Vec<(String, String)>,
    headers: Vec<(HeaderName, String)>,
    secret_header: Option<(HeaderName, Secret)>,
    json_body: Option<Value>,
    idempotent: bool,
}

impl std::fmt::Debug for UpstreamRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shown = format!(
            "UpstreamRequest {{ method: {}, url: {:?}, query: {:?}, headers: {:?}, secret_header: {:?}, json_body: {:?}, idempotent: {} }}",
            self.method,
            self.url,
            self.query,
            self.headers,
            self.secret_header,
            self.json_body,
            self.idempotent
        );
        f.write_str(&self.redact(&shown))
    }
}

impl UpstreamRequest {
    /// A GET of `url` (idempotent, so retried on 5xx and connection failures).
    pub fn get(url: impl Into<String>) -> Self {
        Self::new(Method::GET, url, true)
    }

    /// A POST of JSON `body` to `url` (not retried unless marked idempotent).
    pub fn post_json(url: impl Into<String>, body: Value) -> Self {
        Self {
            json_body: Some(body),
            ..Self::new(Method::POST, url, false)
        }
    }

    fn new(method: Method, url: impl Into<String>, idempotent: bool) -> Self {
        Self {
            method,
            url: url.into(),
            query: Vec::new(),
            headers: Vec::new(),
            secret_header: None,
            json_body: None,
            idempotent,
        }
    }

    /// Adds a query parameter (percent-encoded when sent).
    pub fn query(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.query.push((name.into(), value.into()));
        self
    }

    /// Adds a plain header, e.g. a correlation id.
    pub fn header(mut self, name: HeaderName, value: impl Into<String>) -> Self {
        self.headers.push((name, value.into()));
        self
    }

    /// Sends `secret` (an API key) in header `name`; it is marked sensitive and
    /// redacted from every error message.
    pub fn secret_header(mut self, name: HeaderName, secret: Secret) -> Self {
        self.secret_header = Some((name, secret));
        self
    }

    /// Marks the request as safe (or not) to retry.
    pub fn idempotent(mut self, idempotent: bool) -> Self {
        self.idempotent = idempotent;
        self
    }

    fn redact(&self, text: &str) -> String {
        match &self.secret_header {
            Some((_, secret)) => secret.redact_in(text),
            None => text.to_owned(),
        }
    }

    /// The host (and port) the request goes to, for spans.
    fn host(&self) -> &str {
        let rest = self
            .url
            .split_once("://")
            .map_or(&*self.url, |(_, rest)| rest);
        rest.split(['/', '?', '#']).next().unwrap_or_default()
    }

    /// Scheme, host and path, for logs: no query string, no key.
    fn log_target(&self) -> String {
        self.url.split('?').next().unwrap_or_default().to_owned()
    }
}

/// A complete upstream response of any status.
#[derive(Debug, Clone)]
pub struct UpstreamResponse {
    /// HTTP status.
    pub status: StatusCode,
    /// Response headers.
    pub headers: HeaderMap,
    /// The whole body (at most the policy's cap).
    pub body: Vec<u8>,
    /// How many attempts were made (1 = no retry).
    pub attempts: u32,
}

impl UpstreamResponse {
    /// Parses the body as JSON.
    pub fn json(&self) -> Result<Value, serde_json::Error> {
        serde_json::from_slice(&self.body)
    }
}

impl HttpClient {
    /// A client with a connect timeout, no redirects (a redirect could carry a key
    /// elsewhere) and a `toolpack` user agent.
    pub fn new() -> Result<Self, HttpError> {
        super::install_crypto_provider();
        let client = reqwest::Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("toolpack/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| HttpError::InvalidRequest {
                message: e.to_string(),
            })?;
        Ok(Self { client })
    }

    /// Sends `request`, retrying idempotent requests on 5xx and transport failures
    /// with backoff and jitter (or the server's `Retry-After`), all within the
    /// policy's total timeout. The whole exchange is one client span (`GET tfl`);
    /// each attempt is counted by family and status.
    pub async fn send(
        &self,
        request: &UpstreamRequest,
        policy: &RequestPolicy,
    ) -> Result<UpstreamResponse, HttpError> {
        let family = policy.family_name();
        let span = tracing::info_span!(
            "upstream",
            otel.name = format_args!("{} {family}", request.method),
            otel.kind = "client",
            http.request.method = %request.method,
            server.address = request.host(),
            toolpack.family = family,
            http.response.status_code = tracing::field::Empty,
            http.request.resend_count = tracing::field::Empty,
            error.type = tracing::field::Empty,
            otel.status_code = tracing::field::Empty,
        );
        let outcome = self
            .send_attempts(request, policy)
            .instrument(span.clone())
            .await;
        match &outcome {
            Ok(response) => {
                // As i64: OpenTelemetry has no unsigned integers.
                span.record(
                    "http.response.status_code",
                    i64::from(response.status.as_u16()),
                );
                if response.attempts > 1 {
                    span.record(
                        "http.request.resend_count",
                        i64::from(response.attempts - 1),
                    );
                }
            }
            Err(error) => {
                span.record("error.type", error.kind());
                span.record("otel.status_code", "ERROR");
            }
        }
        outcome
    }

    async fn send_attempts(
        &self,
        request: &UpstreamRequest,
        policy: &RequestPolicy,
    ) -> Result<UpstreamResponse, HttpError> {
        let started = Instant::now();
        let deadline = TokioInstant::now() + policy.total_timeout;
        let max_attempts = if request.idempotent {
            policy.max_attempts.max(1)
        } else {
            1
        };
        let mut attempt = 0;
        loop {
            attempt += 1;
            let outcome = tokio::time::timeout_at(deadline, self.attempt(request, policy))
                .await
                .unwrap_or_else(|_| Err(timeout_since(started)));
            let status = match &outcome {
                Ok(response) => response.status.as_u16().to_string(),
                Err(error) => error.kind().to_owned(),
            };
            crate::telemetry::upstream_attempt(policy.family_name(), status, attempt > 1);
            let wait = match &outcome {
                Ok(response)
                    if is_retryable_status(response.status)
                        || (policy.retry_rate_limited
                            && response.status == StatusCode::TOO_MANY_REQUESTS) =>
                {
                    match retry_after(&response.headers) {
                        Some(asked) if asked > policy.max_retry_after => None,
                        Some(asked) => Some(asked),
                        None => Some(backoff(policy.base_backoff, attempt - 1)),
                    }
                }
                Err(HttpError::Transport { .. }) => Some(backoff(policy.base_backoff, attempt - 1)),
                _ => None,
            };
            tracing::debug!(
                target: "toolpack::http",
                method = %request.method,
                url = %request.log_target(),
                attempt,
                status = outcome.as_ref().map(|r| r.status.as_u16()).ok(),
                "upstream attempt"
            );
            match wait {
                Some(wait) if attempt < max_attempts && TokioInstant::now() + wait < deadline => {
                    let why = match &outcome {
                        Ok(response) => format!("answered HTTP {}", response.status.as_u16()),
                        Err(_) => "could not be reached".to_owned(),
                    };
                    crate::report::log(
                        crate::report::Level::Warning,
                        "toolpack::http",
                        format!(
                            "{} {why}; retrying in {} ms (attempt {} of {max_attempts})",
                            request.log_target(),
                            wait.as_millis(),
                            attempt + 1
                        ),
                    );
                    tokio::time::sleep(wait).await;
                }
                _ => {
                    return outcome.map(|mut response| {
                        response.attempts = attempt;
                        response
                    });
                }
            }
        }
    }

    async fn attempt(
        &self,
        request: &UpstreamRequest,
        policy: &RequestPolicy,
    ) -> Result<UpstreamResponse, HttpError> {
        let mut builder = self
            .client
            .request(request.method.clone(), &request.url)
            .query(&request.query);
        for (name, value) in &request.headers {
            builder = builder.header(name, value);
        }
        if let Some((name, secret)) = &request.secret_header {
            let mut value =
                HeaderValue::from_str(secret.expose()).map_err(|_| HttpError::InvalidRequest {
                    message: format!("the value for header {name} is not a valid header value"),
                })?;
            value.set_sensitive(true);
            builder = builder.header(name, value);
        }
        if let Some(body) = &request.json_body {
            builder = builder.json(body);
        }
        let mut response = builder.send().await.map_err(|e| classify(request, e))?;
        if response
            .content_length()
            .is_some_and(|len| len > policy.max_body_bytes as u64)
        {
            return Err(HttpError::TooLarge {
                limit: policy.max_body_bytes,
            });
        }
        let status = response.status();
        let headers = response.headers().clone();
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| classify(request, e))? {
            if body.len() + chunk.len() > policy.max_body_bytes {
                return Err(HttpError::TooLarge {
                    limit: policy.max_body_bytes,
                });
            }
            body.extend_from_slice(&chunk);
        }
        Ok(UpstreamResponse {
            status,
            headers,
            body,
            attempts: 1,
        })
    }
}

fn timeout_since(started: Instant) -> HttpError {
    HttpError::Timeout {
        elapsed_ms: started.elapsed().as_millis(),
    }
}

/// Maps a reqwest error to [`HttpError`], with the URL stripped and secrets redacted.
fn classify(request: &UpstreamRequest, error: reqwest::Error) -> HttpError {
    if error.is_timeout() {
        return HttpError::Timeout { elapsed_ms: 0 };
    }
    let error = error.without_url();
    let mut message = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        message.push_str(": ");
        message.push_str(&cause.to_string());
        source = cause.source();
    }
    HttpError::Transport {
        message: request.redact(&message),
    }
}
