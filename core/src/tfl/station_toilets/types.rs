//! `stationToilets` request and response types, exactly as the contract's JSON.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `StationToiletLookupRequest`: which station to look up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StationToiletLookupRequest {
    /// A station name ("Kings Cross") or stationUniqueId.
    ///
    /// User-facing station name, e.g. `Abbey Wood`, `King's Cross` or `Kings Cross St Pancras`.
    /// Case, apostrophes and a trailing "station" do not matter. A station unique id
    /// (e.g. `940GZZLUERC`, as listed in `stationDisambiguation`) selects that station.
    pub station_name: String,
}

impl StationToiletLookupRequest {
    /// A request for `station_name`.
    pub fn new(station_name: impl Into<String>) -> Self {
        Self {
            station_name: station_name.into(),
        }
    }
}

/// Result or error code of `stationToilets`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum StationToiletsCode {
    /// The station was resolved; `toilets` is filled (possibly empty).
    Ok,
    /// Invalid request input.
    ValidationError,
    /// No matching station found.
    StationNotFound,
    /// Several stations matched; retry with one of `stationDisambiguation`.
    DisambiguationRequired,
    /// The local rate limit for `stationToilets` was exceeded.
    RateLimitExceeded,
    /// The station data could not be loaded or read.
    DataNotAvailable,
    /// Unexpected internal failure.
    InternalError,
}

impl StationToiletsCode {
    /// The code as it appears in JSON, e.g. `STATION_NOT_FOUND`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Ok => "OK",
            Self::ValidationError => "VALIDATION_ERROR",
            Self::StationNotFound => "STATION_NOT_FOUND",
            Self::DisambiguationRequired => "DISAMBIGUATION_REQUIRED",
            Self::RateLimitExceeded => "RATE_LIMIT_EXCEEDED",
            Self::DataNotAvailable => "DATA_NOT_AVAILABLE",
            Self::InternalError => "INTERNAL_ERROR",
        }
    }
}

/// `StationToiletToolResponse`: every field is always present (`null` when unused).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct StationToiletToolResponse {
    /// Whether the lookup succeeded.
    pub success: bool,
    /// Machine-readable result or error code.
    pub code: StationToiletsCode,
    /// Human-readable summary.
    pub message: String,
    /// Resolved station name.
    pub station_name: Option<String>,
    /// Resolved station unique id from TfL station data (e.g. `HUBKGX`).
    pub station_unique_id: Option<String>,
    /// Toilets at the station (success only; may be empty).
    pub toilets: Option<Vec<StationToiletDetail>>,
    /// Candidate stations when the name was ambiguous.
    pub station_disambiguation: Option<Vec<StationDisambiguationSuggestion>>,
}

/// `StationToiletDetail`: one toilet row of the TfL data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct StationToiletDetail {
    /// Location text from the source data (`null` when empty).
    pub location: Option<String>,
    /// Platform numbers mentioned in `location` (e.g. "platforms 3 & 4" → `[3, 4]`).
    pub platform_numbers: Vec<u32>,
    /// Wheelchair accessible.
    pub accessible: bool,
    /// Has baby-changing facilities.
    pub baby_changing: bool,
    /// Inside the ticket gates (a valid ticket is needed).
    pub inside_gate_line: bool,
    /// A fee is charged.
    pub fee_charged: bool,
    /// `Male`, `Female`, `Unisex` (or `Unknown` when the data has none).
    pub r#type: String,
}

/// `StationDisambiguationSuggestion`: one candidate station.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct StationDisambiguationSuggestion {
    /// The candidate's unique id; pass it back as `stationName` to choose it.
    pub station_unique_id: String,
    /// The candidate's station name.
    pub station_name: String,
    /// Its name and what tells it apart, as a person reads it: its lines ("Edgware Road —
    /// Bakerloo"), else the kind of station ("Bethnal Green — tube"); its id where those
    /// would read the same.
    pub title: String,
}

impl StationToiletToolResponse {
    /// An error response with `code` and `message`; every other field null.
    pub fn error(code: StationToiletsCode, message: impl Into<String>) -> Self {
        Self {
            success: false,
            code,
            message: message.into(),
            station_name: None,
            station_unique_id: None,
            toilets: None,
            station_disambiguation: None,
        }
    }
}
