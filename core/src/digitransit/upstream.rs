//! Digitransit over HTTP: Pelias geocoding (GET) and OTP GraphQL (POST), with the key
//! only in the `digitransit-subscription-key` header, and every way they fail sorted into
//! [`UpstreamFailure`], which each tool family maps to its contract's codes.

use std::any::Any;
use std::sync::Arc;
use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::HeaderName;
use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::place::Language;
use super::response::{DigitransitErrorCode as Code, Failure, provider_message};
use crate::Toolpack;
use crate::config::env;
use crate::http::{
    AnswerKind, HttpError, RequestPolicy, Served, UpstreamRequest, UpstreamResponse, retry_after,
};
use crate::secret::Secret;
use crate::tool::{Annotations, ToolSpec, Toolset};

/// The Digitransit timeout unless `TOOLPACK_UPSTREAM_TIMEOUT_MS` overrides it.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(8);
/// The header that carries the key.
pub const KEY_HEADER: &str = "digitransit-subscription-key";
/// The `retryAfter` given for a throttled call whose answer named no wait.
pub const DEFAULT_RETRY_AFTER_SECS: u64 = 60;
/// The longest `Retry-After` waited out inside a call; a longer one is returned.
pub const MAX_RETRY_AFTER_WAITED: Duration = Duration::from_secs(3);

/// How a Digitransit request failed, before a tool family names it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum UpstreamFailure {
    /// `DIGITRANSIT_API_KEY` is not set: nothing was sent.
    MissingKey,
    /// No answer within the timeout (or Pelias 408).
    Timeout { ms: u128 },
    /// Connect, DNS or reset.
    Transport(String),
    /// 429, or 403 about the quota.
    Throttled { retry_after: u64, message: String },
    /// 401 or 403: the key was refused.
    KeyRefused { status: u16, message: String },
    /// 400: a parameter was refused.
    BadRequest(String),
    /// Any other non-2xx status.
    Status { status: u16, message: String },
    /// A body that is not the JSON expected.
    Malformed(String),
    /// OTP answered 200 with `errors[]`; `aborted` when it gave up on time.
    GraphQl { aborted: bool, message: String },
}

impl UpstreamFailure {
    /// The contract failure for the geocoding tools (`geocode_address`, `reverse_geocode`):
    /// a throttle or a transport failure is an `upstream-error`.
    pub fn for_geocoding(self) -> Failure {
        match self {
            Self::Throttled {
                retry_after,
                message,
            } => Failure::new(
                Code::UpstreamError,
                format!(
                    "Digitransit is throttling requests ({message}); retry after {retry_after} s."
                ),
            ),
            Self::Transport(message) => Failure::new(
                Code::UpstreamError,
                format!("The connection to Digitransit failed: {message}."),
            ),
            Self::BadRequest(message) => Failure::validation(format!(
                "Digitransit geocoding refused the request: {message}"
            )),
            other => other.common(),
        }
    }

    /// The contract failure for the routing tools (`plan_trip`, `get_departures`,
    /// `find_stops`): a throttle is `rate-limited` with `retryAfter`, a transport failure
    /// is a `network-error`.
    pub fn for_routing(self) -> Failure {
        match self {
            Self::Throttled {
                retry_after,
                message,
            } => Failure::new(
                Code::RateLimited,
                format!("Digitransit is throttling requests ({message})."),
            )
            .retry_after(retry_after),
            Self::Transport(message) => Failure::new(
                Code::NetworkError,
                format!("The connection to Digitransit failed: {message}."),
            ),
            Self::BadRequest(message) => Failure::new(
                Code::UpstreamError,
                format!("Digitransit routing refused the query (HTTP 400): {message}"),
            ),
            other => other.common(),
        }
    }

    fn common(self) -> Failure {
        match self {
            Self::MissingKey => Failure::new(
                Code::UpstreamError,
                format!(
                    "{} is not set; Digitransit needs a subscription key.",
                    env::DIGITRANSIT_API_KEY
                ),
            )
            .hint(format!(
                "Register at https://portal-api.digitransit.fi and set {}.",
                env::DIGITRANSIT_API_KEY
            )),
            Self::Timeout { ms } => Failure::new(
                Code::UpstreamTimeout,
                format!("Digitransit did not answer within {ms} ms."),
            ),
            Self::KeyRefused { status, message } => Failure::new(
                Code::UpstreamError,
                format!("Digitransit refused the API key (HTTP {status}): {message}"),
            )
            .hint(format!("Check {}.", env::DIGITRANSIT_API_KEY)),
            Self::Status { status, message } => Failure::new(
                Code::UpstreamError,
                format!("Digitransit answered HTTP {status}: {message}"),
            ),
            Self::Malformed(message) => Failure::new(
                Code::UpstreamError,
                format!("Digitransit sent an unusable answer: {message}."),
            ),
            Self::GraphQl {
                aborted: true,
                message,
            } => Failure::new(
                Code::UpstreamTimeout,
                format!("Digitransit routing gave up on time: {message}"),
            ),
            Self::GraphQl { message, .. } => Failure::new(
                Code::UpstreamError,
                format!("Digitransit routing answered with an error: {message}"),
            ),
            // Named by each family above; kept total for safety.
            Self::Throttled { .. } | Self::Transport(_) | Self::BadRequest(_) => {
                Failure::new(Code::UpstreamError, "Digitransit request failed.")
            }
        }
    }
}

/// What every Digitransit tool that calls the upstream declares besides its name and
/// texts (`ToolSpec { name, title, description, summary, ..LIVE_TOOL }`): the key it
/// needs, its toolset, and that it only reads, from a remote service.
pub(crate) const LIVE_TOOL: ToolSpec = ToolSpec {
    name: "",
    title: "",
    description: "",
    summary: "",
    needs: "`DIGITRANSIT_API_KEY`",
    toolset: Toolset::Digitransit,
    annotations: Annotations::READ_ONLY_REMOTE,
};

/// Why a Digitransit tool that needs the key cannot run (the catalog's prerequisite).
pub(crate) fn missing_key(config: &crate::Config) -> Option<String> {
    config
        .digitransit_api_key()
        .is_none()
        .then(|| format!("{} is not set", env::DIGITRANSIT_API_KEY))
}

/// The request policy: 8 s in all, 5 attempts with backoff from 200 ms, 429 and 5xx
/// retried, a `Retry-After` above 3 s returned instead of waited out.
fn policy(toolpack: &Toolpack) -> RequestPolicy {
    RequestPolicy {
        max_attempts: 5,
        base_backoff: Duration::from_millis(200),
        max_retry_after: MAX_RETRY_AFTER_WAITED,
        retry_rate_limited: true,
        ..RequestPolicy::with_timeout(toolpack.config().upstream_timeout(DEFAULT_TIMEOUT))
            .for_family(crate::Toolset::Digitransit)
    }
}

fn key(toolpack: &Toolpack) -> Result<Secret, UpstreamFailure> {
    toolpack
        .config()
        .digitransit_api_key()
        .cloned()
        .ok_or(UpstreamFailure::MissingKey)
}

/// Sends `request` through the shared layer as an answer of `kind`, and reads its JSON;
/// an answer `usable` refuses (or one that is not JSON) is forgotten by the cache.
async fn send(
    toolpack: &Toolpack,
    request: UpstreamRequest,
    kind: AnswerKind,
    key: &Secret,
    usable: impl FnOnce(Value) -> Result<Value, UpstreamFailure>,
) -> Result<Value, UpstreamFailure> {
    let (response, request) = fetch(toolpack, request, kind, key).await?;
    classify(&response, key)
        .and_then(usable)
        .inspect_err(|_| toolpack.http().forget(&request))
}

/// Sends `request` with the key through the shared layer as an answer of `kind`: the
/// response of any status, and the request as sent (what the cache knows it by).
async fn fetch(
    toolpack: &Toolpack,
    request: UpstreamRequest,
    kind: AnswerKind,
    key: &Secret,
) -> Result<(Served, UpstreamRequest), UpstreamFailure> {
    let request = request
        .secret_header(HeaderName::from_static(KEY_HEADER), key.clone())
        .answer_kind(kind);
    let response = toolpack
        .http()
        .send(&request, &policy(toolpack))
        .await
        .map_err(|e| transport_failure(&e))?;
    Ok((response, request))
}

/// GET `{base}/geocoding/v1/{endpoint}?{params}`: the Pelias JSON envelope.
pub(crate) async fn pelias(
    toolpack: &Toolpack,
    endpoint: &str,
    params: Vec<(&'static str, String)>,
) -> Result<Value, UpstreamFailure> {
    let key = key(toolpack)?;
    let url = format!(
        "{}/geocoding/v1/{endpoint}",
        toolpack.config().digitransit_base_url()
    );
    let request = params
        .into_iter()
        .fold(UpstreamRequest::get(url), |r, (name, value)| {
            r.query(name, value)
        });
    send(toolpack, request, AnswerKind::Places, &key, Ok).await
}

/// POSTs a GraphQL `query` (operation `operation`) to the configured router, through the
/// shared layer as an answer of `kind`: its `data`.
pub(crate) async fn graphql(
    toolpack: &Toolpack,
    kind: AnswerKind,
    query: &str,
    operation: &str,
    variables: Value,
    language: Language,
) -> Result<Value, UpstreamFailure> {
    let key = key(toolpack)?;
    let request = graphql_request(toolpack, query, operation, variables, language);
    send(toolpack, request, kind, &key, |answer| {
        graphql_data(answer, &key)
    })
    .await
}

/// As [`graphql`], but its `data` read straight into `D` and made into `S` by `shape`, once
/// per upstream answer: every caller the shared cache serves that answer to gets the same
/// `S`. `S` names the derivation, so `shape` must be the one way a tool makes an `S`
/// (a type of the tool's own). An answer that does not read is forgotten by the cache.
pub(crate) async fn graphql_shaped<D, S>(
    toolpack: &Toolpack,
    kind: AnswerKind,
    query: &str,
    operation: &str,
    variables: impl Serialize,
    language: Language,
    shape: fn(D) -> S,
) -> Result<Arc<S>, UpstreamFailure>
where
    D: DeserializeOwned,
    S: Any + Send + Sync,
{
    let key = key(toolpack)?;
    let request = graphql_request(toolpack, query, operation, variables, language);
    let (response, request) = fetch(toolpack, request, kind, &key).await?;
    let shaped = if response.status.is_success() {
        response.derived(|r| read_data::<D>(r, &key).map(shape))
    } else {
        Err(status_failure(&response, &key))
    };
    shaped.inspect_err(|_| toolpack.http().forget(&request))
}

/// The GraphQL POST: the query, its variables and operation, the language, and OTP's own
/// timeout (the key is added by the caller).
fn graphql_request(
    toolpack: &Toolpack,
    query: &str,
    operation: &str,
    variables: impl Serialize,
    language: Language,
) -> UpstreamRequest {
    let config = toolpack.config();
    let url = format!(
        "{}/routing/v2/{}/gtfs/v1",
        config.digitransit_base_url(),
        config.digitransit_router().as_str()
    );
    let body = GraphqlBody {
        query,
        variables,
        operation_name: operation,
    };
    // Written straight from the typed body; JSON text cannot fail for it (string keys only).
    let body = serde_json::to_string(&body).unwrap_or_default();
    let timeout_ms = config.upstream_timeout(DEFAULT_TIMEOUT).as_millis();
    UpstreamRequest::post_json_text(url, body)
        .idempotent(true)
        .header(reqwest::header::ACCEPT_LANGUAGE, language.as_str())
        .header(
            HeaderName::from_static("otptimeout"),
            timeout_ms.to_string(),
        )
}

/// A GraphQL request's body.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct GraphqlBody<'a, V> {
    query: &'a str,
    variables: V,
    operation_name: &'a str,
}

/// A GraphQL answer as read in one pass: its `data` as the tool's type, and whether it
/// has errors (read again as JSON only then, for the first one's words).
#[derive(Deserialize)]
struct Answer<D> {
    #[serde(default = "Option::default")]
    data: Option<D>,
    #[serde(default)]
    errors: Option<Vec<IgnoredAny>>,
}

/// A 2xx body's `data` as `D`, or why not: its first GraphQL error, not JSON, no data, or
/// data of another shape.
fn read_data<D: DeserializeOwned>(
    response: &UpstreamResponse,
    key: &Secret,
) -> Result<D, UpstreamFailure> {
    let typed = match serde_json::from_slice::<Answer<D>>(&response.body) {
        Ok(Answer {
            data: Some(data),
            errors,
        }) if errors.as_ref().is_none_or(Vec::is_empty) => return Ok(data),
        other => other.err(),
    };
    let answer: Value = serde_json::from_slice(&response.body)
        .map_err(|_| UpstreamFailure::Malformed("a body that is not JSON".into()))?;
    graphql_data(answer, key)?;
    Err(UpstreamFailure::Malformed(match typed {
        Some(e) => format!("data of another shape ({e})"),
        None => "a GraphQL answer without data".into(),
    }))
}

/// The `data` of a GraphQL answer, or its first error.
fn graphql_data(mut answer: Value, key: &Secret) -> Result<Value, UpstreamFailure> {
    if let Some(errors) = answer.get("errors").and_then(Value::as_array)
        && let Some(first) = errors.first()
    {
        let message = first
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("unknown GraphQL error");
        let aborted = first
            .pointer("/extensions/classification")
            .and_then(Value::as_str)
            == Some("ExecutionAborted")
            || message.contains("TimeoutException");
        return Err(UpstreamFailure::GraphQl {
            aborted,
            message: provider_message(&key.redact_in(message)),
        });
    }
    match answer.get_mut("data").map(Value::take) {
        Some(data @ Value::Object(_)) => Ok(data),
        _ => Err(UpstreamFailure::Malformed(
            "a GraphQL answer without data".into(),
        )),
    }
}

fn transport_failure(error: &HttpError) -> UpstreamFailure {
    match error {
        HttpError::Timeout { elapsed_ms } => UpstreamFailure::Timeout { ms: *elapsed_ms },
        HttpError::OverBudget { retry_after_secs } => UpstreamFailure::Throttled {
            retry_after: *retry_after_secs,
            message: "the Digitransit key's budget of requests is spent (DIGITRANSIT_API_BUDGET_PER_MINUTE)"
                .into(),
        },
        HttpError::TooLarge { limit } => {
            UpstreamFailure::Malformed(format!("a body larger than {limit} bytes"))
        }
        HttpError::Transport { message } | HttpError::InvalidRequest { message } => {
            UpstreamFailure::Transport(message.clone())
        }
    }
}

/// Sorts a response by status, then parses a 2xx body as JSON.
fn classify(response: &UpstreamResponse, key: &Secret) -> Result<Value, UpstreamFailure> {
    if response.status.is_success() {
        return response
            .json()
            .map_err(|_| UpstreamFailure::Malformed("a body that is not JSON".into()));
    }
    Err(status_failure(response, key))
}

/// How a response of a non-2xx status failed.
fn status_failure(response: &UpstreamResponse, key: &Secret) -> UpstreamFailure {
    let status = response.status;
    let message = provider_message(&key.redact_in(&body_message(response)));
    let waited =
        || retry_after(&response.headers).map_or(DEFAULT_RETRY_AFTER_SECS, |d| d.as_secs().max(1));
    match status {
        StatusCode::TOO_MANY_REQUESTS => UpstreamFailure::Throttled {
            retry_after: waited(),
            message: format!("HTTP 429: {message}"),
        },
        StatusCode::FORBIDDEN if message.to_lowercase().contains("quota") => {
            UpstreamFailure::Throttled {
                retry_after: waited(),
                message: format!("HTTP 403: {message}"),
            }
        }
        StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => UpstreamFailure::KeyRefused {
            status: status.as_u16(),
            message,
        },
        StatusCode::BAD_REQUEST => UpstreamFailure::BadRequest(message),
        StatusCode::REQUEST_TIMEOUT => UpstreamFailure::Timeout { ms: 0 },
        _ => UpstreamFailure::Status {
            status: status.as_u16(),
            message,
        },
    }
}

/// The provider's own words in an error body: Pelias `geocoding.errors[0]`, a gateway's
/// `message`, or the text itself.
fn body_message(response: &UpstreamResponse) -> String {
    if let Ok(body) = response.json() {
        if let Some(text) = body.as_str() {
            return text.to_owned();
        }
        let found = body
            .pointer("/geocoding/errors/0")
            .or_else(|| body.get("message"))
            .or_else(|| body.pointer("/errors/0/message"))
            .and_then(Value::as_str);
        if let Some(text) = found {
            return text.to_owned();
        }
    }
    let text = String::from_utf8_lossy(&response.body);
    if text.trim().is_empty() {
        "(empty body)".to_owned()
    } else {
        text.into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Stop {
        name: String,
    }

    fn read(body: &str) -> Result<Stop, UpstreamFailure> {
        let response = UpstreamResponse::new(
            StatusCode::OK,
            reqwest::header::HeaderMap::new(),
            body.as_bytes().to_vec(),
            1,
        );
        read_data(&response, &Secret::new("k".to_owned()))
    }

    #[test]
    fn data_is_read_in_one_pass_and_every_way_it_fails_is_named() {
        let stop = Stop {
            name: "Kamppi".into(),
        };
        assert_eq!(read(r#"{"data": {"name": "Kamppi"}}"#), Ok(stop));
        assert!(read(r#"{"data": {"name": "Kamppi"}, "errors": []}"#).is_ok());
        let error = r#"{"data": null, "errors": [{"message": "Validation error: no such field"}]}"#;
        assert!(matches!(
            read(error),
            Err(UpstreamFailure::GraphQl { aborted: false, message }) if message.contains("no such field")
        ));
        // Errors beside data that reads are still errors.
        let partial = r#"{"data": {"name": "K"}, "errors": [{"message": "partial"}]}"#;
        assert!(matches!(
            read(partial),
            Err(UpstreamFailure::GraphQl { .. })
        ));
        let failure = |body| match read(body) {
            Err(UpstreamFailure::Malformed(message)) => message,
            other => panic!("{other:?}"),
        };
        assert_eq!(failure("<html>"), "a body that is not JSON");
        assert_eq!(
            failure(r#"{"data": null}"#),
            "a GraphQL answer without data"
        );
        assert!(failure(r#"{"data": {"name": 7}}"#).starts_with("data of another shape"));
    }

    #[test]
    fn each_family_names_a_throttle_and_a_lost_connection_its_own_way() {
        let throttled = UpstreamFailure::Throttled {
            retry_after: 7,
            message: "HTTP 429: slow down".into(),
        };
        let routing = throttled.clone().for_routing();
        assert_eq!(
            (routing.code, routing.retry_after),
            (Code::RateLimited, Some(7))
        );
        let geocoding = throttled.for_geocoding();
        assert_eq!(geocoding.code, Code::UpstreamError);
        assert!(geocoding.message.contains("retry after 7 s"));
        let lost = UpstreamFailure::Transport("refused".into());
        assert_eq!(lost.clone().for_routing().code, Code::NetworkError);
        assert_eq!(lost.for_geocoding().code, Code::UpstreamError);
        let aborted = UpstreamFailure::GraphQl {
            aborted: true,
            message: "x".into(),
        };
        assert_eq!(aborted.for_routing().code, Code::UpstreamTimeout);
    }
}
