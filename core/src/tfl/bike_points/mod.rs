//! `bikePoints`: Santander Cycles docking stations with their bikes and free docks, from the
//! TfL Unified API (`GET /BikePoint`: every station; TfL documents no search near a point,
//! so the tool fetches them all and filters here).

mod types;
pub(crate) mod wire;

pub use types::{BikePoint, BikePointsRequest, BikePointsResponse};

use self::wire::{Dock, Docks};
use crate::Toolpack;
use crate::geo::six_decimals;
use crate::http::AnswerKind;
use crate::tfl::TflCode;
use crate::tfl::checks;
use crate::tfl::london::london_iso_of_utc;
use crate::tfl::upstream;
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};
use crate::words::more;

/// The search radius around a point unless the call gives one, in metres.
pub const DEFAULT_RADIUS_M: u32 = 500;
/// The largest search radius, in metres.
pub const MAX_RADIUS_M: u32 = 2_000;
/// Bike points in an answer unless the call asks for fewer or more.
pub const DEFAULT_LIMIT: u32 = 10;
/// The most bike points in one answer, and the most ids in one call.
pub const MAX_LIMIT: u32 = 50;
/// Longest accepted `query`, in characters.
const MAX_QUERY_CHARS: usize = 100;

/// The `bikePoints` tool.
#[derive(Debug, Clone, Copy)]
pub struct BikePoints;

impl Tool for BikePoints {
    type Input = BikePointsRequest;
    type Output = BikePointsResponse;
    const SPEC: ToolSpec = ToolSpec {
        name: "bikePoints",
        title: "London cycle hire docks",
        description: "Santander Cycles hire bike docks in London (TfL): bikes, e-bikes and free spaces \
now, near a point, by name or by id.",
        summary: "Santander Cycles docks near a point, by name or by id (TfL): bikes, e-bikes and free docks now",
        needs: "nothing (`TFL_API_KEY` raises TfL's limit from 50 to 500 requests a minute)",
        toolset: Toolset::Tfl,
        annotations: Annotations::READ_ONLY_REMOTE,
    };

    async fn run(toolpack: &Toolpack, input: Self::Input) -> Self::Output {
        let search = match Search::of(&input) {
            Ok(search) => search,
            Err(message) => return BikePointsResponse::error(TflCode::ValidationError, message),
        };
        match upstream::get_shared::<Docks>(toolpack, AnswerKind::Bikes, "/BikePoint", &[]).await {
            Ok(docks) => answer(&docks.0, &search),
            Err(failure) => BikePointsResponse::error(TflCode::from(&failure), failure.message()),
        }
    }
}

crate::tfl::tfl_tool_output!(
    BikePointsResponse,
    TflCode,
    "Unexpected error while finding bike points.",
    live
);

/// Which bike points the call asks for, and how many of what each must have.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Search {
    by: By,
    min_bikes: u32,
    min_e_bikes: u32,
    min_docks: u32,
    limit: usize,
}

#[derive(Debug, Clone, PartialEq)]
enum By {
    /// Within `radius` metres of (lat, lon).
    Near { lat: f64, lon: f64, radius: f64 },
    /// Every word, in lower case, in the name.
    Name(Vec<String>),
    /// These ids, in this order.
    Ids(Vec<String>),
}

impl Search {
    /// The search a request asks for, or why it is not one.
    pub(crate) fn of(input: &BikePointsRequest) -> Result<Self, String> {
        let point = input.lat.is_some() || input.lon.is_some();
        let given = [point, input.query.is_some(), input.ids.is_some()]
            .into_iter()
            .filter(|given| *given)
            .count();
        if given != 1 {
            return Err("Give exactly one of 'lat' and 'lon', 'query', or 'ids'.".into());
        }
        if input.radius.is_some() && !point {
            return Err("Field 'radius' needs 'lat' and 'lon'.".into());
        }
        let by = if point {
            let (lat, lon, radius) = checks::point(
                input.lat,
                input.lon,
                input.radius,
                DEFAULT_RADIUS_M,
                MAX_RADIUS_M,
            )?;
            By::Near {
                lat,
                lon,
                radius: f64::from(radius),
            }
        } else if let Some(query) = &input.query {
            let query = query.trim();
            if query.chars().count() > MAX_QUERY_CHARS {
                return Err(format!(
                    "Field 'query' must be at most {MAX_QUERY_CHARS} characters."
                ));
            }
            let words = words(query);
            if words.is_empty() {
                return Err("Field 'query' must contain letters or digits.".into());
            }
            By::Name(words)
        } else {
            let ids = input.ids.as_deref().unwrap_or_default();
            if ids.is_empty() || ids.len() > MAX_LIMIT as usize {
                return Err(format!("Field 'ids' must list 1 to {MAX_LIMIT} ids."));
            }
            let mut unique: Vec<String> = Vec::new();
            for id in ids {
                let id = id.trim();
                if id.is_empty() || id.chars().any(char::is_control) {
                    return Err("Field 'ids' must not hold a blank id.".into());
                }
                if !unique.iter().any(|u| u == id) {
                    unique.push(id.to_owned());
                }
            }
            By::Ids(unique)
        };
        let limit = input.limit.unwrap_or(DEFAULT_LIMIT);
        if limit == 0 || limit > MAX_LIMIT {
            return Err(format!("Field 'limit' must be between 1 and {MAX_LIMIT}."));
        }
        Ok(Self {
            by,
            min_bikes: input.min_bikes.unwrap_or(0),
            min_e_bikes: input.min_e_bikes.unwrap_or(0),
            min_docks: input.min_docks.unwrap_or(0),
            limit: limit as usize,
        })
    }

    fn enough(&self, dock: &Dock) -> bool {
        dock.bikes >= self.min_bikes
            && dock.e_bikes >= self.min_e_bikes
            && dock.empty_docks >= self.min_docks
    }
}

/// The words of a name, in lower case, without punctuation.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The answer to `search` over every dock: the tool's own work once TfL's answer is read.
/// A dock reading older than this is `outdated`: the counts may no longer hold.
const OUTDATED_AFTER: jiff::SignedDuration = jiff::SignedDuration::from_hours(1);

/// What a person asking "where can I get a bike" hears: the first dock with its bikes,
/// e-bikes and free docks, and whether its reading is old; how many more.
fn bike_points_message(points: &[BikePoint], by: &By) -> String {
    let Some(first) = points.first() else {
        return match by {
            By::Near { radius, .. } => {
                format!("No bike point within {radius} m has what was asked for.")
            }
            _ => "No bike point has what was asked for.".to_owned(),
        };
    };
    let away = first
        .distance
        .map(|m| format!(", {m} m away"))
        .unwrap_or_default();
    let e_bikes = match first.e_bikes {
        0 => String::new(),
        n => format!(" ({n} e-bikes)"),
    };
    let mut message = format!(
        "{}{away}: {} bikes{e_bikes}, {} free docks.",
        first.name, first.bikes, first.empty_docks
    );
    if !first.available {
        message.push_str(" It is not in service now.");
    }
    if first.outdated == Some(true) {
        let when = first
            .updated
            .as_deref()
            .and_then(|t| t.get(..10))
            .unwrap_or("long ago");
        message.push_str(&format!(" Its counts are an old reading, from {when}."));
    }
    message.push_str(&more(points.len() - 1, "bike point", "bike points"));
    message
}

pub(crate) fn answer(docks: &[Dock], search: &Search) -> BikePointsResponse {
    let mut found: Vec<(Option<f64>, &Dock)> = match &search.by {
        By::Near { lat, lon, radius } => {
            // A cheap box first: a degree of latitude is about 111 km everywhere, one of
            // longitude shrinks with the latitude's cosine.
            let dlat = radius / 111_000.0;
            let dlon = radius / (111_000.0 * lat.to_radians().cos().max(0.01));
            let mut near: Vec<(f64, &Dock)> = docks
                .iter()
                .filter(|d| (d.lat - lat).abs() <= dlat && (d.lon - lon).abs() <= dlon)
                .map(|d| (crate::geo::distance_m((*lat, *lon), (d.lat, d.lon)), d))
                .filter(|(distance, _)| distance <= radius)
                .collect();
            near.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.id.cmp(&b.1.id)));
            near.into_iter().map(|(m, d)| (Some(m), d)).collect()
        }
        By::Name(wanted) => {
            let mut named: Vec<(Option<f64>, &Dock)> = docks
                .iter()
                .filter(|d| {
                    let name = words(&d.name);
                    wanted
                        .iter()
                        .all(|w| name.iter().any(|n| n.starts_with(w.as_str())))
                })
                .map(|d| (None, d))
                .collect();
            if named.is_empty() {
                return BikePointsResponse::error(
                    TflCode::BikePointNotFound,
                    "No bike point has a name with every word of the query.",
                );
            }
            named.sort_by(|a, b| a.1.name.cmp(&b.1.name).then_with(|| a.1.id.cmp(&b.1.id)));
            named
        }
        By::Ids(ids) => {
            let unknown: Vec<&str> = ids
                .iter()
                .filter(|id| !docks.iter().any(|d| d.id == **id))
                .map(String::as_str)
                .collect();
            if !unknown.is_empty() {
                return BikePointsResponse::error(
                    TflCode::BikePointNotFound,
                    format!(
                        "TfL knows no bike point with the id {}.",
                        unknown.join(", ")
                    ),
                );
            }
            ids.iter()
                .filter_map(|id| docks.iter().find(|d| d.id == *id))
                .map(|d| (None, d))
                .collect()
        }
    };
    found.retain(|(_, dock)| search.enough(dock));
    found.truncate(search.limit);
    let now = jiff::Timestamp::now();
    let bike_points: Vec<BikePoint> = found
        .into_iter()
        .map(|(distance, d)| BikePoint {
            id: d.id.clone(),
            name: d.name.clone(),
            lat: six_decimals(d.lat),
            lon: six_decimals(d.lon),
            distance: distance.map(|m| m.round() as u32),
            bikes: d.bikes,
            standard_bikes: d.standard_bikes,
            e_bikes: d.e_bikes,
            empty_docks: d.empty_docks,
            docks: d.docks,
            broken_docks: d.docks.saturating_sub(d.bikes + d.empty_docks),
            available: d.available,
            updated: d.updated.as_deref().map(london_iso_of_utc),
            outdated: d
                .updated
                .as_deref()
                .and_then(|t| t.parse::<jiff::Timestamp>().ok())
                .filter(|at| now.duration_since(*at) > OUTDATED_AFTER)
                .map(|_| true),
        })
        .collect();
    let message = bike_points_message(&bike_points, &search.by);
    BikePointsResponse {
        served: None,
        success: true,
        code: TflCode::Ok,
        message,
        bike_points: Some(bike_points),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(json: &str) -> Result<Search, String> {
        Search::of(&serde_json::from_str::<BikePointsRequest>(json).unwrap())
    }

    #[test]
    fn exactly_one_way_to_search() {
        for (json, message) in [
            (
                "{}",
                "Give exactly one of 'lat' and 'lon', 'query', or 'ids'.",
            ),
            (
                r#"{"lat": 51.5, "lon": -0.1, "query": "x"}"#,
                "Give exactly one of 'lat' and 'lon', 'query', or 'ids'.",
            ),
            (r#"{"lat": 51.5}"#, "Give both 'lat' and 'lon'."),
            (
                r#"{"query": "x", "radius": 100}"#,
                "Field 'radius' needs 'lat' and 'lon'.",
            ),
            (
                r#"{"lat": 51.5, "lon": -0.1, "radius": 2001}"#,
                "Field 'radius' must be between 1 and 2000 metres.",
            ),
            (
                r#"{"lat": 91, "lon": 0}"#,
                "Field 'lat' must be between -90 and 90, and 'lon' between -180 and 180.",
            ),
            (
                r#"{"query": " ,. "}"#,
                "Field 'query' must contain letters or digits.",
            ),
            (r#"{"ids": []}"#, "Field 'ids' must list 1 to 50 ids."),
            (
                r#"{"ids": ["a"], "limit": 0}"#,
                "Field 'limit' must be between 1 and 50.",
            ),
        ] {
            assert_eq!(request(json).unwrap_err(), message, "{json}");
        }
        let near = request(r#"{"lat": 51.5, "lon": -0.1}"#).unwrap();
        assert_eq!(near.limit, 10);
        assert!(matches!(near.by, By::Near { radius, .. } if radius == 500.0));
    }
}
