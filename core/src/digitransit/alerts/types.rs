//! `get_alerts` request and response types, and the alert every Digitransit tool shows.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::digitransit::place::Language;
use crate::digitransit::response::Warning;

/// `get_alerts` arguments. With no filter, every alert the router knows is answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GetAlertsRequest {
    /// Ids (HSL:2550) or short names (550); at most 20.
    ///
    /// Keep alerts touching one of these routes: GTFS ids (`HSL:2550`) or the short names
    /// riders know (`550`, case-insensitive). At most 20.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub routes: Option<Vec<String>>,
    /// Stop ids (HSL:1040129); at most 20.
    ///
    /// Keep alerts touching one of these stops (GTFS ids such as `HSL:1040129`). At most 20.
    /// With `routes` too, an alert touching either is kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stops: Option<Vec<String>>,
    /// At least this severe: INFO, WARNING or SEVERE.
    ///
    /// Keep alerts at least this severe: `INFO` (all), `WARNING` or `SEVERE`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub severity: Option<String>,
    /// The language.
    ///
    /// Language of the alerts' texts: `fi`, `sv` or `en` (default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<Language>,
    /// Default 20, at most 100.
    ///
    /// Most alerts returned (default 20; above 100 it is capped with a warning).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_results: Option<i64>,
    /// Also alerts that have ended.
    ///
    /// Also list alerts that have ended (default: left out, with their count said).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_ended: Option<bool>,
}

/// Whether an alert is in effect at the time of the answer.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "snake_case")]
pub enum AlertStatus {
    /// In effect now (started, or with no start given; not ended).
    InEffect,
    /// Announced: it starts later.
    Upcoming,
    /// It has ended.
    Ended,
}

/// A route an alert touches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct AlertRoute {
    /// The route's GTFS id, e.g. `HSL:2550`.
    pub gtfs_id: String,
    /// The line as riders know it, e.g. `550`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub short_name: Option<String>,
    /// Mode: BUS, TRAM, RAIL, METRO, FERRY, …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
}

/// A stop an alert touches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct AlertStop {
    /// The stop's GTFS id, e.g. `HSL:1040129`.
    pub gtfs_id: String,
    /// The stop's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The code on its sign, e.g. `H0101`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

/// A service alert (a disruption, a detour, a closed entrance).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct Alert {
    /// The alert's id.
    pub id: String,
    /// Its headline. When the router has none, the description's first line (cut to 120
    /// characters) stands in, or the effect in words.
    pub header: String,
    /// The full text, when there is one and it says more than the header (a description
    /// that opens with the header goes on after it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// A page with more, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// `SEVERE`, `WARNING`, `INFO` or `UNKNOWN`.
    pub severity: String,
    /// The effect, e.g. `DETOUR`, `NO_SERVICE`, `REDUCED_SERVICE` (GTFS-RT names; an
    /// unknown or other effect is left out, as is one the header was made from).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    /// The cause, e.g. `CONSTRUCTION`, `WEATHER` (GTFS-RT names; an unknown or other cause
    /// is left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<String>,
    /// When it takes effect, ISO 8601 in Helsinki time (`get_alerts` leaves it out of an
    /// alert in effect: what a traveller acts on is when it ends).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// When it ends, ISO 8601 in Helsinki time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<String>,
    /// `in_effect` now, `upcoming` or `ended`.
    pub status: AlertStatus,
    /// The routes it touches (a trip's or a pattern's is its route), each once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<AlertRoute>,
    /// The stops it touches, each once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stops: Vec<AlertStop>,
}

/// An alert in brief, as `plan_trip`'s legs and `get_departures` carry it: a line to show.
/// `get_alerts` (by route or stop) and `get_stop_info` give it in full.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct AlertSummary {
    /// The alert's id (as `get_alerts` answers it).
    pub id: String,
    /// Its headline, made as `get_alerts` makes it when the router has none.
    pub header: String,
    /// `SEVERE`, `WARNING`, `INFO` or `UNKNOWN`.
    pub severity: String,
}

/// `get_alerts` success body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct GetAlertsResult {
    /// The answer in words: how many alerts are in effect, the most severe ones' headlines,
    /// how many are upcoming, and how many ended ones are left out.
    pub message: String,
    /// Alerts in effect, most severe first, then the earliest start; then the upcoming
    /// ones, soonest first; then (with `includeEnded`) the ended ones.
    pub alerts: Vec<Alert>,
    /// How many alerts matching the filters have ended and are left out (without
    /// `includeEnded`; absent when none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended_left_out: Option<u32>,
    /// The call's correlation id (UUID).
    pub correlation_id: String,
    /// Notes (`truncated-results`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warnings: Option<Vec<Warning>>,
    /// When the upstream answer was fetched, and whether it is stale.
    #[serde(flatten)]
    pub served: Option<crate::http::ServedFields>,
}
