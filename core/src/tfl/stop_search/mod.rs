//! `stopSearch`: London stops and stations by name or near a point, from the TfL Unified
//! API (`GET /StopPoint/Search/{query}`, `GET /StopPoint?lat=&lon=&stopTypes=…`).

mod types;

pub use types::{StopSearchRequest, StopSearchResponse, StopSummary};

use crate::Toolpack;
use crate::geo::six_decimals;
use crate::http::AnswerKind;
use crate::http::encode_component;
use crate::tfl::TflCode;
use crate::tfl::checks;
use crate::tfl::stop_point::{SearchResponse, StopPointsResponse};
use crate::tfl::upstream;
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};
use crate::words::more;

/// The search radius around a point unless the call gives one, in metres.
pub const DEFAULT_RADIUS_M: u32 = 300;
/// The largest search radius, in metres.
pub const MAX_RADIUS_M: u32 = 2_000;
/// Stops in an answer unless the call asks for fewer or more.
pub const DEFAULT_LIMIT: u32 = 10;
/// The most stops in one answer.
pub const MAX_LIMIT: u32 = 50;
/// The kinds of stop a search near a point asks TfL for (TfL needs them named): stations,
/// bus and tram stops, piers.
pub const NEAR_STOP_TYPES: &str =
    "NaptanMetroStation,NaptanRailStation,NaptanPublicBusCoachTram,NaptanFerryPort";
/// Longest accepted `query`, in characters.
const MAX_QUERY_CHARS: usize = 100;

/// The `stopSearch` tool.
#[derive(Debug, Clone, Copy)]
pub struct StopSearch;

impl Tool for StopSearch {
    type Input = StopSearchRequest;
    type Output = StopSearchResponse;
    const SPEC: ToolSpec = ToolSpec {
        name: "stopSearch",
        title: "Find London stops and stations",
        description: "Find London stations and bus stops by name or near a point (TfL): the stop id \
arrivals takes, modes, zone; near a point, lines and distance.",
        summary: "London stops and stations by name or near a point (TfL): ids for arrivals, modes, zone",
        needs: "nothing (`TFL_API_KEY` raises TfL's limit from 50 to 500 requests a minute)",
        toolset: Toolset::Tfl,
        annotations: Annotations::READ_ONLY_REMOTE,
    };

    async fn run(toolpack: &Toolpack, input: Self::Input) -> Self::Output {
        let checked = match check(&input) {
            Ok(checked) => checked,
            Err(message) => return StopSearchResponse::error(TflCode::ValidationError, message),
        };
        let limit = checked.limit.to_string();
        let modes = checked.modes.join(",");
        let stops = match checked.by {
            By::Name(query) => {
                let path = format!("/StopPoint/Search/{}", encode_component(&query));
                let mut params = vec![("maxResults", limit.as_str())];
                if !modes.is_empty() {
                    params.push(("modes", modes.as_str()));
                }
                match upstream::get::<SearchResponse>(toolpack, AnswerKind::Places, &path, &params)
                    .await
                {
                    Ok(answer) => by_name(answer),
                    Err(failure) => {
                        return StopSearchResponse::error(
                            TflCode::from(&failure),
                            failure.message(),
                        );
                    }
                }
            }
            By::Near { lat, lon, radius } => {
                let (lat, lon, radius) = (lat.to_string(), lon.to_string(), radius.to_string());
                let mut params = vec![
                    ("lat", lat.as_str()),
                    ("lon", lon.as_str()),
                    ("stopTypes", NEAR_STOP_TYPES),
                    ("radius", radius.as_str()),
                    ("returnLines", "true"),
                ];
                if !modes.is_empty() {
                    params.push(("modes", modes.as_str()));
                }
                match upstream::get::<StopPointsResponse>(
                    toolpack,
                    AnswerKind::Places,
                    "/StopPoint",
                    &params,
                )
                .await
                {
                    Ok(answer) => near(answer),
                    Err(failure) => {
                        return StopSearchResponse::error(
                            TflCode::from(&failure),
                            failure.message(),
                        );
                    }
                }
            }
        };
        let named = input.query.is_some();
        let mut stops = stops;
        stops.truncate(checked.limit as usize);
        if named && stops.is_empty() {
            return StopSearchResponse::error(
                TflCode::StopNotFound,
                "No stop matches the given name.",
            );
        }
        let message = stops_message(&stops, input.query.as_deref());
        StopSearchResponse {
            served: None,
            success: true,
            code: TflCode::Ok,
            message,
            stops: Some(stops),
        }
    }
}

crate::tfl::tfl_tool_output!(
    StopSearchResponse,
    TflCode,
    "Unexpected error while searching for stops.",
    live
);

/// A request's search, checked.
struct Checked {
    by: By,
    modes: Vec<String>,
    limit: u32,
}

enum By {
    Name(String),
    Near { lat: f64, lon: f64, radius: u32 },
}

fn check(input: &StopSearchRequest) -> Result<Checked, String> {
    let point = input.lat.is_some() || input.lon.is_some();
    let by = match (&input.query, point) {
        (Some(_), true) | (None, false) => {
            return Err("Give 'query', or 'lat' and 'lon', not both.".into());
        }
        (Some(query), false) => {
            if input.radius.is_some() {
                return Err("Field 'radius' needs 'lat' and 'lon'.".into());
            }
            let query = query.trim();
            if query.is_empty() || !query.chars().any(char::is_alphanumeric) {
                return Err("Field 'query' must contain letters or digits.".into());
            }
            if query.chars().count() > MAX_QUERY_CHARS || query.chars().any(char::is_control) {
                return Err(format!(
                    "Field 'query' must be at most {MAX_QUERY_CHARS} characters, without \
control characters."
                ));
            }
            By::Name(query.to_owned())
        }
        (None, true) => {
            let (lat, lon, radius) = checks::point(
                input.lat,
                input.lon,
                input.radius,
                DEFAULT_RADIUS_M,
                MAX_RADIUS_M,
            )?;
            By::Near { lat, lon, radius }
        }
    };
    let mut modes = Vec::new();
    for mode in input.modes.as_deref().unwrap_or_default() {
        let mode = mode.trim().to_ascii_lowercase();
        if mode.is_empty()
            || mode.len() > 40
            || !mode.chars().all(|c| c.is_ascii_lowercase() || c == '-')
        {
            return Err("Field 'modes' must hold mode names such as tube or bus.".into());
        }
        if !modes.contains(&mode) {
            modes.push(mode);
        }
    }
    let limit = input.limit.unwrap_or(DEFAULT_LIMIT);
    if limit == 0 || limit > MAX_LIMIT {
        return Err(format!("Field 'limit' must be between 1 and {MAX_LIMIT}."));
    }
    Ok(Checked { by, modes, limit })
}

/// TfL's matches, in its order; a hub is its own hub.
fn by_name(answer: SearchResponse) -> Vec<StopSummary> {
    answer
        .matches
        .into_iter()
        .filter_map(|m| {
            let id = m.id.filter(|id| !id.trim().is_empty())?;
            let hub_id = m
                .top_most_parent_id
                .filter(|p| p.starts_with("HUB"))
                .or_else(|| id.starts_with("HUB").then(|| id.clone()));
            Some(StopSummary {
                name: m.name.unwrap_or_else(|| id.clone()),
                indicator: None,
                hub_id,
                ics_id: m.ics_id,
                modes: m.modes,
                lines: Vec::new(),
                zone: m.zone,
                lat: m.lat.map(six_decimals),
                lon: m.lon.map(six_decimals),
                distance: None,
                id,
            })
        })
        .collect()
}

/// TfL's stops near the point, nearest first.
fn near(answer: StopPointsResponse) -> Vec<StopSummary> {
    let mut stops: Vec<StopSummary> = answer
        .stop_points
        .into_iter()
        .filter_map(|s| {
            let id = s.stop_id()?.to_owned();
            Some(StopSummary {
                name: s.common_name.clone().unwrap_or_else(|| id.clone()),
                indicator: s.indicator.clone().filter(|i| !i.trim().is_empty()),
                hub_id: s.hub_naptan_code.clone(),
                ics_id: s.ics_code.clone(),
                lines: s.line_ids(),
                zone: s.zone(),
                lat: s.lat.map(six_decimals),
                lon: s.lon.map(six_decimals),
                distance: s.distance.map(|m| m.round().max(0.0) as u32),
                modes: s.modes,
                id,
            })
        })
        .collect();
    stops.sort_by_key(|s| (s.distance.unwrap_or(u32::MAX), s.id.clone()));
    stops
}

/// What a person asking "where is the stop" hears: the first stop's name and id (what
/// `arrivals` takes), how far, its modes, and how many more.
fn stops_message(stops: &[StopSummary], query: Option<&str>) -> String {
    let Some(first) = stops.first() else {
        return "No stop within the radius.".to_owned();
    };
    let mut about = vec![first.id.clone()];
    if let Some(indicator) = &first.indicator {
        about.push(indicator.clone());
    }
    if let Some(metres) = first.distance {
        about.push(format!("{metres} m away"));
    }
    if !first.modes.is_empty() {
        about.push(first.modes.join("/"));
    }
    if let Some(zone) = &first.zone {
        about.push(format!("zone {zone}"));
    }
    let lead = match query {
        Some(_) => "Best match",
        None => "Nearest",
    };
    let mut message = format!("{lead}: {} ({}).", first.name, about.join(", "));
    message.push_str(&more(stops.len() - 1, "stop", "stops"));
    message
}
