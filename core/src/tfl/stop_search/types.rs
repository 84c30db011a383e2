//! `stopSearch` request and response types.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::tfl::TflCode;

/// `StopSearchRequest`: stops by name, or near a point; give `query` or `lat`+`lon`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StopSearchRequest {
    /// A name, e.g. "Bank".
    ///
    /// A stop or station name, e.g. "Bank" or "King's Cross".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// Latitude.
    ///
    /// Latitude of the point to search around, in degrees (WGS 84).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lat: Option<f64>,
    /// Longitude.
    ///
    /// Longitude of the point to search around, in degrees (WGS 84).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lon: Option<f64>,
    /// Metres, default 300, at most 2,000.
    ///
    /// Search radius around the point, in metres: default 300, at most 2,000.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<u32>,
    /// e.g. tube, bus, dlr.
    ///
    /// Only stops served by these modes, e.g. `tube`, `bus`, `dlr`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modes: Option<Vec<String>>,
    /// Default 10, at most 50.
    ///
    /// Most stops in the answer: default 10, at most 50.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
}

/// `StopSearchResponse`: every field is always present (`null` when unused).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct StopSearchResponse {
    /// Whether the stops were retrieved.
    pub success: bool,
    /// Machine-readable result or error code.
    pub code: TflCode,
    /// Human-readable summary.
    pub message: String,
    /// The stops: TfL's best matches first for a name, nearest first for a point
    /// (success only; may be empty for a point).
    pub stops: Option<Vec<StopSummary>>,
    /// When the upstream answer was fetched, and whether it is stale (success only).
    #[serde(flatten)]
    pub served: Option<crate::http::ServedFields>,
}

impl StopSearchResponse {
    /// An error response with `code` and `message`; every other field null.
    pub fn error(code: TflCode, message: impl Into<String>) -> Self {
        Self {
            served: None,
            success: false,
            code,
            message: message.into(),
            stops: None,
        }
    }
}

/// One stop found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct StopSummary {
    /// Its NaPTAN or hub id, e.g. `940GZZLUBNK`, `HUBBAN`, `490007960P`: what `arrivals`
    /// takes as `stop`.
    pub id: String,
    /// Its name.
    pub name: String,
    /// A bus stop's indicator, e.g. "Stop P" (which side of the road), when TfL gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indicator: Option<String>,
    /// The hub it belongs to, e.g. `HUBBAN`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hub_id: Option<String>,
    /// Its ICS id (what the Journey Planner takes as `from`/`to`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ics_id: Option<String>,
    /// Its modes.
    pub modes: Vec<String>,
    /// Its line ids, near a point (TfL's search by name does not list them: left out).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<String>,
    /// Its fare zone, e.g. "1" or "2+3", when TfL gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// Latitude, degrees (6 decimals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lat: Option<f64>,
    /// Longitude, degrees (6 decimals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lon: Option<f64>,
    /// Metres from the point searched around (absent for a name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<u32>,
}
