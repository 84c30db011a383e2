//! `timetable`: a line's scheduled departures from one stop, from the TfL Unified API
//! (`GET /Line/{id}/Timetable/{stop}?direction=`): each kind of day's first and last
//! departure, those inside a window, and the stops that follow with their running times.
//!
//! Asked without a direction at a stop several routes serve, TfL answers HTTP 200 with a
//! disambiguation of directions instead of a timetable; then both directions are asked and
//! listed. A line that does not call at the stop (TfL answers 404 or 400, or a timetable
//! with no route) is `STOP_NOT_ON_LINE`, with the line's stops nearest to the stop's name.

mod answer;
mod days;
mod digest;
mod types;
mod window;
mod wire;

pub use types::{
    DaySchedule, DirectionTimetable, FollowingStop, ScheduledDeparture, TimetableLine,
    TimetablePattern, TimetableRequest, TimetableResponse, TimetableStop,
};

use std::sync::Arc;

use futures_util::future::join;

use crate::Toolpack;
use crate::http::AnswerKind;
use crate::tfl::checks::line_id;
use crate::tfl::line_route::station_names;
use crate::tfl::line_status::{retired, unknown_lines};
use crate::tfl::station_toilets::validate_station_name;
use crate::tfl::stops::{Stop, resolve_stop, stop_point};
use crate::tfl::upstream::{self, Failure};
use crate::tfl::{RouteDirection, TflCode};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};
use days::Day;
use digest::Digest;
use window::Window;

/// The `timetable` tool.
#[derive(Debug, Clone, Copy)]
pub struct Timetable;

impl Tool for Timetable {
    type Input = TimetableRequest;
    type Output = TimetableResponse;
    const SPEC: ToolSpec = ToolSpec {
        name: "timetable",
        title: "First and last trains from a London stop",
        description: "A London line's timetable at a stop: the first and last train or bus each \
day, departures between two times, stops after.",
        summary: "A London line's timetable from a stop: first and last departures of each day, \
those in a window, and the stops that follow (TfL)",
        needs: "nothing (`TFL_API_KEY` raises TfL's limit from 50 to 500 requests a minute)",
        toolset: Toolset::Tfl,
        annotations: Annotations::READ_ONLY_REMOTE,
    };

    async fn run(toolpack: &Toolpack, input: Self::Input) -> Self::Output {
        let line = match line_id(&input.line) {
            Ok(line) => line,
            Err(message) => return invalid(message),
        };
        let query = match validate_station_name("stop", &input.stop) {
            Ok(query) => query,
            Err(message) => return invalid(message),
        };
        let window = match Window::of(input.after.as_deref(), input.before.as_deref()) {
            Ok(window) => window,
            Err(message) => return invalid(message),
        };
        let day = match Day::of(input.day.as_deref()) {
            Ok(day) => day,
            Err(message) => return invalid(message),
        };
        if retired(&line).is_some() {
            return line_not_found(toolpack, &line, None).await;
        }
        let (id, name) = match resolve_stop(toolpack, &input.stop, &query).await {
            Ok(Stop::Found { id, name }) => (id, name),
            Ok(Stop::Ambiguous(candidates)) => {
                return TimetableResponse {
                    stop_disambiguation: Some(candidates),
                    ..TimetableResponse::error(
                        TflCode::DisambiguationRequired,
                        "Input stop name is ambiguous. Choose one of the suggested stop ids.",
                    )
                };
            }
            Ok(Stop::NotFound) => {
                return TimetableResponse::error(
                    TflCode::StopNotFound,
                    "No stop matches the given name or id.",
                );
            }
            Err(failure) => return failed(&failure),
        };
        let asked = Asked {
            line,
            name,
            direction: input.direction,
            day,
            stops: input.stops.unwrap_or(false),
        };
        let id = if id.starts_with("HUB") {
            match station_of_hub(toolpack, &id, &asked.line).await {
                Ok(Some(station)) => station,
                Ok(None) => return not_on_line(toolpack, &asked, None).await,
                Err(failure) => return failed(&failure),
            }
        } else {
            id
        };
        match timetables(toolpack, &asked, &id).await {
            Ok(Found::Timetables(bodies)) => answer::answer(&bodies, &asked, &id, window),
            Ok(Found::Directions(choices)) => TimetableResponse {
                suggestions: Some(choices),
                ..TimetableResponse::error(
                    TflCode::DisambiguationRequired,
                    "TfL needs a direction for this stop: call again with direction inbound or \
outbound (suggestions holds TfL's routes).",
                )
            },
            Ok(Found::Nothing) => not_on_line(toolpack, &asked, None).await,
            Err(Failure::NotFound(said) | Failure::BadArgument(said)) => {
                not_on_line(toolpack, &asked, said).await
            }
            Err(failure) => failed(&failure),
        }
    }
}

crate::tfl::tfl_tool_output!(
    TimetableResponse,
    TflCode,
    "Unexpected error while getting the timetable.",
    live
);

/// What was asked, once checked.
struct Asked {
    /// The line id, lower case.
    line: String,
    /// The stop's name, when the name or the bundled data gave one.
    name: Option<String>,
    /// The direction, if one was asked for.
    direction: Option<RouteDirection>,
    /// The day whose schedule to give.
    day: Day,
    /// Whether to give the stops after each departure.
    stops: bool,
}

/// What TfL's timetable answers amount to.
enum Found {
    /// One timetable per direction.
    Timetables(Vec<Arc<Digest>>),
    /// No timetable: TfL asks which way (its routes' descriptions).
    Directions(Vec<String>),
    /// No timetable and no question: the line does not call here.
    Nothing,
}

/// The timetables of `asked` from stop `id`: the asked direction's, or TfL's answer with no
/// direction, and, when that is a question of direction, both directions'.
async fn timetables(toolpack: &Toolpack, asked: &Asked, id: &str) -> Result<Found, Failure> {
    let path = format!("/Line/{}/Timetable/{id}", asked.line);
    let fetch = |direction: Option<RouteDirection>| {
        let path = path.clone();
        async move {
            let query: Vec<(&str, &str)> = direction
                .map(|d| ("direction", d.as_str()))
                .into_iter()
                .collect();
            upstream::get_shared::<Digest>(toolpack, AnswerKind::Places, &path, &query).await
        }
    };
    let first = fetch(asked.direction).await?;
    if first.has_routes {
        return Ok(Found::Timetables(vec![first]));
    }
    let choices = first.directions.clone();
    if asked.direction.is_some() || choices.is_none() {
        return Ok(choices.map_or(Found::Nothing, Found::Directions));
    }
    let (outbound, inbound) = join(
        fetch(Some(RouteDirection::Outbound)),
        fetch(Some(RouteDirection::Inbound)),
    )
    .await;
    let mut bodies = Vec::new();
    let mut failure = None;
    for answer in [outbound, inbound] {
        match answer {
            Ok(body) if body.has_routes => bodies.push(body),
            Ok(_) => {}
            Err(error) => {
                failure.get_or_insert(error);
            }
        }
    }
    match (bodies.is_empty(), failure) {
        (false, _) => Ok(Found::Timetables(bodies)),
        (true, Some(failure)) => Err(failure),
        (true, None) => Ok(choices.map_or(Found::Nothing, Found::Directions)),
    }
}

/// The station of hub `hub` that `line` calls at: TfL's timetables start at a station, and
/// a hub (`HUBBAN`) groups several.
async fn station_of_hub(
    toolpack: &Toolpack,
    hub: &str,
    line: &str,
) -> Result<Option<String>, Failure> {
    let hub = stop_point(toolpack, hub).await?;
    Ok(hub
        .children
        .iter()
        .filter(|child| child.line_ids().iter().any(|id| id == line))
        .find_map(|child| child.stop_id().map(str::to_owned)))
}

/// `STOP_NOT_ON_LINE` with the line's stops nearest to the stop's name, or
/// `LINE_NOT_FOUND` when TfL does not know the line either.
async fn not_on_line(
    toolpack: &Toolpack,
    asked: &Asked,
    said: Option<String>,
) -> TimetableResponse {
    let direction = asked.direction.unwrap_or(RouteDirection::Outbound);
    match station_names(toolpack, &asked.line, direction).await {
        Ok(names) => {
            let near = asked
                .name
                .as_deref()
                .map(|name| answer::nearest_stops(name, &names))
                .unwrap_or_default();
            let stop = asked.name.as_deref().unwrap_or("the stop");
            let message = if near.is_empty() {
                format!("The {} line does not call at {stop}.", asked.line)
            } else {
                format!(
                    "The {} line does not call at {stop}; its nearest stops by name are in \
suggestions.",
                    asked.line
                )
            };
            TimetableResponse {
                suggestions: Some(near),
                ..TimetableResponse::error(TflCode::StopNotOnLine, message)
            }
        }
        Err(Failure::NotFound(_)) => line_not_found(toolpack, &asked.line, said).await,
        Err(failure) => failed(&failure),
    }
}

async fn line_not_found(
    toolpack: &Toolpack,
    line: &str,
    said: Option<String>,
) -> TimetableResponse {
    let (message, suggestions) = unknown_lines(toolpack, &[line.to_owned()], said.as_deref()).await;
    TimetableResponse {
        suggestions: Some(suggestions),
        ..TimetableResponse::error(TflCode::LineNotFound, message)
    }
}

fn invalid(message: String) -> TimetableResponse {
    TimetableResponse::error(TflCode::ValidationError, message)
}

fn failed(failure: &Failure) -> TimetableResponse {
    TimetableResponse::error(TflCode::from(failure), failure.message())
}
