//! `timetable` request and response types.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::tfl::{RouteDirection, StopCandidate, TflCode};

/// `TimetableRequest`: a line, a stop on it, and optionally a direction and a window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TimetableRequest {
    /// e.g. victoria, dlr, 25 (a bus).
    ///
    /// A line id: `victoria`, `dlr`, `elizabeth`, a bus route such as `25`.
    pub line: String,
    /// Stop id or name.
    ///
    /// The stop the departures leave from: a NaPTAN id (`940GZZDLPOP`) or a name
    /// ("Poplar"), resolved as `arrivals` resolves it.
    pub stop: String,
    /// Default both.
    ///
    /// `inbound` or `outbound`; without it, every direction TfL has from the stop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<RouteDirection>,
    /// HH:MM, London: list departures from then.
    ///
    /// Also list each day's departures from this London time (`HH:MM`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "uniffi", uniffi(default))]
    pub after: Option<String>,
    /// HH:MM; before 04:00 is after midnight.
    ///
    /// The window's end (`HH:MM`, London). A window's time before 04:00 is after midnight,
    /// as in TfL's service day. Without `after`, the window starts at the first departure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "uniffi", uniffi(default))]
    pub before: Option<String>,
    /// today (default), tomorrow, a weekday or all.
    ///
    /// The day whose schedule to give: `today` (London's service day, from 04:00),
    /// `tomorrow`, a day of the week (`saturday`, `sat`), or `all` for every kind of day.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "uniffi", uniffi(default))]
    pub day: Option<String>,
    /// Each departure's next stops.
    ///
    /// Also give the stops each departure calls at after this one, with the minutes to
    /// each (default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "uniffi", uniffi(default))]
    pub stops: Option<bool>,
}

impl TimetableRequest {
    /// The first and last departures of `line` from `stop`, both ways.
    pub fn new(line: impl Into<String>, stop: impl Into<String>) -> Self {
        Self {
            line: line.into(),
            stop: stop.into(),
            direction: None,
            after: None,
            before: None,
            day: None,
            stops: None,
        }
    }
}

/// `TimetableResponse`: a field with nothing to say is left out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct TimetableResponse {
    /// Whether the timetable was retrieved.
    pub success: bool,
    /// Machine-readable result or error code.
    pub code: TflCode,
    /// Human-readable summary: each direction's first and last departures.
    pub message: String,
    /// The day whose schedule this is: "Sunday 2026-12-06" for today or tomorrow,
    /// "Saturday" for a day of the week; absent with `day: all` (success only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub day: Option<String>,
    /// The line (success only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<TimetableLine>,
    /// The stop the departures leave from (success only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<TimetableStop>,
    /// One timetable per direction (success only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub directions: Option<Vec<DirectionTimetable>>,
    /// On `DISAMBIGUATION_REQUIRED`: the stops the name may mean; call again with one's
    /// `id` as `stop`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_disambiguation: Option<Vec<StopCandidate>>,
    /// On `STOP_NOT_ON_LINE`: the line's stops nearest to the name; on `LINE_NOT_FOUND`:
    /// the nearest line ids; on `DISAMBIGUATION_REQUIRED` for a direction: TfL's choices.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggestions: Option<Vec<String>>,
    /// When the upstream answer was fetched, and whether it is stale (success only).
    #[serde(flatten)]
    pub served: Option<crate::http::ServedFields>,
}

impl TimetableResponse {
    /// An error response with `code` and `message`; every other field null.
    pub fn error(code: TflCode, message: impl Into<String>) -> Self {
        Self {
            served: None,
            success: false,
            code,
            message: message.into(),
            day: None,
            line: None,
            stop: None,
            directions: None,
            stop_disambiguation: None,
            suggestions: None,
        }
    }
}

/// The line of a timetable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct TimetableLine {
    /// Its id, e.g. `dlr`.
    pub id: String,
    /// Its name, e.g. "DLR".
    pub name: String,
}

/// The stop a timetable's departures leave from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct TimetableStop {
    /// Its id, e.g. `940GZZDLPOP`.
    pub id: String,
    /// Its name, e.g. "Poplar DLR Station".
    pub name: String,
}

/// The timetable one way from the stop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct DirectionTimetable {
    /// `inbound` or `outbound`.
    pub direction: String,
    /// The schedule of the day asked, or with `day: all` one per kind of day, in TfL's
    /// order ("Monday - Friday", "Saturday", "Sunday").
    pub schedules: Vec<DaySchedule>,
    /// With `stops`: the stop patterns the departures run, the stops that follow and the
    /// minutes to each. A departure's `pattern` is an index into this list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patterns: Option<Vec<TimetablePattern>>,
}

/// The departures of one kind of day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct DaySchedule {
    /// TfL's name for the days, e.g. "Monday - Friday", "Saturdays and Public Holidays".
    pub name: String,
    /// How many departures the day has.
    pub count: u32,
    /// The first departure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<ScheduledDeparture>,
    /// The last departure: the last train (or bus) of the day.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last: Option<ScheduledDeparture>,
    /// The departures inside the asked window (`after`, `before`), in order; left out
    /// without a window. At most 60.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub departures: Vec<ScheduledDeparture>,
}

/// One scheduled departure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct ScheduledDeparture {
    /// London time, `HH:MM` on a 24-hour clock (TfL's 24:30 is `00:30` with `nextDay`).
    pub time: String,
    /// True when it leaves after midnight, on the day after the schedule's day (left out
    /// otherwise).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub next_day: bool,
    /// With `stops`: the index of its stop pattern in the direction's `patterns`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<u32>,
    /// The last stop of its pattern, as people say it ("Beckton").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub towards: Option<String>,
}

/// A stop pattern: the stops after the departure stop, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct TimetablePattern {
    /// The stops, each with the minutes from the departure.
    pub stops: Vec<FollowingStop>,
}

/// A stop of a pattern.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct FollowingStop {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Minutes from the departure to here.
    pub minutes: f64,
}
