//! [`TflCode`]: the result and error codes of the live TfL tools (every TfL tool but
//! `planJourney` and `stationToilets`, whose seed contracts have codes of their own).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Result or error code of a live TfL tool. A code whose description starts with tool
/// names belongs to those tools only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum TflCode {
    /// The answer is filled (its lists possibly empty).
    Ok,
    /// Invalid request input; the message names the field.
    ValidationError,
    /// `lineStatus`, `lineRoute`, `timetable`: TfL knows no line with a given id; `suggestions` holds
    /// the nearest line ids (the six Overground lines for the retired `london-overground`).
    LineNotFound,
    /// `lineStatus`: TfL knows no such mode; `suggestions` holds the nearest modes.
    ModeNotFound,
    /// `arrivals`, `stopSearch`, `timetable`, `crowding`: no stop matches the given name or id.
    StopNotFound,
    /// `timetable`: the line does not call at the stop; `suggestions` holds the line's
    /// stops nearest to its name.
    StopNotOnLine,
    /// `liftOutages`: no station matches the given name or id.
    StationNotFound,
    /// `bikePoints`: no bike point has a given id, or a name that matches the query.
    BikePointNotFound,
    /// `crowding`: TfL publishes no crowding figures for the station (it has them for
    /// London Underground stations).
    CrowdingNotFound,
    /// `arrivals`, `liftOutages`, `timetable`, `crowding`: several stops or stations match the name; retry with one
    /// of the candidates (`stopDisambiguation`, `stationDisambiguation`).
    DisambiguationRequired,
    /// The local rate limit for the tool was exceeded, or the TfL key's budget of requests
    /// is spent (`TFL_API_BUDGET_PER_MINUTE`).
    RateLimitExceeded,
    /// TfL refused the API key (HTTP 429 "Invalid app_key is provided."): check
    /// `TFL_API_KEY`. This is not throttling, and is never retried.
    InvalidApiKey,
    /// TfL did not answer in time.
    UpstreamTimeout,
    /// TfL answered with an error status (throttling included, with its wait) or an
    /// unusable body, or could not be reached.
    UpstreamError,
    /// Unexpected internal failure.
    InternalError,
}

impl TflCode {
    /// The code as it appears in JSON, e.g. `LINE_NOT_FOUND`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Ok => "OK",
            Self::ValidationError => "VALIDATION_ERROR",
            Self::LineNotFound => "LINE_NOT_FOUND",
            Self::ModeNotFound => "MODE_NOT_FOUND",
            Self::StopNotFound => "STOP_NOT_FOUND",
            Self::StopNotOnLine => "STOP_NOT_ON_LINE",
            Self::StationNotFound => "STATION_NOT_FOUND",
            Self::BikePointNotFound => "BIKE_POINT_NOT_FOUND",
            Self::CrowdingNotFound => "CROWDING_NOT_FOUND",
            Self::DisambiguationRequired => "DISAMBIGUATION_REQUIRED",
            Self::RateLimitExceeded => "RATE_LIMIT_EXCEEDED",
            Self::InvalidApiKey => "INVALID_API_KEY",
            Self::UpstreamTimeout => "UPSTREAM_TIMEOUT",
            Self::UpstreamError => "UPSTREAM_ERROR",
            Self::InternalError => "INTERNAL_ERROR",
        }
    }
}

impl From<&super::upstream::Failure> for TflCode {
    /// The code of a failed TfL call that the tool has no code of its own for.
    fn from(failure: &super::upstream::Failure) -> Self {
        use super::upstream::Failure;
        match failure {
            Failure::RefusedKey => Self::InvalidApiKey,
            Failure::Timeout => Self::UpstreamTimeout,
            Failure::OverBudget(_) => Self::RateLimitExceeded,
            Failure::NotFound(_) | Failure::BadArgument(_) | Failure::Other(_) => {
                Self::UpstreamError
            }
        }
    }
}
