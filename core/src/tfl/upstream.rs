//! The TfL Unified API as the live TfL tools call it: one GET under TfL's timeout, the key
//! (when set) only in the `app_key` header, never in the URL, and TfL's failures told apart
//! ([`Failure`]). An invalid key is answered with HTTP 429 "Invalid app_key is provided.":
//! it is not throttling, and neither is retried (429 is never retried; see
//! [`crate::http::RequestPolicy::retry_rate_limited`]).

use std::sync::Arc;
use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::HeaderName;
use serde::de::DeserializeOwned;

use crate::Toolpack;
use crate::config::Config;
use crate::http::{AnswerKind, HttpError, RequestPolicy, UpstreamRequest, UpstreamResponse};
use crate::tool::Toolset;

/// TfL's upstream timeout unless `TOOLPACK_UPSTREAM_TIMEOUT_MS` overrides it.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// What an agent is told when TfL refuses the key.
pub(crate) const REFUSED_KEY_MESSAGE: &str = "TfL refused the API key (HTTP 429 \"Invalid app_key \
is provided.\"): check TFL_API_KEY. This is not throttling; retrying will not help.";

/// A TfL call that did not give a usable answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Failure {
    /// TfL refused the key (429 "Invalid app_key is provided.").
    RefusedKey,
    /// TfL did not answer within the timeout.
    Timeout,
    /// The TfL key's budget is spent (nothing was sent): seconds until it has room.
    OverBudget(u64),
    /// 404: TfL knows no entity with an id in the path; what TfL said.
    NotFound(Option<String>),
    /// 400: TfL refused an argument (an unknown mode, say); what TfL said.
    BadArgument(Option<String>),
    /// Any other failure, as the message to show.
    Other(String),
}

impl Failure {
    /// The message of the contract's answer.
    pub(crate) fn message(&self) -> String {
        match self {
            Self::RefusedKey => REFUSED_KEY_MESSAGE.to_owned(),
            Self::Timeout => "Timed out while calling TfL API.".to_owned(),
            Self::OverBudget(secs) => format!(
                "The TfL key's budget of requests is spent (TFL_API_BUDGET_PER_MINUTE); retry after {secs} s."
            ),
            Self::NotFound(said) => format!("TfL API returned status 404.{}", said_text(said)),
            Self::BadArgument(said) => format!("TfL API returned status 400.{}", said_text(said)),
            Self::Other(message) => message.clone(),
        }
    }

    /// The failure of a request that got no response.
    pub(crate) fn of_transport(error: &HttpError) -> Self {
        match error {
            HttpError::Timeout { .. } => Self::Timeout,
            HttpError::OverBudget { retry_after_secs } => Self::OverBudget(*retry_after_secs),
            HttpError::TooLarge { limit } => {
                Self::Other(format!("TfL API response was larger than {limit} bytes."))
            }
            HttpError::Transport { message } | HttpError::InvalidRequest { message } => {
                Self::Other(format!("TfL API request failed: {message}."))
            }
        }
    }

    /// The failure of a response with an error status.
    pub(crate) fn of_status(response: &UpstreamResponse) -> Self {
        if refused_key(response) {
            return Self::RefusedKey;
        }
        let said = upstream_message(&response.body);
        match response.status {
            StatusCode::NOT_FOUND => Self::NotFound(said),
            StatusCode::BAD_REQUEST => Self::BadArgument(said),
            _ => Self::Other(status_message(response, said.as_deref())),
        }
    }
}

/// Whether TfL refused the key: HTTP 429 whose body (plain text or an `ApiError`) says
/// "Invalid app_key". Throttling is a 429 too, with another body.
pub(crate) fn refused_key(response: &UpstreamResponse) -> bool {
    response.status == StatusCode::TOO_MANY_REQUESTS
        && String::from_utf8_lossy(&response.body)
            .to_ascii_lowercase()
            .contains("invalid app_key")
}

/// GETs `path` (already percent-encoded, ids joined with a literal comma) with `query` from
/// the TfL API, through the shared layer as an answer of `kind`, and decodes its JSON body
/// as `T` (a copy of the one decoded value the answer keeps; see [`get_shared`]).
pub(crate) async fn get<T>(
    toolpack: &Toolpack,
    kind: AnswerKind,
    path: &str,
    query: &[(&str, &str)],
) -> Result<T, Failure>
where
    T: DeserializeOwned + Clone + Send + Sync + 'static,
{
    get_shared(toolpack, kind, path, query)
        .await
        .map(Arc::unwrap_or_clone)
}

/// As [`get`], but the decoded `T` itself: it is decoded once per upstream answer, and every
/// caller the shared cache serves that answer to gets the same value. A body that does not
/// decode is forgotten by the cache.
pub(crate) async fn get_shared<T>(
    toolpack: &Toolpack,
    kind: AnswerKind,
    path: &str,
    query: &[(&str, &str)],
) -> Result<Arc<T>, Failure>
where
    T: DeserializeOwned + Send + Sync + 'static,
{
    let request = request(toolpack.config(), path, query).answer_kind(kind);
    let response = toolpack
        .http()
        .send(&request, &policy(toolpack.config()))
        .await
        .map_err(|error| Failure::of_transport(&error))?;
    if !response.status.is_success() {
        return Err(Failure::of_status(&response));
    }
    response
        .derived(decode)
        .inspect_err(|_| toolpack.http().forget(&request))
}

/// TfL's request policy: its timeout, for the TfL family (metrics, spans, the key's budget).
pub(crate) fn policy(config: &Config) -> RequestPolicy {
    RequestPolicy::with_timeout(config.upstream_timeout(DEFAULT_TIMEOUT)).for_family(Toolset::Tfl)
}

/// The request for `path`: the key, when set, only in the `app_key` header; a 429 that
/// refuses the key is told from throttling.
pub(crate) fn request(config: &Config, path: &str, query: &[(&str, &str)]) -> UpstreamRequest {
    let mut request = UpstreamRequest::get(format!("{}{path}", config.tfl_api_base_url()))
        .refused_key_when(refused_key);
    for (name, value) in query {
        request = request.query(*name, *value);
    }
    if let Some(key) = config.tfl_api_key() {
        request = request.secret_header(HeaderName::from_static("app_key"), key.clone());
    }
    request
}

/// A successful response's body as `T`, or why it is not one.
fn decode<T: DeserializeOwned>(response: &UpstreamResponse) -> Result<T, Failure> {
    let status = response.status.as_u16();
    if response.body.iter().all(u8::is_ascii_whitespace) {
        return Err(Failure::Other(format!(
            "TfL API returned an empty body (HTTP {status})."
        )));
    }
    // Read as `T` in one pass; only a body that fails is read again, to tell a body that
    // is not JSON from JSON of another shape.
    serde_json::from_slice(&response.body).map_err(|error| {
        if serde_json::from_slice::<serde::de::IgnoredAny>(&response.body).is_err() {
            Failure::Other(format!(
                "TfL API returned a body that is not valid JSON (HTTP {status})."
            ))
        } else {
            Failure::Other(format!(
                "TfL API returned an unexpected response (HTTP {status}): {}.",
                clip(&error.to_string(), 200)
            ))
        }
    })
}

/// What TfL said in an error body: an `ApiError`'s `message`, or a short plain text.
pub(crate) fn upstream_message(body: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(body);
    let said = match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(value) => value.get("message")?.as_str()?.to_owned(),
        Err(_) => text.into_owned(),
    };
    let said = said.trim();
    (!said.is_empty() && !said.starts_with('<')).then(|| clip(said, 200))
}

/// `UPSTREAM_ERROR`'s message for an error status, with TfL's own message when it sent one
/// and the `Retry-After` wait when TfL asked for one (a throttled 429 says so).
pub(crate) fn status_message(response: &UpstreamResponse, said: Option<&str>) -> String {
    let status = response.status.as_u16();
    let said = said_text(&said.map(str::to_owned));
    let wait = crate::http::retry_after(&response.headers).map(|w| format!("{} s", w.as_secs()));
    if response.status == StatusCode::TOO_MANY_REQUESTS {
        format!(
            "TfL API returned status 429: TfL is throttling requests{}.{said}",
            wait.map_or_else(String::new, |w| format!("; retry after {w}"))
        )
    } else {
        let wait = wait.map_or_else(String::new, |w| format!(" Retry after {w}."));
        format!("TfL API returned status {status}.{said}{wait}")
    }
}

fn said_text(said: &Option<String>) -> String {
    said.as_deref()
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(|m| format!(" TfL said: \"{}\"", clip(m, 200)))
        .unwrap_or_default()
}

/// `text`, cut to `max_chars` characters with an ellipsis.
pub(crate) fn clip(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use reqwest::header::{HeaderMap, HeaderValue, RETRY_AFTER};

    use super::*;

    fn response(status: u16, body: &str) -> UpstreamResponse {
        UpstreamResponse::new(
            StatusCode::from_u16(status).unwrap(),
            HeaderMap::new(),
            body.as_bytes().to_vec(),
            1,
        )
    }

    #[test]
    fn an_invalid_key_is_not_throttling_in_either_body() {
        for body in [
            "Invalid app_key is provided.",
            r#"{"exceptionType":"ApiKeyException","message":"Invalid app_key is provided."}"#,
        ] {
            assert_eq!(
                Failure::of_status(&response(429, body)),
                Failure::RefusedKey
            );
        }
        let mut throttled = response(
            429,
            r#"{"statusCode":429,"message":"Rate limit is exceeded. Try again in 26 seconds."}"#,
        );
        throttled
            .headers
            .insert(RETRY_AFTER, HeaderValue::from_static("26"));
        assert_eq!(
            Failure::of_status(&throttled).message(),
            "TfL API returned status 429: TfL is throttling requests; retry after 26 s. TfL said: \
\"Rate limit is exceeded. Try again in 26 seconds.\""
        );
        // The same words on another status are not a refused key.
        assert!(!refused_key(&response(403, "Invalid app_key is provided.")));
    }

    #[test]
    fn not_found_and_bad_argument_keep_what_tfl_said() {
        let body = r#"{"$type":"Tfl.Api.Presentation.Entities.ApiError","httpStatusCode":404,"message":"The following line ids are not recognised: notaline"}"#;
        assert_eq!(
            Failure::of_status(&response(404, body)),
            Failure::NotFound(Some(
                "The following line ids are not recognised: notaline".into()
            ))
        );
        assert_eq!(
            Failure::of_status(&response(400, "")),
            Failure::BadArgument(None)
        );
        assert_eq!(
            Failure::of_status(&response(502, "<html>Bad gateway</html>")).message(),
            "TfL API returned status 502."
        );
    }

    #[test]
    fn the_key_is_a_header_never_in_the_url() {
        let config = Config::builder().tfl_api_key("sekrit").build();
        let shown = format!(
            "{:?}",
            request(&config, "/Line/central/Status", &[("detail", "false")])
        );
        assert!(
            !shown.contains("sekrit") && shown.contains("app_key"),
            "{shown}"
        );
        let without = format!("{:?}", request(&Config::default(), "/x", &[]));
        assert!(!without.contains("app_key"), "{without}");
    }
}
