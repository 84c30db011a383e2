//! A timetable answer from TfL's bodies: the schedules of every route from the stop merged
//! by kind of day, each departure on the clock (the hours of 24 and more as the next day's),
//! and each route's stop patterns numbered once per direction.

use std::sync::Arc;

use super::Asked;
use super::digest::{Digest, Timed};
use super::types::{
    DaySchedule, DirectionTimetable, ScheduledDeparture, TimetableLine, TimetableResponse,
    TimetableStop,
};
use super::window::{Window, clock};
use crate::tfl::TflCode;
use crate::tfl::stops::short_place;

/// The most departures of one day listed for a window.
pub(super) const MAX_DEPARTURES: usize = 60;
/// The most stops suggested for a stop the line does not call at.
const MAX_SUGGESTIONS: usize = 5;

/// The answer for `asked` from stop `id`, one direction per body.
pub(super) fn answer(
    bodies: &[Arc<Digest>],
    asked: &Asked,
    id: &str,
    window: Option<Window>,
) -> TimetableResponse {
    let name = asked
        .name
        .clone()
        .or_else(|| bodies.iter().find_map(|b| b.names.get(id).cloned()))
        .unwrap_or_else(|| id.to_owned());
    let first = bodies.first().map(Arc::as_ref);
    let line_id = first
        .and_then(|b| b.line_id.clone())
        .unwrap_or_else(|| asked.line.clone());
    let line_name = first
        .and_then(|b| b.line_name.clone())
        .unwrap_or_else(|| line_id.clone());
    let asked_direction = asked.direction.map(|d| d.as_str());
    let directions: Vec<DirectionTimetable> = bodies
        .iter()
        .map(|body| direction(body, asked, asked_direction, window))
        .collect();
    let runs = bodies
        .iter()
        .any(|body| body.days.iter().any(|(day, _)| asked.day.runs(day)));
    let message = summary(
        &line_name,
        &name,
        asked.day.said().filter(|_| runs),
        &directions,
    );
    let message = match asked.day.said() {
        Some(day) if !runs => format!("No departures on {day} in TfL's timetable. {message}"),
        _ => message,
    };
    TimetableResponse {
        served: None,
        success: true,
        code: TflCode::Ok,
        message,
        day: asked.day.said(),
        line: Some(TimetableLine {
            id: line_id,
            name: line_name,
        }),
        stop: Some(TimetableStop {
            id: id.to_owned(),
            name,
        }),
        directions: Some(directions),
        stop_disambiguation: None,
        suggestions: None,
    }
}

/// One direction's timetable: the asked day's (or every kind of day's) first, last and
/// window's departures, and with `stops` the patterns they run. A day no schedule names
/// keeps them all.
fn direction(
    body: &Digest,
    asked: &Asked,
    direction: Option<&str>,
    window: Option<Window>,
) -> DirectionTimetable {
    let patterns = &body.patterns;
    let departure = |&(at, pattern): &Timed| {
        let (time, next_day) = clock(at);
        ScheduledDeparture {
            time,
            next_day,
            pattern: pattern.filter(|_| asked.stops),
            towards: pattern
                .and_then(|p| patterns.get(p as usize))
                .and_then(|p| p.stops.last())
                .map(|stop| short_place(&stop.name).to_owned()),
        }
    };
    let on_the_day = |name: &String| asked.day.runs(name);
    let any_on_the_day = body.days.iter().any(|(name, _)| on_the_day(name));
    let schedules = body
        .days
        .iter()
        .filter(|(name, _)| !any_on_the_day || on_the_day(name))
        .map(|(name, times)| DaySchedule {
            name: name.clone(),
            count: u32::try_from(times.len()).unwrap_or(u32::MAX),
            first: times.first().map(departure),
            last: times.last().map(departure),
            departures: window.map_or_else(Vec::new, |window| {
                times
                    .iter()
                    .filter(|(at, _)| window.holds(*at))
                    .take(MAX_DEPARTURES)
                    .map(departure)
                    .collect()
            }),
        })
        .collect();
    DirectionTimetable {
        direction: body
            .direction
            .clone()
            .or_else(|| direction.map(str::to_owned))
            .unwrap_or_default(),
        schedules,
        patterns: asked.stops.then(|| patterns.clone()),
    }
}

/// "DLR from Poplar on Sunday 2026-12-06, first to last: outbound 06:58 to 00:01 (next
/// day)." Without a `day` its schedules are named.
fn summary(
    line: &str,
    stop: &str,
    day: Option<String>,
    directions: &[DirectionTimetable],
) -> String {
    let ways: Vec<String> = directions
        .iter()
        .map(|d| {
            let named = d.schedules.len() > 1 || day.is_none();
            let days: Vec<String> = d
                .schedules
                .iter()
                .filter_map(|s| {
                    let (first, last) = (s.first.as_ref()?, s.last.as_ref()?);
                    let next_day = if last.next_day { " (next day)" } else { "" };
                    let name = if named {
                        format!("{} ", s.name)
                    } else {
                        String::new()
                    };
                    Some(format!("{name}{} to {}{next_day}", first.time, last.time))
                })
                .collect();
            format!("{} {}", d.direction, days.join("; "))
        })
        .collect();
    let on = day.map(|d| format!(" on {d}")).unwrap_or_default();
    format!(
        "{line} from {}{on}, first to last: {}.",
        short_place(stop),
        ways.join("; ")
    )
}

/// The names among `names` (a line's stops) nearest to `wanted`, compared without the
/// words every station name ends in ("Underground Station").
pub(super) fn nearest_stops(wanted: &str, names: &[String]) -> Vec<String> {
    let plain: Vec<String> = names.iter().map(|n| plain_name(n)).collect();
    crate::nearest::nearest(
        &plain_name(wanted),
        plain.iter().map(String::as_str),
        MAX_SUGGESTIONS,
    )
    .into_iter()
    .filter_map(|near| plain.iter().position(|p| p == near))
    .map(|at| names[at].clone())
    .collect()
}

/// A stop's name lower case, without its trailing "Underground Station", "DLR Station", ….
fn plain_name(name: &str) -> String {
    let mut plain = name.trim().to_lowercase();
    for suffix in [" station", " underground", " dlr", " rail", " (london)"] {
        if let Some(rest) = plain.strip_suffix(suffix) {
            plain = rest.to_owned();
        }
    }
    plain
}

#[cfg(test)]
mod tests {
    use super::nearest_stops;

    #[test]
    fn a_stops_nearest_names_leave_out_the_words_every_station_has() {
        let names = [
            "Euston Underground Station".to_owned(),
            "Warren Street Underground Station".to_owned(),
            "Brixton Underground Station".to_owned(),
        ];
        assert_eq!(
            nearest_stops("Euston Square", &names),
            ["Euston Underground Station"]
        );
        assert_eq!(
            nearest_stops("Brixtn", &names),
            ["Brixton Underground Station"]
        );
        assert!(nearest_stops("Poplar", &names).is_empty());
    }
}
