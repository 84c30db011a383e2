//! The Digitransit contracts' answer shapes: a tool's success body, or the error envelope
//! `{"error":{"code","message","hint"?,"retryAfter"?,"correlationId"}}`, plus warnings.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::answer::{Answer, Envelope};
use crate::http::new_correlation_id;

/// The Digitransit contracts' error codes (kebab-case on the wire).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "kebab-case")]
pub enum DigitransitErrorCode {
    /// The arguments break a rule of the contract (or Pelias refused a parameter).
    ValidationError,
    /// `geocode_address`, `plan_trip`: the geocoder found nothing for the text (or for the
    /// place's name).
    GeocodeNoResults,
    /// `plan_trip`, `vehicle_positions`: origin or destination is outside the router's
    /// area; or the live vehicles asked for are outside HSL's feed.
    UnsupportedRegion,
    /// `plan_trip`: no itinerary, even after one relaxed second search.
    NoItineraryFound,
    /// `get_departures`, `get_stop_info`, `vehicle_positions`: no stop or station (or
    /// HSL route) has this id.
    NotFound,
    /// Digitransit answered with an error, refused the key, or sent an unusable body.
    UpstreamError,
    /// Digitransit did not answer in time (default 8 s).
    UpstreamTimeout,
    /// Throttled, by Digitransit (429, or 403 quota) or by the local rate limit; see `retryAfter`.
    RateLimited,
    /// Digitransit could not be reached (DNS, connect, reset).
    NetworkError,
    /// The saved-places database could not be opened, read or written.
    StorageError,
    /// A bug inside toolpack; nobody's input is at fault.
    InternalError,
    /// `plan_trip`: a place's name fits several places; `candidates` lists them.
    DisambiguationRequired,
}

impl DigitransitErrorCode {
    /// The code as it appears in JSON, e.g. `upstream-timeout`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ValidationError => "validation-error",
            Self::GeocodeNoResults => "geocode-no-results",
            Self::UnsupportedRegion => "unsupported-region",
            Self::NoItineraryFound => "no-itinerary-found",
            Self::NotFound => "not-found",
            Self::UpstreamError => "upstream-error",
            Self::UpstreamTimeout => "upstream-timeout",
            Self::RateLimited => "rate-limited",
            Self::NetworkError => "network-error",
            Self::StorageError => "storage-error",
            Self::InternalError => "internal-error",
            Self::DisambiguationRequired => "disambiguation-required",
        }
    }
}

/// The body of a Digitransit error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct DigitransitErrorBody {
    /// The contract's error code.
    pub code: DigitransitErrorCode,
    /// What went wrong, for a person (provider messages cut to 200 characters).
    pub message: String,
    /// What to try instead, when there is something to try.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// Seconds to wait before retrying (`rate-limited` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<u64>,
    /// On `disambiguation-required`: the places the name may mean, best first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidates: Option<Vec<PlaceCandidate>>,
    /// The call's correlation id (a UUID), the same as a success would carry.
    pub correlation_id: String,
}

/// A place a name may mean: call again with its `label` (or its coordinates).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct PlaceCandidate {
    /// The place as the geocoder labels it, e.g. "Kamppi, Helsinki".
    pub label: String,
    /// Its latitude (give `lat` and `lon` as `{type: 'coords'}` to choose it).
    pub lat: f64,
    /// Its longitude.
    pub lon: f64,
    /// The stop's id, when it is a stop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_id: Option<String>,
}

/// `{"error": {...}}`: how every Digitransit tool answers a failure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct DigitransitErrorEnvelope {
    /// The error.
    pub error: DigitransitErrorBody,
}

/// A failure inside a Digitransit tool, before it gets the call's correlation id.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Failure {
    pub code: DigitransitErrorCode,
    pub message: String,
    pub hint: Option<String>,
    pub retry_after: Option<u64>,
    pub candidates: Option<Vec<PlaceCandidate>>,
}

/// The longest provider message quoted in an error, in code points.
pub(crate) const MAX_PROVIDER_MESSAGE: usize = 200;

impl Failure {
    /// A failure with `code` and `message`.
    pub fn new(code: DigitransitErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            hint: None,
            retry_after: None,
            candidates: None,
        }
    }

    /// A `validation-error`.
    pub fn validation(message: impl Into<String>) -> Self {
        Self::new(DigitransitErrorCode::ValidationError, message)
    }

    /// The same failure with a hint.
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// The same failure with the places a name may mean.
    pub fn candidates(mut self, candidates: Vec<PlaceCandidate>) -> Self {
        self.candidates = Some(candidates);
        self
    }

    /// The same failure with a `retryAfter`.
    pub fn retry_after(mut self, seconds: u64) -> Self {
        self.retry_after = Some(seconds);
        self
    }

    /// The error envelope of this failure for the call `correlation_id`.
    pub fn into_envelope(self, correlation_id: String) -> DigitransitErrorEnvelope {
        DigitransitErrorEnvelope {
            error: DigitransitErrorBody {
                code: self.code,
                message: self.message,
                hint: self.hint,
                retry_after: self.retry_after,
                candidates: self.candidates,
                correlation_id,
            },
        }
    }
}

/// Cuts a provider's message to [`MAX_PROVIDER_MESSAGE`] code points.
pub(crate) fn provider_message(text: &str) -> String {
    text.trim().chars().take(MAX_PROVIDER_MESSAGE).collect()
}

/// Why a success carries a warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "kebab-case")]
pub enum WarningCode {
    /// More results existed than were returned (`size`, `limit` or `maxResults` cap).
    TruncatedResults,
    /// An accessibility flag could not be acted on by the upstream.
    UnsupportedAccessibilityFlag,
    /// A constraint could not be fully honoured, but results are returned.
    PreferenceUnmet,
    /// `find_stops`: stops were found, but none passed the text or mode filter.
    NoMatchesAfterFilter,
    /// `reverse_geocode`: nothing is known at this point; `find_rental_vehicles`: nothing
    /// to rent in range (normal for city bikes in winter).
    NoResults,
}

/// A note on a successful answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct Warning {
    /// What kind of note.
    pub code: WarningCode,
    /// The note, for a person.
    pub message: String,
}

impl Warning {
    /// A warning with `code` and `message`.
    pub fn new(code: WarningCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }
}

/// Warnings as the contracts show them: absent when there are none.
pub(crate) fn warnings(list: Vec<Warning>) -> Option<Vec<Warning>> {
    (!list.is_empty()).then_some(list)
}

/// A Digitransit tool's answer: its success body `T`, or the error envelope. On the
/// wire it is one or the other, untagged.
pub type DigitransitResponse<T> = Answer<T, DigitransitErrorEnvelope>;

impl<T> Answer<T, DigitransitErrorEnvelope> {
    /// The answer of a call: `result` with the call's `correlation_id` on an error.
    pub(crate) fn of(result: Result<T, Failure>, correlation_id: String) -> Self {
        match result {
            Ok(body) => Self::Ok(body),
            Err(failure) => Self::Err(failure.into_envelope(correlation_id)),
        }
    }

    /// Runs a tool's `work` with a fresh correlation id, and answers its result with that id
    /// on the success body (which `work` puts there) or on the error envelope.
    pub(crate) async fn answer<F, Fut>(work: F) -> Self
    where
        F: FnOnce(String) -> Fut,
        Fut: std::future::Future<Output = Result<T, Failure>>,
    {
        let correlation_id = new_correlation_id();
        Self::of(work(correlation_id.clone()).await, correlation_id)
    }
}

impl Envelope for DigitransitErrorEnvelope {
    fn code(&self) -> &str {
        self.error.code.as_str()
    }

    fn invalid_arguments(message: String) -> Self {
        Failure::validation(message).into_envelope(new_correlation_id())
    }

    fn rate_limited(tool: &str) -> Self {
        Failure::new(
            DigitransitErrorCode::RateLimited,
            format!("Local rate limit exceeded for {tool}."),
        )
        .retry_after(1)
        .into_envelope(new_correlation_id())
    }

    fn internal_error(tool: &str) -> Self {
        Failure::new(
            DigitransitErrorCode::InternalError,
            format!("Unexpected error in {tool}."),
        )
        .into_envelope(new_correlation_id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::ToolOutput;

    // Any body will do: a warning stands in for a success body here.
    crate::tool::offline_bodies!(Warning);
    type Response = DigitransitResponse<Warning>;

    #[test]
    fn the_catalog_errors_are_envelopes_with_a_correlation_id() {
        for (response, code) in [
            (Response::internal_error("t"), "internal-error"),
            (Response::rate_limited("t"), "rate-limited"),
            (
                Response::invalid_arguments("t", "bad".into()),
                "validation-error",
            ),
        ] {
            assert_eq!(response.error_code(), Some(code));
            let json = serde_json::to_value(&response).unwrap();
            assert_eq!(json["error"]["code"], code);
            assert_eq!(json["error"]["correlationId"].as_str().unwrap().len(), 36);
            assert!(response.into_success().is_err());
        }
        assert_eq!(
            Response::rate_limited("t")
                .into_result()
                .unwrap_err()
                .error
                .retry_after,
            Some(1)
        );
    }

    #[test]
    fn a_success_is_the_bare_body() {
        let ok = Response::Ok(Warning::new(WarningCode::NoResults, "none"));
        assert_eq!(ok.error_code(), None);
        assert_eq!(
            serde_json::to_value(&ok).unwrap(),
            serde_json::json!({"code": "no-results", "message": "none"})
        );
        assert!(ok.into_success().is_ok());
        assert_eq!(
            provider_message(&"x".repeat(300)).len(),
            MAX_PROVIDER_MESSAGE
        );
    }
}
