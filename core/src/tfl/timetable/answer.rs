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
        .map(|body| direction(body, asked_direction, window))
        .collect();
    let message = summary(&line_name, &name, &directions);
    TimetableResponse {
        served: None,
        success: true,
        code: TflCode::Ok,
        message,
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

/// One direction's timetable: its patterns, and each kind of day's first, last and window's
/// departures.
fn direction(body: &Digest, asked: Option<&str>, window: Option<Window>) -> DirectionTimetable {
    let patterns = &body.patterns;
    let departure = |&(at, pattern): &Timed| {
        let (time, next_day) = clock(at);
        ScheduledDeparture {
            time,
            next_day,
            pattern,
            towards: pattern
                .and_then(|p| patterns.get(p as usize))
                .and_then(|p| p.stops.last())
                .map(|stop| stop.name.clone()),
        }
    };
    let schedules = body
        .days
        .iter()
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
            .or_else(|| asked.map(str::to_owned))
            .unwrap_or_default(),
        schedules,
        patterns: patterns.clone(),
    }
}

/// "DLR from Poplar DLR Station, outbound: Monday - Friday 05:30 to 00:35 (next day); …".
fn summary(line: &str, stop: &str, directions: &[DirectionTimetable]) -> String {
    let ways: Vec<String> = directions
        .iter()
        .map(|d| {
            let days: Vec<String> = d
                .schedules
                .iter()
                .filter_map(|s| {
                    let (first, last) = (s.first.as_ref()?, s.last.as_ref()?);
                    let next_day = if last.next_day { " (next day)" } else { "" };
                    Some(format!(
                        "{} {} to {}{next_day}",
                        s.name, first.time, last.time
                    ))
                })
                .collect();
            format!("{}: {}", d.direction, days.join("; "))
        })
        .collect();
    format!(
        "{line} from {stop}, first to last departure. {}.",
        ways.join(". ")
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
