//! `get_departures`: the next departures of a stop or station (OTP `stop` / `station`
//! `stoptimesWithoutPatterns`), times from `serviceDay` + seconds (which may pass midnight).

mod types;

pub use types::{Departure, GetDeparturesRequest, GetDeparturesResult, StopRef, TransitStatus};
pub(crate) use types::{StopInput, plain_or_tagged};

use serde::Deserialize;
use serde_json::json;

use super::alerts::{AlertSummary, alert_clause, wire::OtpAlert, wire::summaries};
use super::place::{Language, OtpRoute, checked_range, checked_text, contract_mode};
use super::response::{
    DigitransitErrorCode, DigitransitResponse, Failure, Warning, WarningCode, warnings,
};
use super::time::{fetched_at, helsinki_iso, parse_time_argument};
use super::transit_mode::checked_modes;
use super::upstream::{self, UpstreamFailure};
use super::user_variables::saved_location;
use crate::Toolpack;
use crate::config::Config;
use crate::http::AnswerKind;
use crate::tool::{Tool, ToolSpec};

/// The query sent (also checked against the OTP schema in tests).
pub const QUERY: &str = concat!(
    include_str!("../queries/departures.graphql"),
    include_str!("../queries/fragments/alert_summary.graphql")
);
/// Longest stop id, in characters.
pub const MAX_ID_CHARS: usize = 100;
/// With a mode filter, OTP is asked for this many times the departures wanted.
pub const MODE_FILTER_FACTOR: usize = 10;
/// The most departures asked of OTP in one request.
pub const MAX_ASKED_OF_OTP: usize = 300;
/// A delay beyond this many seconds is `delayed`, and as far early is `early`.
pub const ON_TIME_TOLERANCE_SECS: i64 = 60;

/// The `get_departures` tool.
#[derive(Debug, Clone, Copy)]
pub struct GetDepartures;

crate::tool::live_bodies!(GetDeparturesResult);

impl Tool for GetDepartures {
    type Input = GetDeparturesRequest;
    type Output = DigitransitResponse<GetDeparturesResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "get_departures",
        title: "Next departures from a stop in Finland",
        description: "Next buses, trams, metros and trains leaving a stop or station in Finland, with live \
delays, cancellations and the alerts there.",
        summary: "Next departures from a stop or station, realtime delays and cancellations",
        ..upstream::LIVE_TOOL
    };

    fn missing_prerequisite(config: &Config) -> Option<String> {
        upstream::missing_key(config)
    }

    async fn run(toolpack: &Toolpack, input: Self::Input) -> Self::Output {
        DigitransitResponse::answer(|id| departures(toolpack, input, id)).await
    }
}

#[derive(Debug, Deserialize)]
struct Data {
    stop: Option<Place>,
    #[serde(default)]
    station: Option<Place>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Place {
    gtfs_id: Option<String>,
    name: Option<String>,
    #[serde(default)]
    alerts: Option<Vec<Option<OtpAlert>>>,
    #[serde(default)]
    stoptimes_without_patterns: Vec<Stoptime>,
}

/// A stop's answer as every caller it serves reads it: made once per upstream answer.
struct Board {
    /// The stop or station, when the id named one.
    place: Option<BoardPlace>,
}

struct BoardPlace {
    gtfs_id: Option<String>,
    name: Option<String>,
    /// Soonest first (realtime time when known), then by line.
    departures: Vec<Departure>,
    alerts: Vec<AlertSummary>,
}

impl Board {
    fn of(data: Data) -> Self {
        let place = data.stop.or(data.station).map(|place| {
            let mut list: Vec<(i64, Departure)> = place
                .stoptimes_without_patterns
                .into_iter()
                .map(departure)
                .collect();
            list.sort_by(|(ta, a), (tb, b)| ta.cmp(tb).then_with(|| a.line.cmp(&b.line)));
            BoardPlace {
                gtfs_id: place.gtfs_id,
                name: place.name,
                departures: list.into_iter().map(|(_, d)| d).collect(),
                alerts: summaries(place.alerts),
            }
        });
        Self { place }
    }
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Stoptime {
    service_day: i64,
    scheduled_departure: i64,
    realtime_departure: Option<i64>,
    departure_delay: Option<i64>,
    realtime: Option<bool>,
    realtime_state: Option<String>,
    headsign: Option<String>,
    stop: Option<StoptimeStop>,
    trip: Option<Trip>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoptimeStop {
    platform_code: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Trip {
    trip_headsign: Option<String>,
    route: Option<OtpRoute>,
}

async fn departures(
    toolpack: &Toolpack,
    input: GetDeparturesRequest,
    correlation_id: String,
) -> Result<GetDeparturesResult, Failure> {
    let window = checked_range("windowMinutes", input.window_minutes, 1..=120, 30)?;
    let limit = checked_range("limit", input.limit, 1..=50, 10)? as usize;
    let modes = checked_modes("modes", input.modes)?;
    let start = input
        .start_time
        .as_deref()
        .map(|text| {
            parse_time_argument(text).ok_or_else(|| {
                Failure::validation(format!(
                    "startTime must be ISO 8601 such as 2026-12-05T07:30:00+02:00; got '{text}'."
                ))
            })
        })
        .transpose()?;
    let id = stop_id(toolpack, &input.stop).await?;
    let mut variables = json!({
        "id": id,
        "timeRange": window * 60,
        "numberOfDepartures": asked_of_otp(limit, modes.is_some()),
    });
    if let Some(start) = start {
        variables["startTime"] = start.as_second().into();
    }
    let language = input.language.unwrap_or(Language::En);
    let board = upstream::graphql_shaped(
        toolpack,
        AnswerKind::Arrivals,
        QUERY,
        "Departures",
        variables,
        language,
        Board::of,
    )
    .await
    .map_err(UpstreamFailure::for_routing)?;
    let received = fetched_at();
    let Some(place) = &board.place else {
        return Err(no_such_stop(&id));
    };
    let mut notes = Vec::new();
    let kept: Vec<&Departure> = match &modes {
        Some(modes) => place
            .departures
            .iter()
            .filter(|d| modes.iter().any(|m| m.serves(&d.mode)))
            .collect(),
        None => place.departures.iter().collect(),
    };
    let shown = &kept[..kept.len().min(limit)];
    if kept.len() > limit {
        notes.push(Warning::new(
            WarningCode::TruncatedResults,
            format!("More departures exist in the window; the first {limit} are returned."),
        ));
    }
    let stop_id = place.gtfs_id.clone().unwrap_or(id);
    let departures: Vec<Departure> = shown.iter().map(|d| (*d).clone()).collect();
    Ok(GetDeparturesResult {
        message: departures_message(
            place.name.as_deref().unwrap_or(&stop_id),
            &departures,
            &place.alerts,
        ),
        served: None,
        stop_id,
        stop_name: place.name.clone(),
        realtime_used: shown.iter().any(|d| d.realtime_time.is_some()),
        data_freshness: helsinki_iso(received),
        departures,
        alerts: place.alerts.clone(),
        correlation_id,
        warnings: warnings(notes),
    })
}

/// The most departures the message names.
const DEPARTURES_SAID: usize = 3;

/// What a person asking "when does the next one leave" hears: the first departures, each
/// line, where to, when and how it runs ("Next from Kamppi: 158 to Matinkylä (M) at 10:10
/// (1 min early); …"), and the stop's most severe alert.
fn departures_message(stop: &str, departures: &[Departure], alerts: &[AlertSummary]) -> String {
    let said: Vec<String> = departures
        .iter()
        .take(DEPARTURES_SAID)
        .map(|d| {
            let at = d.realtime_time.as_deref().unwrap_or(&d.scheduled_time);
            let minutes = |seconds: i64| (seconds.abs() + 30) / 60;
            let how = match (d.status, d.delay_seconds) {
                (TransitStatus::Cancelled, _) => "cancelled".to_owned(),
                (TransitStatus::Delayed, Some(s)) => format!("{} min late", minutes(s)),
                (TransitStatus::Early, Some(s)) => format!("{} min early", minutes(s)),
                (TransitStatus::ScheduledOnly, _) => "timetable only".to_owned(),
                _ => "on time".to_owned(),
            };
            format!(
                "{} to {} at {} ({how})",
                d.line,
                d.destination,
                at.get(11..16).unwrap_or(at)
            )
        })
        .collect();
    let mut message = if said.is_empty() {
        format!("No departures from {stop} in the window asked.")
    } else {
        format!("Next from {stop}: {}.", said.join("; "))
    };
    message.push_str(&alert_clause(
        alerts.first().map(|a| a.header.as_str()),
        alerts.len(),
    ));
    message
}

/// Departures asked of OTP: one more than `limit` (to tell whether more exist), or, when a
/// mode filter will drop some, [`MODE_FILTER_FACTOR`] times that (at most
/// [`MAX_ASKED_OF_OTP`]), since OTP's stoptimes take no mode.
fn asked_of_otp(limit: usize, filtered: bool) -> usize {
    if filtered {
        ((limit + 1) * MODE_FILTER_FACTOR).min(MAX_ASKED_OF_OTP)
    } else {
        limit + 1
    }
}

/// The stop or station id `stop` names: the id given, or the `stopId` of the saved place
/// with that label (`get_departures` and `get_stop_info` take a stop alike).
pub(super) async fn stop_id(toolpack: &Toolpack, stop: &StopRef) -> Result<String, Failure> {
    Ok(match stop {
        StopRef::Id { value } => checked_text("stop.value", value, MAX_ID_CHARS)?.to_owned(),
        StopRef::Label { value } => saved_location(toolpack, "stop.value", value)
            .await?
            .stop_id
            .ok_or_else(|| {
                Failure::validation(format!("The saved place '{}' has no stopId.", value.trim()))
                    .hint("Save it again with value.stopId, e.g. from find_stops.")
            })?,
    })
}

/// The `not-found` failure for an id that is neither a stop nor a station.
pub(super) fn no_such_stop(id: &str) -> Failure {
    Failure::new(
        DigitransitErrorCode::NotFound,
        format!("No stop or station has the id '{id}'."),
    )
    .hint("Find stop ids with find_stops, or with geocode_address (stopId).")
}

/// A stoptime as a departure, with the Unix time it is ordered by.
fn departure(stoptime: Stoptime) -> (i64, Departure) {
    let scheduled = stoptime.service_day + stoptime.scheduled_departure;
    let realtime = stoptime.realtime == Some(true);
    let expected = realtime.then(|| {
        stoptime.service_day
            + stoptime
                .realtime_departure
                .unwrap_or(stoptime.scheduled_departure)
    });
    let delay = realtime.then(|| stoptime.departure_delay.unwrap_or(0));
    let status = transit_status(stoptime.realtime_state.as_deref(), delay);
    let route = stoptime.trip.as_ref().and_then(|t| t.route.as_ref());
    let line = route.and_then(OtpRoute::line).unwrap_or_default();
    let destination = stoptime
        .headsign
        .clone()
        .or_else(|| stoptime.trip.as_ref().and_then(|t| t.trip_headsign.clone()))
        .unwrap_or_default();
    let departure = Departure {
        line,
        mode: contract_mode(route.and_then(|r| r.mode.as_deref()).unwrap_or("BUS")),
        destination,
        scheduled_time: helsinki_iso(unix(scheduled)),
        realtime_time: expected.map(|t| helsinki_iso(unix(t))),
        delay_seconds: delay,
        status,
        platform: stoptime.stop.and_then(|s| s.platform_code),
    };
    (expected.unwrap_or(scheduled), departure)
}

/// The status rule: cancelled, then more than 60 s late (`delayed`) or early (`early`),
/// then any estimate, else scheduled only. `delay` is `None` without realtime data. (The
/// contract and the notes said `delayed` either way; a traveller told a bus is delayed
/// arrives after it has gone, so early is its own status.)
pub(crate) fn transit_status(realtime_state: Option<&str>, delay: Option<i64>) -> TransitStatus {
    match (realtime_state, delay) {
        (Some("CANCELED"), _) => TransitStatus::Cancelled,
        (_, Some(d)) if d > ON_TIME_TOLERANCE_SECS => TransitStatus::Delayed,
        (_, Some(d)) if d < -ON_TIME_TOLERANCE_SECS => TransitStatus::Early,
        (_, Some(_)) => TransitStatus::OnTime,
        (_, None) => TransitStatus::ScheduledOnly,
    }
}

fn unix(seconds: i64) -> jiff::Timestamp {
    jiff::Timestamp::from_second(seconds).unwrap_or(jiff::Timestamp::UNIX_EPOCH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_says_late_and_early_apart() {
        assert_eq!(
            transit_status(Some("CANCELED"), Some(0)),
            TransitStatus::Cancelled
        );
        assert_eq!(
            transit_status(Some("UPDATED"), Some(90)),
            TransitStatus::Delayed
        );
        assert_eq!(
            transit_status(Some("UPDATED"), Some(-75)),
            TransitStatus::Early
        );
        assert_eq!(
            transit_status(Some("UPDATED"), Some(60)),
            TransitStatus::OnTime
        );
        assert_eq!(
            transit_status(Some("UPDATED"), Some(-60)),
            TransitStatus::OnTime
        );
        assert_eq!(
            transit_status(Some("SCHEDULED"), None),
            TransitStatus::ScheduledOnly
        );
    }

    #[test]
    fn times_past_midnight_roll_into_the_next_day() {
        let stoptime: Stoptime = serde_json::from_value(json!({
            "serviceDay": 1654462800, "scheduledDeparture": 90000, "realtimeDeparture": 90000,
            "departureDelay": 0, "realtime": false, "realtimeState": "SCHEDULED",
            "headsign": "Kamppi", "stop": null, "trip": null
        }))
        .unwrap();
        let (_, d) = departure(stoptime);
        assert_eq!(d.scheduled_time, "2022-06-07T01:00:00+03:00");
        assert_eq!(d.status, TransitStatus::ScheduledOnly);
    }
}
