//! One timetable body as every call reads it, made once per upstream answer (the shared
//! cache keeps it beside the body): its stops' names, its stop patterns numbered once, and
//! each kind of day's departures merged across routes and sorted. A call then only picks
//! the first, the last and the window's departures.

use std::collections::HashMap;

use serde::Deserialize;

use super::types::{FollowingStop, TimetablePattern};
use super::wire::{Route, TimetableBody};
use crate::tfl::stop_point::names_by_id;

/// A departure as TfL times it: its minute of the service day, and its pattern's index.
pub(super) type Timed = (u32, Option<u32>);

/// A TfL timetable body, digested.
#[derive(Debug, Deserialize)]
#[serde(from = "TimetableBody")]
pub(super) struct Digest {
    pub(super) line_id: Option<String>,
    pub(super) line_name: Option<String>,
    pub(super) direction: Option<String>,
    /// Every stop's name, by its id and its station's id.
    pub(super) names: HashMap<String, String>,
    /// The routes' stop patterns, in TfL's order.
    pub(super) patterns: Vec<TimetablePattern>,
    /// Each kind of day (by TfL's name, trimmed, in its first order) and its departures,
    /// earliest first.
    pub(super) days: Vec<(String, Vec<Timed>)>,
    /// Whether a route has a schedule: the body is a timetable.
    pub(super) has_routes: bool,
    /// TfL's directions to choose from, when the body is a question of direction.
    pub(super) directions: Option<Vec<String>>,
}

impl From<TimetableBody> for Digest {
    fn from(body: TimetableBody) -> Self {
        let names: HashMap<String, String> = names_by_id(body.stations.iter().chain(&body.stops))
            .into_iter()
            .map(|(id, name)| (id.to_owned(), name.to_owned()))
            .collect();
        let routes = body.timetable.map(|t| t.routes).unwrap_or_default();
        let (patterns, pattern_of) = patterns(&routes, &names);
        let directions = body.disambiguation.map(|d| {
            d.disambiguation_options
                .into_iter()
                .filter_map(|o| o.description)
                .map(|d| d.trim().to_owned())
                .filter(|d| !d.is_empty())
                .collect()
        });
        Self {
            has_routes: routes.iter().any(|r| !r.schedules.is_empty()),
            days: days(&routes, &pattern_of),
            line_id: body.line_id,
            line_name: body.line_name,
            direction: body.direction,
            names,
            patterns,
            directions,
        }
    }
}

/// Every route's stop patterns, and for each route its TfL interval ids with their indexes
/// among the patterns (a route has a few: a list is quicker to search than a map to hash,
/// once per departure).
fn patterns(
    routes: &[Route],
    names: &HashMap<String, String>,
) -> (Vec<TimetablePattern>, Vec<Vec<(i64, u32)>>) {
    let mut patterns = Vec::new();
    let mut pattern_of: Vec<Vec<(i64, u32)>> = vec![Vec::new(); routes.len()];
    for (r, route) in routes.iter().enumerate() {
        for interval in &route.station_intervals {
            let index = u32::try_from(patterns.len()).unwrap_or(u32::MAX);
            if let Some(id) = interval.id {
                pattern_of[r].push((id, index));
            }
            let mut stops: Vec<FollowingStop> = Vec::new();
            for stop in &interval.intervals {
                let (Some(id), Some(minutes)) = (stop.stop_id.as_deref(), stop.time_to_arrival)
                else {
                    continue;
                };
                // TfL lists a stop twice in a row, arriving and leaving: it is kept once,
                // at its arrival.
                if stops.last().is_some_and(|last| last.id == id) {
                    continue;
                }
                stops.push(FollowingStop {
                    id: id.to_owned(),
                    name: names.get(id).map_or(id, String::as_str).to_owned(),
                    minutes,
                });
            }
            patterns.push(TimetablePattern { stops });
        }
    }
    (patterns, pattern_of)
}

/// Each kind of day's departures, merged across the routes and sorted.
fn days(routes: &[Route], pattern_of: &[Vec<(i64, u32)>]) -> Vec<(String, Vec<Timed>)> {
    let mut days: Vec<(String, Vec<Timed>)> = Vec::new();
    for (r, route) in routes.iter().enumerate() {
        for schedule in &route.schedules {
            let name = schedule.name.as_deref().map_or("", str::trim);
            let at = match days.iter().position(|(n, _)| n == name) {
                Some(at) => at,
                None => {
                    days.push((name.to_owned(), Vec::new()));
                    days.len() - 1
                }
            };
            days[at]
                .1
                .extend(schedule.known_journeys.iter().filter_map(|j| {
                    let (hour, minute) = (j.hour?, j.minute?);
                    let minutes = (0..48).contains(&hour) && (0..60).contains(&minute);
                    let pattern = j.interval_id.and_then(|id| {
                        pattern_of[r]
                            .iter()
                            .find_map(|&(of, index)| (of == id).then_some(index))
                    });
                    minutes.then(|| (u32::try_from(hour * 60 + minute).unwrap_or(0), pattern))
                }));
        }
    }
    for (_, times) in &mut days {
        times.sort_unstable();
    }
    days
}
