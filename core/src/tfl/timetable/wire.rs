//! TfL's `TimetableResponse` as it comes (`GET /Line/{id}/Timetable/{stop}`), read leniently:
//! the stops by id and name, the routes' stop patterns (`stationIntervals`) and their
//! schedules of departures (`knownJourneys`, in hours and minutes of the service day).

use serde::Deserialize;

use crate::tfl::lenient;
use crate::tfl::stop_point::NamedStop;

/// The whole body: a timetable, or (asked without a direction at a stop several routes
/// serve) a disambiguation of directions.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct TimetableBody {
    #[serde(default, deserialize_with = "lenient::string")]
    pub(super) line_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub(super) line_name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub(super) direction: Option<String>,
    #[serde(default, deserialize_with = "lenient::list")]
    pub(super) stations: Vec<NamedStop>,
    #[serde(default, deserialize_with = "lenient::list")]
    pub(super) stops: Vec<NamedStop>,
    #[serde(default)]
    pub(super) timetable: Option<Timetable>,
    #[serde(default)]
    pub(super) disambiguation: Option<Disambiguation>,
}

/// The timetable from one stop.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Timetable {
    #[serde(default, deserialize_with = "lenient::list")]
    pub(super) routes: Vec<Route>,
}

/// One route from the stop: its stop patterns and its schedules.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Route {
    #[serde(default, deserialize_with = "lenient::list")]
    pub(super) station_intervals: Vec<StationInterval>,
    #[serde(default, deserialize_with = "lenient::list")]
    pub(super) schedules: Vec<Schedule>,
}

/// One stop pattern: the stops that follow, with minutes from the departure.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct StationInterval {
    #[serde(default, deserialize_with = "lenient::int")]
    pub(super) id: Option<i64>,
    #[serde(default, deserialize_with = "lenient::list")]
    pub(super) intervals: Vec<Interval>,
}

/// A stop of a pattern.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Interval {
    #[serde(default, deserialize_with = "lenient::string")]
    pub(super) stop_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::float")]
    pub(super) time_to_arrival: Option<f64>,
}

/// One kind of day ("Monday - Friday", "Saturdays and Public Holidays") and its departures.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Schedule {
    #[serde(default, deserialize_with = "lenient::string")]
    pub(super) name: Option<String>,
    #[serde(default, deserialize_with = "lenient::list")]
    pub(super) known_journeys: Vec<KnownJourney>,
}

/// One departure: hour and minute of the service day (the hour is 24 or more after
/// midnight), and the pattern it runs.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct KnownJourney {
    #[serde(default, deserialize_with = "lenient::int")]
    pub(super) hour: Option<i64>,
    #[serde(default, deserialize_with = "lenient::int")]
    pub(super) minute: Option<i64>,
    #[serde(default, deserialize_with = "lenient::int")]
    pub(super) interval_id: Option<i64>,
}

/// TfL's question back: which way.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Disambiguation {
    #[serde(default, deserialize_with = "lenient::list")]
    pub(super) disambiguation_options: Vec<DisambiguationOption>,
}

/// One way TfL offers.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct DisambiguationOption {
    #[serde(default, deserialize_with = "lenient::string")]
    pub(super) description: Option<String>,
}
