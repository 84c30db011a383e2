//! `arrivals` request and response types.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::tfl::{StopCandidate, TflCode};

/// `ArrivalsRequest`: the stop, and which of its arrivals.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ArrivalsRequest {
    /// A stop or hub id (940GZZLUOXC, HUBKGX) or a name ("Oxford Circus").
    ///
    /// A stop: a NaPTAN id (`940GZZLUOXC`, a bus stop's `490008660N`), a hub id (`HUBKGX`:
    /// every station and stop of the hub), or a name ("Oxford Circus"), resolved as
    /// `stationToilets` resolves names, then by TfL's stop search.
    pub stop: String,
    /// Only these line ids.
    ///
    /// Only these lines (ids such as `victoria`, `25`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<String>>,
    /// `inbound` or `outbound`.
    ///
    /// Only arrivals heading this way: `inbound` or `outbound`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<ArrivalDirection>,
    /// Default 20, at most 50.
    ///
    /// Most arrivals in the answer: default 20, at most 50.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
}

impl ArrivalsRequest {
    /// The next arrivals at `stop`.
    pub fn new(stop: impl Into<String>) -> Self {
        Self {
            stop: stop.into(),
            lines: None,
            direction: None,
            limit: None,
        }
    }
}

/// TfL's direction of a vehicle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "lowercase")]
pub enum ArrivalDirection {
    /// Inbound.
    Inbound,
    /// Outbound.
    Outbound,
}

/// `ArrivalsResponse`: a field with nothing to say is left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct ArrivalsResponse {
    /// Whether the arrivals were retrieved.
    pub success: bool,
    /// Machine-readable result or error code.
    pub code: TflCode,
    /// Human-readable summary.
    pub message: String,
    /// The stop (success only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<ArrivalsStop>,
    /// When TfL made the predictions, London time with its UTC offset: the minutes count
    /// from it (success only, when TfL says).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_at: Option<String>,
    /// The next arrivals by line, platform and destination, the soonest group first
    /// (success only; may be empty). Trains that end their journey at this stop are left
    /// out: nobody boards them here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrivals: Option<Vec<PlatformArrivals>>,
    /// On `DISAMBIGUATION_REQUIRED`: the stops the name may mean; call again with one's
    /// `id` as `stop`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_disambiguation: Option<Vec<StopCandidate>>,
    /// When the upstream answer was fetched, and whether it is stale (success only).
    #[serde(flatten)]
    pub served: Option<crate::http::ServedFields>,
}

impl ArrivalsResponse {
    /// An error response with `code` and `message`; every other field null.
    pub fn error(code: TflCode, message: impl Into<String>) -> Self {
        Self {
            served: None,
            success: false,
            code,
            message: message.into(),
            stop: None,
            predicted_at: None,
            arrivals: None,
            stop_disambiguation: None,
        }
    }
}

/// The stop whose arrivals these are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct ArrivalsStop {
    /// Its id, e.g. `940GZZLUOXC` or `HUBKGX`.
    pub id: String,
    /// Its name, e.g. "Oxford Circus".
    pub name: String,
}

/// The next arrivals of one line at one platform, to one destination.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct PlatformArrivals {
    /// The line's name, e.g. "Victoria", "25".
    pub line: String,
    /// TfL's line id when it is not the name in lower case (`hammersmith-city`); otherwise
    /// the name is the id `lineStatus` and `timetable` take.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_id: Option<String>,
    /// The platform, e.g. "Southbound - Platform 3" (a bus stop's letter for buses).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
    /// Where the vehicles end their journey, as people say it ("Brixton").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destination: Option<String>,
    /// TfL's "towards" text, when it says more than `destination` (e.g. "Check Front of
    /// Train").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub towards: Option<String>,
    /// Whole minutes until each arrives, soonest first (0: due).
    pub minutes: Vec<i64>,
}
