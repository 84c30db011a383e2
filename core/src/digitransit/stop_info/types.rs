//! `get_stop_info` request and response types.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::digitransit::alerts::Alert;
use crate::digitransit::departures::StopRef;
use crate::digitransit::place::Language;

/// `get_stop_info` arguments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GetStopInfoRequest {
    /// As get_departures.
    ///
    /// The stop or station, as `get_departures` takes it.
    #[serde(deserialize_with = "crate::digitransit::departures::plain_or_tagged")]
    #[schemars(with = "crate::digitransit::departures::StopInput")]
    pub stop: StopRef,
    /// The language.
    ///
    /// Language of names and alert texts: `fi`, `sv` or `en` (default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<Language>,
}

/// The stop itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct StopDetails {
    /// The stop or station id, e.g. `HSL:1040129`.
    pub gtfs_id: String,
    /// Its name.
    pub name: String,
    /// The code on its sign, e.g. `H0101`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Platform or track, when the stop is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
    /// Mode: BUS, TRAM, RAIL, METRO, FERRY, …, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// `POSSIBLE`, `NOT_POSSIBLE` or `NO_INFORMATION`.
    pub wheelchair_boarding: String,
    /// Latitude.
    pub lat: f64,
    /// Longitude.
    pub lon: f64,
}

/// A route serving the stop.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct StopRoute {
    /// The route's GTFS id, e.g. `HSL:2550`.
    pub gtfs_id: String,
    /// The line as riders know it, e.g. `550`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub short_name: Option<String>,
    /// Its long name, e.g. `Itäkeskus-Westendinasema`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub long_name: Option<String>,
    /// Mode: BUS, TRAM, RAIL, METRO, FERRY, …
    pub mode: String,
}

/// A pattern (one direction of a route's variant) calling at the stop.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct StopPattern {
    /// Where it goes, as the sign says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headsign: Option<String>,
    /// GTFS direction, 0 or 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction_id: Option<i64>,
    /// Its route.
    pub route: StopRoute,
}

/// `get_stop_info` success body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct GetStopInfoResult {
    /// The answer in words: the stop, its code, the lines serving it, step-free boarding
    /// and its most severe alert.
    pub message: String,
    /// The stop.
    ///
    /// The stop or station.
    pub stop: StopDetails,
    /// Routes serving it, by short name.
    pub routes: Vec<StopRoute>,
    /// Patterns calling at it, by route then direction.
    pub patterns: Vec<StopPattern>,
    /// Alerts touching the stop, its routes or the stop on its routes, in `get_alerts`' order.
    pub alerts: Vec<Alert>,
    /// The call's correlation id (UUID).
    pub correlation_id: String,
    /// When the upstream answer was fetched, and whether it is stale.
    #[serde(flatten)]
    pub served: Option<crate::http::ServedFields>,
}
