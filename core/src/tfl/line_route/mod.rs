//! `lineRoute`: a line's branches and their stops in order, from the TfL Unified API
//! (`GET /Line/{id}/Route/Sequence/{direction}`).

mod types;

pub use types::{
    LineRouteRequest, LineRouteResponse, RouteBranch, RouteDirection, RouteLine, RouteStop,
    ServiceType,
};

use std::sync::Arc;

use serde::Deserialize;

use crate::Toolpack;
use crate::http::AnswerKind;
use crate::tfl::checks::line_id;
use crate::tfl::line_status::{retired, unknown_lines};
use crate::tfl::stop_point::{NamedStop, names_by_id};
use crate::tfl::upstream::{self, Failure};
use crate::tfl::{TflCode, lenient};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

/// The `lineRoute` tool.
#[derive(Debug, Clone, Copy)]
pub struct LineRoute;

impl Tool for LineRoute {
    type Input = LineRouteRequest;
    type Output = LineRouteResponse;
    const SPEC: ToolSpec = ToolSpec {
        name: "lineRoute",
        title: "A London line's stops in order",
        description: "Which stations a London line calls at, in order, each branch a route (TfL): \
tube, rail, DLR or bus route.",
        summary: "A London line's stops in order, one route per branch (TfL)",
        needs: "nothing (`TFL_API_KEY` raises TfL's limit from 50 to 500 requests a minute)",
        toolset: Toolset::Tfl,
        annotations: Annotations::READ_ONLY_REMOTE,
    };

    async fn run(toolpack: &Toolpack, input: Self::Input) -> Self::Output {
        let line = match line_id(&input.line) {
            Ok(line) => line,
            Err(message) => return LineRouteResponse::error(TflCode::ValidationError, message),
        };
        let ids = [line.clone()];
        if retired(&line).is_some() {
            return not_found(toolpack, &ids, None).await;
        }
        let direction = input.direction.unwrap_or(RouteDirection::Outbound).as_str();
        let service_type = match input.service_type.unwrap_or(ServiceType::Regular) {
            ServiceType::Regular => "Regular",
            ServiceType::Night => "Night",
        };
        let path = format!("/Line/{line}/Route/Sequence/{direction}");
        let query = [("serviceTypes", service_type), ("excludeCrowding", "true")];
        match upstream::get::<Sequence>(toolpack, AnswerKind::Places, &path, &query).await {
            Ok(sequence) => answer(sequence, &line),
            Err(Failure::NotFound(said)) => not_found(toolpack, &ids, said).await,
            Err(failure) => LineRouteResponse::error(TflCode::from(&failure), failure.message()),
        }
    }
}

crate::tfl::tfl_tool_output!(
    LineRouteResponse,
    TflCode,
    "Unexpected error while getting the line's route.",
    live
);

/// The names of the stations `line` calls at going `direction` (its regular service), in
/// TfL's order, each once: the same upstream answer `lineRoute` reads.
pub(crate) async fn station_names(
    toolpack: &Toolpack,
    line: &str,
    direction: RouteDirection,
) -> Result<Vec<String>, Failure> {
    let path = format!("/Line/{line}/Route/Sequence/{}", direction.as_str());
    let query = [("serviceTypes", "Regular"), ("excludeCrowding", "true")];
    let sequence: Arc<Sequence> =
        upstream::get_shared(toolpack, AnswerKind::Places, &path, &query).await?;
    let mut names: Vec<String> = Vec::new();
    for stop in sequence.stops() {
        if let Some(name) = stop.name.as_deref().map(clean)
            && !names.contains(&name)
        {
            names.push(name);
        }
    }
    Ok(names)
}

async fn not_found(toolpack: &Toolpack, ids: &[String], said: Option<String>) -> LineRouteResponse {
    let (message, suggestions) = unknown_lines(toolpack, ids, said.as_deref()).await;
    LineRouteResponse {
        suggestions: Some(suggestions),
        ..LineRouteResponse::error(TflCode::LineNotFound, message)
    }
}

/// TfL's `RouteSequence`, read leniently: the ordered routes name their stops by id only,
/// and the stop sequences and the station list give the names.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Sequence {
    #[serde(default, deserialize_with = "lenient::string")]
    line_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    line_name: Option<String>,
    #[serde(default, deserialize_with = "lenient::list")]
    stop_point_sequences: Vec<StopSequence>,
    #[serde(default, deserialize_with = "lenient::list")]
    stations: Vec<NamedStop>,
    #[serde(default, deserialize_with = "lenient::list")]
    ordered_line_routes: Vec<OrderedRoute>,
}

impl Sequence {
    /// Every stop the answer names: its stop sequences', then its stations.
    fn stops(&self) -> impl Iterator<Item = &NamedStop> {
        self.stop_point_sequences
            .iter()
            .flat_map(|s| &s.stop_point)
            .chain(&self.stations)
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct StopSequence {
    #[serde(default, deserialize_with = "lenient::list")]
    stop_point: Vec<NamedStop>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct OrderedRoute {
    #[serde(default, deserialize_with = "lenient::string")]
    name: Option<String>,
    #[serde(default, deserialize_with = "lenient::list")]
    naptan_ids: Vec<String>,
}

fn answer(sequence: Sequence, asked: &str) -> LineRouteResponse {
    let names = names_by_id(sequence.stops());
    let routes: Vec<RouteBranch> = sequence
        .ordered_line_routes
        .iter()
        .map(|route| RouteBranch {
            name: clean(route.name.as_deref().unwrap_or_default()),
            stops: route
                .naptan_ids
                .iter()
                .map(|id| RouteStop {
                    id: id.clone(),
                    name: names
                        .get(id.as_str())
                        .map_or_else(|| id.clone(), |n| clean(n)),
                })
                .collect(),
        })
        .collect();
    let id = sequence.line_id.unwrap_or_else(|| asked.to_owned());
    let name = sequence.line_name.unwrap_or_else(|| id.clone());
    let message = route_message(&name, &routes);
    LineRouteResponse {
        served: None,
        success: true,
        code: TflCode::Ok,
        message,
        line: Some(RouteLine { id, name }),
        routes: Some(routes),
        suggestions: None,
    }
}

/// The most branches the message names.
const BRANCHES_SAID: usize = 4;

/// What a person asking "where does it go" hears: each branch, end to end, with its count
/// of stops.
fn route_message(line: &str, routes: &[RouteBranch]) -> String {
    if routes.is_empty() {
        return format!("{line}: TfL lists no route for this direction and service.");
    }
    let branches: Vec<String> = routes
        .iter()
        .take(BRANCHES_SAID)
        .map(|r| format!("{} ({} stops)", r.name, r.stops.len()))
        .collect();
    let more = match routes.len().saturating_sub(BRANCHES_SAID) {
        0 => String::new(),
        n => format!("; {n} more"),
    };
    match routes.len() {
        1 => format!("{line}: {}.", branches.join("")),
        n => format!("{line}, {n} branches: {}{more}.", branches.join("; ")),
    }
}

/// A name as TfL writes it, made plain: the HTML entities TfL leaves in route names
/// ("Walthamstow Central  &harr;  Brixton ") decoded, and runs of spaces made one.
fn clean(name: &str) -> String {
    let decoded = name
        .replace("&harr;", "↔")
        .replace("&rarr;", "→")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&apos;", "'")
        .replace("&amp;", "&");
    decoded.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lose_entities_and_extra_spaces() {
        assert_eq!(
            clean("Walthamstow Central  &harr;  Brixton "),
            "Walthamstow Central ↔ Brixton"
        );
        assert_eq!(clean("Bank Station  / Cornhill"), "Bank Station / Cornhill");
        assert_eq!(clean("Elephant &amp; Castle"), "Elephant & Castle");
    }

    #[test]
    fn stops_are_named_from_the_sequences_and_the_stations() {
        let sequence: Sequence = serde_json::from_str(
            r#"{"$type":"RouteSequence","lineId":"central","lineName":"Central","direction":"outbound",
                "stopPointSequences":[{"stopPoint":[{"id":"940GZZLUOXC","name":"Oxford Circus Underground Station"}]}],
                "stations":[{"id":"940GZZLUBNK","name":"Bank Underground Station"},{"stationId":"940GZZLUEPG","name":"Epping"}],
                "orderedLineRoutes":[{"name":"A - B","naptanIds":["940GZZLUOXC","940GZZLUBNK","940GZZLUEPG","940GZZLUXXX"],"serviceType":"Regular"}]}"#,
        )
        .unwrap();
        let answer = answer(sequence, "central");
        let stops = &answer.routes.unwrap()[0].stops;
        let names: Vec<&str> = stops.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "Oxford Circus Underground Station",
                "Bank Underground Station",
                "Epping",
                "940GZZLUXXX"
            ]
        );
        assert_eq!(answer.message, "Central: A - B (4 stops).");
    }
}
