//! `bikePoints` request and response types.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::tfl::TflCode;

/// `BikePointsRequest`: bike points near a point, by name, or by id; give exactly one of
/// `lat`+`lon`, `query` and `ids`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BikePointsRequest {
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
    /// Search radius around the point, in metres: default 500, at most 2,000.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<u32>,
    /// Words of the dock's name, e.g. "Clerkenwell".
    ///
    /// Words of a bike point's name, e.g. "Clerkenwell" or "St. Chad's": every word must
    /// appear in the name, in any case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// Ids (BikePoints_1), at most 50.
    ///
    /// Bike point ids, e.g. `BikePoints_1`; at most 50.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ids: Option<Vec<String>>,
    /// At least this many bikes.
    ///
    /// Keep only bike points with at least this many bikes (standard and e-bikes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_bikes: Option<u32>,
    /// At least this many e-bikes.
    ///
    /// Keep only bike points with at least this many e-bikes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_e_bikes: Option<u32>,
    /// At least this many free docks.
    ///
    /// Keep only bike points with at least this many empty docks (to return a bike).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_docks: Option<u32>,
    /// Default 10, at most 50.
    ///
    /// Most bike points in the answer: default 10, at most 50.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
}

/// `BikePointsResponse`: a field with nothing to say is left out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct BikePointsResponse {
    /// Whether the bike points were retrieved.
    pub success: bool,
    /// Machine-readable result or error code.
    pub code: TflCode,
    /// Human-readable summary.
    pub message: String,
    /// The bike points: nearest first for a point, by name for a query, in the order asked
    /// for ids (success only; may be empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bike_points: Option<Vec<BikePoint>>,
    /// When the upstream answer was fetched, and whether it is stale (success only).
    #[serde(flatten)]
    pub served: Option<crate::http::ServedFields>,
}

impl BikePointsResponse {
    /// An error response with `code` and `message`; every other field null.
    pub fn error(code: TflCode, message: impl Into<String>) -> Self {
        Self {
            served: None,
            success: false,
            code,
            message: message.into(),
            bike_points: None,
        }
    }
}

/// One Santander Cycles docking station.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct BikePoint {
    /// TfL's id, e.g. `BikePoints_1`.
    pub id: String,
    /// Its name, e.g. "River Street , Clerkenwell".
    pub name: String,
    /// Latitude, degrees (6 decimals).
    pub lat: f64,
    /// Longitude, degrees (6 decimals).
    pub lon: f64,
    /// Metres from the point searched around (absent for a query or ids).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<u32>,
    /// Bikes docked: standard and e-bikes.
    pub bikes: u32,
    /// Standard bikes docked.
    pub standard_bikes: u32,
    /// E-bikes docked.
    pub e_bikes: u32,
    /// Empty docks, where a bike can be returned.
    pub empty_docks: u32,
    /// Docks in all.
    pub docks: u32,
    /// Docks neither holding a bike nor free: docks − bikes − empty docks (at least 0).
    pub broken_docks: u32,
    /// False when the station is locked, not installed or temporary: its counts may be
    /// stale, and it may not release or take bikes.
    pub available: bool,
    /// When TfL last read the counts, London time with its UTC offset (absent when TfL
    /// gives none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated: Option<String>,
    /// `true` when that reading is over an hour old: the counts may no longer hold,
    /// however fresh the answer (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outdated: Option<bool>,
}
