//! `find_stops`: stops within a walking radius of a point (OTP `stopsByRadius`), with
//! optional text and mode filters.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::place::{Coordinate, Language, MaxResults, checked_range, checked_text, contract_mode};
use super::response::{DigitransitResponse, Failure, Warning, WarningCode, warnings};
use super::upstream::{self, UpstreamFailure};
use crate::Toolpack;
use crate::config::Config;
use crate::http::AnswerKind;
use crate::tool::{Tool, ToolSpec};
use crate::words::more;

/// The query sent (also checked against the OTP schema in tests).
pub const QUERY: &str = include_str!("queries/find_stops.graphql");
/// Most stops returned; a larger `maxResults` is capped with a warning.
pub const MAX_RESULTS: i64 = 25;
/// Stops asked of the router when a filter will drop some.
pub const FILTER_POOL: usize = 100;
/// The modes `includeModes` accepts (the contracts' names).
pub const MODES: [&str; 7] = [
    "BUS",
    "TRAM",
    "RAIL",
    "METRO",
    "FERRY",
    "AIRPLANE",
    "FUNICULAR",
];

/// `find_stops` arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FindStopsRequest {
    /// The coordinate.
    ///
    /// Where to look from.
    pub coordinate: Coordinate,
    /// Metres, 1..3000 (default 500).
    ///
    /// Walking radius in metres, 1..3000 (default 500).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<i64>,
    /// Default 10, at most 25.
    ///
    /// Most stops returned (default 10; above 25 it is capped with a warning).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_results: Option<i64>,
    /// Only stops whose name or code contains this.
    ///
    /// Keep stops whose name or code contains this text (case-insensitive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text_filter: Option<String>,
    /// The language.
    ///
    /// Language of stop names: `fi`, `sv` or `en` (default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<Language>,
    /// Only BUS, TRAM, RAIL, METRO, FERRY, AIRPLANE or FUNICULAR stops.
    ///
    /// Keep stops served by one of these modes: BUS, TRAM, RAIL, METRO, FERRY, AIRPLANE, FUNICULAR.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_modes: Option<Vec<String>>,
}

/// A stop near the point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct NearbyStop {
    /// The OTP stop id (what `get_departures` takes), e.g. `HSL:1020444`.
    pub id: String,
    /// The stop's name.
    pub name: String,
    /// Where it is.
    pub coordinate: Coordinate,
    /// Walking distance in metres.
    pub distance: f64,
    /// Modes serving it.
    pub modes: Vec<String>,
    /// The stop's short code shown on its sign, e.g. `H0101`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Platform or track, when the stop is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
    /// The stop's description (usually its street address).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
}

/// `find_stops` success body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct FindStopsResult {
    /// The answer in words: the nearest stop, its code and id, how far and what serves it,
    /// and how many more.
    pub message: String,
    /// Stops, nearest first (then by name and id).
    pub stops: Vec<NearbyStop>,
    /// The call's correlation id (UUID).
    pub correlation_id: String,
    /// Notes (`truncated-results`, `no-matches-after-filter`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warnings: Option<Vec<Warning>>,
    /// When the upstream answer was fetched, and whether it is stale.
    #[serde(flatten)]
    pub served: Option<crate::http::ServedFields>,
}

/// The `find_stops` tool.
#[derive(Debug, Clone, Copy)]
pub struct FindStops;

crate::tool::live_bodies!(FindStopsResult);

impl Tool for FindStops {
    type Input = FindStopsRequest;
    type Output = DigitransitResponse<FindStopsResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "find_stops",
        title: "Stops near a point in Finland",
        description: "Public transport stops within walking distance of a point in Finland, nearest first, \
with the ids get_departures takes.",
        summary: "Stops within walking distance of a point, text and mode filters",
        ..upstream::LIVE_TOOL
    };

    fn missing_prerequisite(config: &Config) -> Option<String> {
        upstream::missing_key(config)
    }

    async fn run(toolpack: &Toolpack, input: Self::Input) -> Self::Output {
        DigitransitResponse::answer(|id| find(toolpack, input, id)).await
    }
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Data {
    stops_by_radius: Option<Connection>,
}

#[derive(Debug, Deserialize)]
struct Connection {
    #[serde(default)]
    edges: Vec<Edge>,
}

#[derive(Debug, Deserialize)]
struct Edge {
    node: Node,
}

#[derive(Debug, Deserialize)]
struct Node {
    distance: Option<f64>,
    stop: Option<Stop>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Stop {
    gtfs_id: String,
    name: Option<String>,
    code: Option<String>,
    platform_code: Option<String>,
    desc: Option<String>,
    lat: f64,
    lon: f64,
    vehicle_mode: Option<String>,
}

async fn find(
    toolpack: &Toolpack,
    input: FindStopsRequest,
    correlation_id: String,
) -> Result<FindStopsResult, Failure> {
    input.coordinate.validate("coordinate")?;
    let radius = checked_range("radius", input.radius, 1..=3000, 500)?;
    let asked = MaxResults::checked(input.max_results, 10, MAX_RESULTS)?;
    let max_results = asked.limit();
    let text = input
        .text_filter
        .as_deref()
        .map(|t| checked_text("textFilter", t, 100).map(str::to_lowercase))
        .transpose()?;
    let modes = checked_modes(input.include_modes.as_deref().unwrap_or_default())?;
    let filtering = text.is_some() || !modes.is_empty();
    let first = if filtering {
        FILTER_POOL
    } else {
        max_results + 1
    };
    let variables = json!({
        "lat": input.coordinate.lat,
        "lon": input.coordinate.lon,
        "radius": radius,
        "first": first,
    });
    let language = input.language.unwrap_or_default();
    let data = upstream::graphql(
        toolpack,
        AnswerKind::Places,
        QUERY,
        "FindStops",
        variables,
        language,
    )
    .await
    .map_err(UpstreamFailure::for_routing)?;
    let data: Data = serde_json::from_value(data).map_err(|e| {
        UpstreamFailure::Malformed(format!("stops of another shape ({e})")).for_routing()
    })?;
    let found: Vec<NearbyStop> = data
        .stops_by_radius
        .map(|c| c.edges)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|edge| nearby(edge.node))
        .collect();
    let before_filter = found.len();
    let mut stops: Vec<NearbyStop> = found
        .into_iter()
        .filter(|stop| matches(stop, text.as_deref(), &modes))
        .collect();
    stops.sort_by(|a, b| {
        a.distance
            .total_cmp(&b.distance)
            .then_with(|| a.name.cmp(&b.name))
            .then_with(|| a.id.cmp(&b.id))
    });
    let mut notes = Vec::new();
    if let Some(capped) = asked.capped() {
        notes.push(capped);
    } else if stops.len() > max_results {
        notes.push(Warning::new(
            WarningCode::TruncatedResults,
            format!("More stops are in range; the nearest {max_results} are returned."),
        ));
    }
    stops.truncate(max_results);
    if stops.is_empty() && before_filter > 0 {
        notes.push(Warning::new(
            WarningCode::NoMatchesAfterFilter,
            format!("{before_filter} stops are in range, but none passed the filters."),
        ));
    }
    Ok(FindStopsResult {
        message: stops_message(&stops),
        served: None,
        stops,
        correlation_id,
        warnings: warnings(notes),
    })
}

/// What a person asking "where is the nearest stop" hears: the nearest one, its code and
/// id (what `get_departures` takes), how far, what serves it, and how many more.
fn stops_message(stops: &[NearbyStop]) -> String {
    let Some(nearest) = stops.first() else {
        return "No stop within the radius.".to_owned();
    };
    let code = nearest
        .code
        .as_deref()
        .map(|c| format!("{c}, "))
        .unwrap_or_default();
    let modes = if nearest.modes.is_empty() {
        String::new()
    } else {
        format!(", {}", nearest.modes.join("/").to_lowercase())
    };
    let mut message = format!(
        "Nearest: {} ({code}{}), {:.0} m{modes}.",
        nearest.name, nearest.id, nearest.distance
    );
    message.push_str(&more(stops.len() - 1, "stop", "stops"));
    message
}

fn nearby(node: Node) -> Option<NearbyStop> {
    let stop = node.stop?;
    let coordinate = Coordinate::new(stop.lat, stop.lon);
    Some(NearbyStop {
        name: stop.name.unwrap_or_else(|| stop.gtfs_id.clone()),
        id: stop.gtfs_id,
        coordinate,
        distance: node.distance.unwrap_or_default(),
        modes: stop
            .vehicle_mode
            .as_deref()
            .map(contract_mode)
            .into_iter()
            .collect(),
        code: stop.code,
        platform: stop.platform_code,
        address: stop.desc,
    })
}

fn matches(stop: &NearbyStop, text: Option<&str>, modes: &[String]) -> bool {
    let text_ok = text.is_none_or(|t| {
        stop.name.to_lowercase().contains(t)
            || stop
                .code
                .as_deref()
                .is_some_and(|c| c.to_lowercase().contains(t))
    });
    let mode_ok = modes.is_empty() || stop.modes.iter().any(|m| modes.contains(m));
    text_ok && mode_ok
}

fn checked_modes(modes: &[String]) -> Result<Vec<String>, Failure> {
    modes
        .iter()
        .map(|mode| {
            let upper = contract_mode(&mode.trim().to_uppercase());
            if MODES.contains(&upper.as_str()) {
                Ok(upper)
            } else {
                Err(Failure::validation(format!(
                    "includeModes takes {}; got '{mode}'.",
                    MODES.join(", ")
                )))
            }
        })
        .collect()
}
