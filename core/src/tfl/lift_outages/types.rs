//! `liftOutages` request and response types.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::tfl::{StationDisambiguationSuggestion, TflCode};

/// `LiftOutagesRequest`: every station, or one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LiftOutagesRequest {
    /// A station name or id; absent: every station.
    ///
    /// A station, as `stationToilets` takes it: a name as a person writes it ("Wembley
    /// Park", "King's Cross") or a station id (`940GZZLUWYP`, `910GSHENFLD`, `HUBKGX`).
    /// Absent: every station with a lift out of service.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub station: Option<String>,
}

/// `LiftOutagesResponse`: every field is always present (`null` when unused).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct LiftOutagesResponse {
    /// Whether the outages were retrieved.
    pub success: bool,
    /// Machine-readable result or error code.
    pub code: TflCode,
    /// Human-readable summary.
    pub message: String,
    /// The stations with a lift out of service, by station name (success only; empty when
    /// every lift works).
    pub outages: Option<Vec<LiftOutage>>,
    /// On `DISAMBIGUATION_REQUIRED`: the stations the name matches; call again with one's
    /// `stationUniqueId`.
    pub station_disambiguation: Option<Vec<StationDisambiguationSuggestion>>,
    /// When the upstream answer was fetched, and whether it is stale (success only).
    #[serde(flatten)]
    pub served: Option<crate::http::ServedFields>,
}

impl LiftOutagesResponse {
    /// An error response with `code` and `message`; every other field null.
    pub fn error(code: TflCode, message: impl Into<String>) -> Self {
        Self {
            served: None,
            success: false,
            code,
            message: message.into(),
            outages: None,
            station_disambiguation: None,
        }
    }
}

/// The lifts out of service at one station.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct LiftOutage {
    /// TfL's station id: a hub (`HUB…`), tube (`940G…`) or rail (`910G…`) station id.
    pub station_id: String,
    /// The station's name from TfL's station data (the id when the data does not list it).
    pub station_name: String,
    /// The ids of the lifts out of service.
    pub lifts: Vec<String>,
    /// TfL's message, e.g. "No Step free access - Lift between street and platform is
    /// out of service".
    pub message: String,
}
