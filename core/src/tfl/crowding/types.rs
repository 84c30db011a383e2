//! `crowding` request and response types.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::tfl::{StopCandidate, TflCode};

/// A day of the week, as TfL's crowding profiles name them (`MON` … `SUN`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
pub enum Weekday {
    Mon,
    Tue,
    Wed,
    Thu,
    Fri,
    Sat,
    Sun,
}

/// `CrowdingRequest`: a station, and the typical day to show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CrowdingRequest {
    /// A station name or id.
    ///
    /// A London Underground station, as `arrivals` takes a stop: a name as a person writes
    /// it ("Oxford Circus", "King's Cross") or an id (`940GZZLUOXC`, `HUBKGX`).
    pub station: String,
    /// Default: today.
    ///
    /// The typical day to show: `mon` … `sun` (default: the day of TfL's live figure, else
    /// today in London).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub day: Option<Weekday>,
    /// Also by quarter hour.
    ///
    /// Also give the typical day by quarter hour (default: by hour only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quarter_hours: Option<bool>,
}

impl CrowdingRequest {
    /// How busy `station` is now and on a typical day like today.
    pub fn new(station: impl Into<String>) -> Self {
        Self {
            station: station.into(),
            day: None,
            quarter_hours: None,
        }
    }
}

/// `CrowdingResponse`: a field with nothing to say is left out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct CrowdingResponse {
    /// Whether TfL's figures were retrieved.
    pub success: bool,
    /// Machine-readable result or error code.
    pub code: TflCode,
    /// The answer in words: how busy now against the usual for this day and time, and the
    /// quietest times (success); what went wrong (error).
    pub message: String,
    /// The station asked about (success only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub station: Option<CrowdingStation>,
    /// How busy it is now (success only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub live: Option<LiveCrowding>,
    /// How busy it usually is through the day asked (success only; null when TfL has no
    /// profile for the station).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub typical_day: Option<TypicalDay>,
    /// On `DISAMBIGUATION_REQUIRED`: the stations the name matches; call again with one's
    /// `id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_disambiguation: Option<Vec<StopCandidate>>,
    /// When the upstream answer was fetched, and whether it is stale (success only).
    #[serde(flatten)]
    pub served: Option<crate::http::ServedFields>,
}

impl CrowdingResponse {
    /// An error response with `code` and `message`; every other field null.
    pub fn error(code: TflCode, message: impl Into<String>) -> Self {
        Self {
            served: None,
            success: false,
            code,
            message: message.into(),
            station: None,
            live: None,
            typical_day: None,
            stop_disambiguation: None,
        }
    }
}

/// The station the figures are for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct CrowdingStation {
    /// Its NaPTAN id (`940GZZLUKSX`): TfL's crowding figures are by station.
    pub id: String,
    /// Its name.
    pub name: String,
}

/// How busy the station is now, against its own usual level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct LiveCrowding {
    /// Whether TfL has a live figure for the station now.
    pub data_available: bool,
    /// TfL's live figure: the station's busyness as a fraction of its own baseline (0.21 is
    /// 21 %), not a head count; absent without data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub percentage_of_baseline: Option<f64>,
    /// When TfL measured it, London time with its UTC offset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<String>,
    /// The quarter hour of the typical day it falls in (`22:00-22:15`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_band: Option<String>,
    /// The typical figure for that quarter hour on that day of the week.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usual: Option<f64>,
    /// `busier`, `quieter` or `usual`: the live figure against the typical one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compared_with_usual: Option<Busyness>,
}

/// The live figure against the typical one for the same day and quarter hour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "lowercase")]
pub enum Busyness {
    /// More than 15 % above the usual figure (or any crowd where there usually is none).
    Busier,
    /// More than 15 % below it.
    Quieter,
    /// Within 15 % of it.
    Usual,
}

/// How busy the station usually is through one day of the week.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct TypicalDay {
    /// The day.
    pub day: Weekday,
    /// TfL's busiest two hours of the morning (`08:00-10:00`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub am_peak_time_band: Option<String>,
    /// TfL's busiest two hours of the afternoon or evening (`17:00-19:00`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pm_peak_time_band: Option<String>,
    /// TfL says the station is always quiet.
    pub is_always_quiet: bool,
    /// With `quarterHours`: each quarter hour from `00:00-00:15` to `23:45-00:00` with its
    /// typical figure (a fraction of the station's baseline), once each.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_bands: Option<Vec<TimeBand>>,
    /// The typical figure of each hour, from 00:00 (24 values: the mean of the hour's
    /// quarter hours, a fraction of the station's baseline, to 2 decimals).
    pub hourly: Vec<f64>,
    /// The quietest times between 06:00 and 22:00 (its three quietest quarter hours, the
    /// adjacent ones joined: `06:00-06:45`), earliest first.
    pub quietest: Vec<String>,
}

/// One quarter hour of a typical day.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct TimeBand {
    /// `HH:MM-HH:MM`.
    pub time_band: String,
    /// Its typical figure, a fraction of the station's baseline.
    pub percentage_of_baseline: f64,
}
