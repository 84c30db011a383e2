//! [`HttpClient`]: sends an [`UpstreamRequest`] under a [`RequestPolicy`], through the
//! shared layer (cache, coalescing, stale answers, the key's budget).

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use reqwest::header::{HeaderName, HeaderValue};
use reqwest::{Method, StatusCode};
use serde_json::Value;
use tokio::time::Instant as TokioInstant;
use tracing::Instrument;

use super::error::HttpError;
use super::policy::RequestPolicy;
use super::response::UpstreamResponse;
use super::retry::{backoff, is_retryable_status, retry_after};
use super::shared::replicas::{Replicas, RequestId};
use super::shared::{
    AnswerKind, Cached, LayerSettings, Lookup, Outcome, Role, Served, SharedLayer,
    cached_to_shared, follow, fresh_for, note_served, shared_to_cached,
};
use crate::secret::Secret;

/// Deadline for establishing one TCP/TLS connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// How much longer than its fetch's deadline a replica's claim on a request lasts.
const CLAIM_MARGIN: Duration = Duration::from_secs(1);

/// How soon a replica waiting on another's fetch first looks for its answer; the wait
/// doubles up to [`LONGEST_POLL`].
const FIRST_POLL: Duration = Duration::from_millis(10);
const LONGEST_POLL: Duration = Duration::from_millis(100);

/// The process-wide upstream client (one connection pool, one cache and one budget per
/// key for every tool and caller).
#[derive(Debug, Clone)]
pub struct HttpClient {
    /// Built on the first request ([`HttpClient::connection_pool`]): building it reads the
    /// platform's CA certificates, which a toolpack that never calls out never needs.
    client: Arc<tokio::sync::OnceCell<reqwest::Client>>,
    layer: Arc<SharedLayer>,
}

/// Tells a response in which the upstream refused the key (never throttling, never
/// retried, never answered with a stale answer instead).
pub type RefusedKey = fn(&UpstreamResponse) -> bool;

/// One upstream request, described before it is sent (so it can be retried).
/// Its `Debug` output redacts the secret wherever it appears.
#[derive(Clone)]
pub struct UpstreamRequest {
    method: Method,
    url: String,
    query: Vec<(String, String)>,
    headers: Vec<(HeaderName, String)>,
    secret_header: Option<(HeaderName, Secret)>,
    /// The JSON body, serialised once (it is sent and is part of the cache key).
    json_body: Option<String>,
    idempotent: bool,
    kind: Option<AnswerKind>,
    refused_key: Option<RefusedKey>,
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
        Self::post_json_text(url, body.to_string())
    }

    /// As [`post_json`](Self::post_json), with a body already written as JSON text (from a
    /// typed value, without building a `Value` tree first).
    pub fn post_json_text(url: impl Into<String>, body: String) -> Self {
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
            kind: None,
            refused_key: None,
        }
    }

    /// Marks the request as a read whose answer may be shared: cached for the freshness
    /// of `kind`, and coalesced with identical requests in flight.
    pub fn answer_kind(mut self, kind: AnswerKind) -> Self {
        self.kind = Some(kind);
        self
    }

    /// How to tell the upstream refused the key (TfL: 429 "Invalid app_key"), so that such
    /// an answer is not taken for throttling.
    pub fn refused_key_when(mut self, refused: RefusedKey) -> Self {
        self.refused_key = Some(refused);
        self
    }

    /// What identifies the request's answer: method, URL, query, plain headers and body.
    /// Never the key.
    fn cache_key(&self) -> String {
        let mut key = format!("{} {}", self.method, self.url);
        for (i, (name, value)) in self.query.iter().enumerate() {
            key.push(if i == 0 { '?' } else { '&' });
            key.push_str(&super::encode_component(name));
            key.push('=');
            key.push_str(&super::encode_component(value));
        }
        for (name, value) in &self.headers {
            key.push('\n');
            key.push_str(name.as_str());
            key.push_str(": ");
            key.push_str(value);
        }
        if let Some(body) = &self.json_body {
            key.push_str("\n\n");
            key.push_str(body);
        }
        key
    }

    fn secret(&self) -> Option<&str> {
        self.secret_header.as_ref().map(|(_, s)| s.expose())
    }

    fn refused(&self, response: &UpstreamResponse) -> bool {
        self.refused_key.is_some_and(|refused| refused(response))
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

/// A reqwest client with a connect timeout, no redirects and a `toolpack` user agent; ring
/// is installed as rustls' provider first. Blocking: it loads the platform's CA certificates.
fn build_reqwest_client() -> Result<reqwest::Client, HttpError> {
    super::install_crypto_provider();
    reqwest::Client::builder()
        .connect_timeout(CONNECT_TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("toolpack/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| HttpError::InvalidRequest {
            message: e.to_string(),
        })
}

impl HttpClient {
    /// A client with a connect timeout, no redirects (a redirect could carry a key
    /// elsewhere), a `toolpack` user agent, and the shared layer's default settings.
    pub fn new() -> Result<Self, HttpError> {
        Self::with_layer(LayerSettings::default())
    }

    /// [`HttpClient::new`] with the shared layer's `settings`.
    pub fn with_layer(settings: LayerSettings) -> Result<Self, HttpError> {
        Ok(Self {
            client: Arc::default(),
            layer: Arc::new(SharedLayer::new(settings)),
        })
    }

    /// The reqwest client, built by the first request that needs it, on tokio's blocking
    /// pool (it reads the platform's CA certificates from disk); every later request, and
    /// every request waiting on that first build, shares it.
    async fn connection_pool(&self) -> Result<&reqwest::Client, HttpError> {
        self.client
            .get_or_try_init(|| async {
                tokio::task::spawn_blocking(build_reqwest_client)
                    .await
                    .map_err(|e| HttpError::InvalidRequest {
                        message: format!("building the HTTP client failed: {e}"),
                    })?
            })
            .await
    }

    /// What this process shares with the other replicas, when a database is set.
    pub(crate) fn replicas(&self) -> Option<&Replicas> {
        self.layer.replicas.as_ref()
    }

    /// Bytes the shared response cache holds now.
    pub fn cache_bytes_used(&self) -> usize {
        self.layer.cache().used()
    }

    /// Forgets the cached answer to `request`: a tool found it unusable (a body of
    /// another shape), so it must not be served again.
    pub fn forget(&self, request: &UpstreamRequest) {
        if request.kind.is_some() {
            self.layer.cache().remove(&request.cache_key());
        }
    }

    /// Answers `request`: from the shared cache when a fresh answer is there, by joining an
    /// identical request in flight, or by sending it (see [`HttpClient::fetch`]); a cached
    /// answer past fresh stands in when the upstream fails. A request without an
    /// [`AnswerKind`] is sent on its own (still inside the key's budget). The answer is
    /// noted for the call's `asOf` and `stale`.
    pub async fn send(
        &self,
        request: &UpstreamRequest,
        policy: &RequestPolicy,
    ) -> Result<Served, HttpError> {
        let outcome = match request.kind {
            Some(kind) => self.send_shared(request, policy, kind).await,
            None => self
                .fetch(request, policy)
                .await
                .map(|response| Served::new(Arc::new(response), SystemTime::now(), false)),
        };
        if let Ok(served) = &outcome {
            note_served(served);
        }
        outcome
    }

    async fn send_shared(
        &self,
        request: &UpstreamRequest,
        policy: &RequestPolicy,
        kind: AnswerKind,
    ) -> Outcome {
        let family = policy.family_name();
        let key = request.cache_key();
        loop {
            let stale = match self.layer.cache().lookup(&key, Instant::now()) {
                Lookup::Fresh(cached) => {
                    crate::telemetry::upstream_cache(family, "hit");
                    return Ok(Served::new(cached.response, cached.as_of, false));
                }
                Lookup::Stale(cached) => Some(cached),
                Lookup::Miss => None,
            };
            match self.layer.in_flight.join(&key) {
                Role::Follower(receiver) => {
                    crate::telemetry::upstream_cache(family, "coalesced");
                    if let Some(outcome) = follow(receiver).await {
                        return outcome;
                    }
                    // The leader's caller went away before an answer: try again.
                }
                Role::Leader(leader) => {
                    let outcome = match &self.layer.replicas {
                        Some(replicas) if replicas.caches() => {
                            self.fetch_for_every_replica(request, policy, kind, &key, stale)
                                .await
                        }
                        _ => {
                            crate::telemetry::upstream_cache(family, "miss");
                            self.fetch_to_share(request, policy, kind, &key, stale, None)
                                .await
                        }
                    };
                    leader.finish(outcome.clone());
                    return outcome;
                }
            }
        }
    }

    /// This replica leads `request`: the shared cache's fresh answer when there is one
    /// (kept here too); else, when no other replica is fetching it, it is fetched here and
    /// shared; else the other replica's answer is waited for, up to the fetch's deadline
    /// (and its claim's end), polling. When the shared state is away, the replica goes on
    /// alone. A stale answer, this replica's or the shared one, whichever is newer, stands
    /// in for a failure.
    async fn fetch_for_every_replica(
        &self,
        request: &UpstreamRequest,
        policy: &RequestPolicy,
        kind: AnswerKind,
        key: &str,
        mut stale: Option<Cached>,
    ) -> Outcome {
        let family = policy.family_name();
        let Some(replicas) = &self.layer.replicas else {
            return self
                .fetch_to_share(request, policy, kind, key, stale, None)
                .await;
        };
        let id = Replicas::request_id(key);
        let claim_for = policy.total_timeout + CLAIM_MARGIN;
        let give_up = Instant::now() + claim_for;
        let mut poll = FIRST_POLL;
        loop {
            let Some(found) = replicas.lookup(&id, claim_for).await else {
                crate::telemetry::upstream_cache(family, "miss");
                return self
                    .fetch_to_share(request, policy, kind, key, stale, None)
                    .await;
            };
            if let Some(entry) = found.entry {
                let shared = shared_to_cached(entry);
                if shared.fresh_until > Instant::now() {
                    crate::telemetry::upstream_cache(family, "shared_hit");
                    let served = Served::new(Arc::clone(&shared.response), shared.as_of, false);
                    self.layer.cache().insert(key, shared);
                    return Ok(served);
                }
                if stale.as_ref().is_none_or(|mine| mine.as_of < shared.as_of) {
                    stale = Some(shared);
                }
            }
            if found.claimed || Instant::now() >= give_up {
                crate::telemetry::upstream_cache(family, "miss");
                let shared = found.claimed.then_some(&id);
                return self
                    .fetch_to_share(request, policy, kind, key, stale, shared)
                    .await;
            }
            if poll == FIRST_POLL {
                crate::telemetry::upstream_cache(family, "shared_wait");
            }
            tokio::time::sleep(poll).await;
            poll = (poll * 2).min(LONGEST_POLL);
        }
    }

    /// Sends `request` and keeps a whole answer for the others (and, with `shared`, for
    /// the other replicas, ending this replica's claim); when the upstream fails, serves
    /// `stale` instead, if there is one.
    async fn fetch_to_share(
        &self,
        request: &UpstreamRequest,
        policy: &RequestPolicy,
        kind: AnswerKind,
        key: &str,
        stale: Option<Cached>,
        shared: Option<&RequestId>,
    ) -> Outcome {
        let outcome = self
            .fetch_and_keep(request, policy, kind, key, stale, shared.is_some())
            .await;
        if let (Some(id), Some(replicas)) = (shared, &self.layer.replicas) {
            match &outcome {
                Ok((served, Some(fresh))) => {
                    replicas
                        .put(
                            id,
                            cached_to_shared(served, *fresh, self.layer.settings.stale_for),
                        )
                        .await;
                }
                _ => replicas.release(id).await,
            }
        }
        outcome.map(|(served, _)| served)
    }

    /// [`HttpClient::fetch_to_share`] but the replicas: the answer, and how long it is
    /// fresh when it is worth keeping (asked only when this process caches, or `sharing`).
    async fn fetch_and_keep(
        &self,
        request: &UpstreamRequest,
        policy: &RequestPolicy,
        kind: AnswerKind,
        key: &str,
        stale: Option<Cached>,
        sharing: bool,
    ) -> Result<(Served, Option<Duration>), HttpError> {
        let outcome = self.fetch(request, policy).await;
        // Whether the answer is whole is read (a parse of the body) only when it matters.
        let whole = std::cell::OnceCell::new();
        let is_whole_answer =
            |response: &UpstreamResponse| *whole.get_or_init(|| is_whole(response));
        let failed = match &outcome {
            Ok(response) => {
                response.status.is_server_error()
                    || (response.status == StatusCode::TOO_MANY_REQUESTS
                        && !request.refused(response))
                    || (stale.is_some()
                        && response.status.is_success()
                        && !is_whole_answer(response))
            }
            Err(error) => !matches!(error, HttpError::InvalidRequest { .. }),
        };
        if failed && let Some(stale) = stale {
            crate::telemetry::upstream_cache(policy.family_name(), "stale");
            return Ok((Served::new(stale.response, stale.as_of, true), None));
        }
        let response = Arc::new(outcome?);
        let as_of = SystemTime::now();
        let mut kept = None;
        if (self.layer.caches() || sharing) && is_whole_answer(&response) {
            let fresh = fresh_for(&response.headers, self.layer.default_freshness(kind), as_of);
            if !fresh.is_zero() {
                kept = Some(fresh);
            }
            if self.layer.caches() && !fresh.is_zero() {
                let cached = Cached {
                    response: Arc::clone(&response),
                    as_of,
                    fresh_until: Instant::now() + fresh,
                };
                let mut cache = self.layer.cache();
                cache.insert(key, cached);
                crate::telemetry::upstream_cache_bytes(cache.used());
            }
        }
        Ok((Served::new(response, as_of, false), kept))
    }

    /// Sends `request` to the upstream, retrying idempotent requests on 5xx and transport
    /// failures with backoff and jitter (or the server's `Retry-After`), all within the
    /// policy's total timeout; every attempt takes a token of the key's budget first. The
    /// whole exchange is one client span (`GET tfl`); each attempt is counted by family
    /// and status.
    pub async fn fetch(
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
        let mut last: Option<Result<UpstreamResponse, HttpError>> = None;
        loop {
            attempt += 1;
            // A retry waits for no budget: when there is none, the last outcome stands.
            let budget_wait = match &last {
                None => self.layer.settings.budget_wait,
                Some(_) => Duration::ZERO,
            };
            if let Err(over) = self
                .layer
                .take_token(policy.family, request.secret(), budget_wait)
                .await
            {
                return with_attempts(last.unwrap_or(Err(over)), attempt - 1);
            }
            let outcome = tokio::time::timeout_at(deadline, self.attempt(request, policy))
                .await
                .unwrap_or_else(|_| Err(timeout_since(started)));
            if let Ok(response) = &outcome
                && matches!(
                    response.status,
                    StatusCode::TOO_MANY_REQUESTS | StatusCode::SERVICE_UNAVAILABLE
                )
                && !request.refused(response)
                && let Some(wait) = retry_after(&response.headers)
            {
                self.layer
                    .pause(policy.family, request.secret(), wait)
                    .await;
            }
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
                    last = Some(outcome);
                }
                _ => {
                    // A retry that timed out leaves the upstream's last answer standing (a
                    // 500 stays a 500), not a timeout of our own making.
                    let outcome = match (outcome, last) {
                        (Err(error), Some(earlier)) if error.is_timeout() => earlier,
                        (outcome, _) => outcome,
                    };
                    return with_attempts(outcome, attempt);
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
            .connection_pool()
            .await?
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
            builder = builder
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(body.clone());
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
        Ok(UpstreamResponse::new(status, headers, body, 1))
    }
}

/// Whether an answer is whole enough to share: 2xx or 300 (TfL's disambiguation), with a
/// JSON body. A 2xx answer that is not whole (empty, cut short, corrupt) is a failure the
/// stale answer stands in for: every upstream of the families answers JSON.
fn is_whole(response: &UpstreamResponse) -> bool {
    (response.status.is_success() || response.status == StatusCode::MULTIPLE_CHOICES)
        && serde_json::from_slice::<serde::de::IgnoredAny>(&response.body).is_ok()
}

/// `outcome` with the number of attempts sent to reach it.
fn with_attempts(
    outcome: Result<UpstreamResponse, HttpError>,
    attempts: u32,
) -> Result<UpstreamResponse, HttpError> {
    outcome.map(|mut response| {
        response.attempts = attempts;
        response
    })
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

#[cfg(test)]
mod tests {
    use super::HttpClient;

    #[tokio::test]
    async fn the_reqwest_client_is_built_on_first_use_and_once() {
        let http = HttpClient::new().unwrap();
        let copy = http.clone();
        assert!(
            http.client.get().is_none(),
            "no CA certificates read before a request needs them"
        );
        let first: *const reqwest::Client = http.connection_pool().await.unwrap();
        let again: *const reqwest::Client = copy.connection_pool().await.unwrap();
        assert_eq!(first, again, "every clone shares the one client");
    }
}
