//! `get_departures` request and response types.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::digitransit::alerts::AlertSummary;
use crate::digitransit::place::Language;
use crate::digitransit::response::Warning;
use crate::digitransit::transit_mode::TransitMode;

/// By id or saved label.
///
/// Which stop: an OTP stop or station id, or the label of a saved place with a `stopId`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum StopRef {
    /// By id.
    ///
    /// A stop or station id, e.g. `HSL:1040129` (from `find_stops` or `geocode_address`).
    Id {
        /// The id.
        value: String,
    },
    /// Saved key.
    ///
    /// The key of a saved location that has a `stopId` (see `save_user_variable`).
    Label {
        /// The key.
        value: String,
    },
}

/// A stop as a call may write it: its id as a plain string (`"HSL:1040129"`), or a
/// [`StopRef`] object. The schema the tools show; [`plain_or_tagged`] reads it.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub(crate) enum StopInput {
    // A stop or station id (its description is the field's: every word is paid in every
    // conversation).
    Plain(String),
    // A stop by id or a saved place by its key.
    Tagged(StopRef),
}

/// Reads a stop written as its plain id string or as a [`StopRef`] object.
pub(crate) fn plain_or_tagged<'de, D>(deserializer: D) -> Result<StopRef, D::Error>
where
    D: serde::Deserializer<'de>,
{
    crate::digitransit::place::plain_or_tagged(deserializer, |value| StopRef::Id { value })
}

/// `get_departures` arguments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GetDeparturesRequest {
    /// Stop id (HSL:1040129) or {type: label}.
    ///
    /// The stop or station: its id (`"HSL:1040129"`, or `{type: 'id', value}`), or a saved
    /// place with a `stopId` (`{type: 'label', value}`).
    #[serde(deserialize_with = "plain_or_tagged")]
    #[schemars(with = "StopInput")]
    pub stop: StopRef,
    /// Minutes ahead, 1..120 (default 30).
    ///
    /// How far ahead to look, 1..120 minutes (default 30).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window_minutes: Option<i64>,
    /// 1..50 (default 10).
    ///
    /// Most departures returned, 1..50 (default 10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
    /// The language.
    ///
    /// Language of stop names and headsigns: `fi`, `sv` or `en` (default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<Language>,
    /// ISO 8601.
    ///
    /// Departures from this time on, ISO 8601 such as `2026-12-05T07:30` (without an offset it
    /// is Helsinki time; default now).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_time: Option<String>,
    /// Modes.
    ///
    /// Only departures of these transit modes: BUS, TRAM, RAIL, SUBWAY, FERRY (default all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modes: Option<Vec<TransitMode>>,
}

/// How a departure or a leg stands against its timetable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "snake_case")]
pub enum TransitStatus {
    /// Realtime data: within 60 s of the timetable.
    OnTime,
    /// Realtime data: more than 60 s late.
    Delayed,
    /// Realtime data: more than 60 s early (a negative delay): be there sooner.
    Early,
    /// Cancelled.
    Cancelled,
    /// No realtime data: the timetable only.
    ScheduledOnly,
}

/// One departure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct Departure {
    /// Line, e.g. `159`.
    pub line: String,
    /// Mode: BUS, TRAM, RAIL, METRO, FERRY, …
    pub mode: String,
    /// Where it is going (the headsign).
    pub destination: String,
    /// Timetabled departure, ISO 8601 with the Helsinki offset.
    pub scheduled_time: String,
    /// Expected departure from realtime data, when there is some.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub realtime_time: Option<String>,
    /// Realtime delay in seconds (negative when early), when there is realtime data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay_seconds: Option<i64>,
    /// `on_time`, `delayed`, `early`, `cancelled` or `scheduled_only`.
    pub status: TransitStatus,
    /// Platform or track, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
}

/// `get_departures` success body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct GetDeparturesResult {
    /// The answer in words: the next departures, when and how they run, and the stop's
    /// most severe alert.
    pub message: String,
    /// The stop or station id asked about.
    pub stop_id: String,
    /// Its name, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_name: Option<String>,
    /// Whether any departure has realtime data.
    pub realtime_used: bool,
    /// When the upstream data was fetched (ISO 8601 UTC): a cached answer keeps its
    /// fetch time, as `asOf` does.
    pub data_freshness: String,
    /// Next departures, soonest first (realtime time when known), then by line.
    pub departures: Vec<Departure>,
    /// The alerts in effect at the stop, on its routes, or on its routes at the stop, in
    /// brief, most severe first (`get_alerts` or `get_stop_info` give them in full).
    pub alerts: Vec<AlertSummary>,
    /// The call's correlation id (UUID).
    pub correlation_id: String,
    /// Notes on the answer (`truncated-results`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warnings: Option<Vec<Warning>>,
    /// When the upstream answer was fetched, and whether it is stale.
    #[serde(flatten)]
    pub served: Option<crate::http::ServedFields>,
}
