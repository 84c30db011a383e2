//! `get_stop_info`: what a stop or station is and what runs there (OTP `stop` /
//! `station` with its routes, patterns and alerts), in one request.

mod types;

pub use types::{GetStopInfoRequest, GetStopInfoResult, StopDetails, StopPattern, StopRoute};

use serde::Deserialize;
use serde_json::json;

use super::alerts::wire::{OtpAlert, OtpRoute, in_order};
use super::alerts::{Alert, alert_clause};
use super::departures::{no_such_stop, stop_id};
use super::place::{Language, contract_mode};
use super::response::{DigitransitResponse, Failure};
use super::upstream::{self, UpstreamFailure};
use crate::Toolpack;
use crate::config::Config;
use crate::http::AnswerKind;
use crate::tool::{Tool, ToolSpec};

/// The query sent (also checked against the OTP schema in tests).
pub const QUERY: &str = concat!(
    include_str!("../queries/stop_info.graphql"),
    include_str!("../queries/fragments/alert.graphql")
);

/// The `get_stop_info` tool.
#[derive(Debug, Clone, Copy)]
pub struct GetStopInfo;

crate::tool::live_bodies!(GetStopInfoResult);

impl Tool for GetStopInfo {
    type Input = GetStopInfoRequest;
    type Output = DigitransitResponse<GetStopInfoResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "get_stop_info",
        title: "A stop's lines in Finland",
        description: "Which lines serve a stop or station in Finland, their directions, wheelchair access and \
the alerts in effect.",
        summary: "A stop's lines, directions, accessibility and active alerts",
        ..upstream::LIVE_TOOL
    };

    fn missing_prerequisite(config: &Config) -> Option<String> {
        upstream::missing_key(config)
    }

    async fn run(toolpack: &Toolpack, input: Self::Input) -> Self::Output {
        DigitransitResponse::answer(|id| stop_info(toolpack, input, id)).await
    }
}

#[derive(Debug, Deserialize)]
struct Data {
    stop: Option<OtpStop>,
    #[serde(default)]
    station: Option<OtpStop>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct OtpStop {
    gtfs_id: String,
    name: Option<String>,
    code: Option<String>,
    platform_code: Option<String>,
    vehicle_mode: Option<String>,
    wheelchair_boarding: Option<String>,
    lat: f64,
    lon: f64,
    #[serde(default)]
    routes: Option<Vec<OtpRoute>>,
    #[serde(default)]
    patterns: Option<Vec<OtpPattern>>,
    #[serde(default)]
    alerts: Option<Vec<Option<OtpAlert>>>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct OtpPattern {
    headsign: Option<String>,
    direction_id: Option<i64>,
    route: OtpRoute,
}

impl From<OtpRoute> for StopRoute {
    fn from(route: OtpRoute) -> Self {
        Self {
            gtfs_id: route.gtfs_id,
            short_name: route.short_name,
            long_name: route.long_name,
            mode: contract_mode(route.mode.as_deref().unwrap_or("BUS")),
        }
    }
}

async fn stop_info(
    toolpack: &Toolpack,
    input: GetStopInfoRequest,
    correlation_id: String,
) -> Result<GetStopInfoResult, Failure> {
    let id = stop_id(toolpack, &input.stop).await?;
    let info = stop_info_of(toolpack, &id, input.language.unwrap_or(Language::En)).await?;
    let Some(info) = &info.0 else {
        return Err(no_such_stop(&id));
    };
    Ok(GetStopInfoResult {
        message: stop_message(&info.stop, &info.routes, &info.alerts),
        stop: info.stop.clone(),
        routes: info.routes.clone(),
        patterns: info.patterns.clone(),
        alerts: info.alerts.clone(),
        correlation_id,
        served: None,
    })
}

/// The most lines the message names.
const LINES_SAID: usize = 8;

/// What a person asking about a stop hears: its name and code, the lines serving it,
/// whether boarding is step-free, and its most severe alert.
fn stop_message(stop: &StopDetails, routes: &[StopRoute], alerts: &[Alert]) -> String {
    let code = stop
        .code
        .as_deref()
        .map(|c| format!(" ({c})"))
        .unwrap_or_default();
    let lines: Vec<&str> = routes
        .iter()
        .filter_map(|r| r.short_name.as_deref())
        .take(LINES_SAID)
        .collect();
    let served = match (lines.len(), routes.len()) {
        (_, 0) => "no line serves it".to_owned(),
        (0, n) => format!("{n} routes serve it"),
        (said, n) if said < n => format!("lines {} and {} more", lines.join(", "), n - said),
        _ => format!("lines {}", lines.join(", ")),
    };
    let boarding = match stop.wheelchair_boarding.as_str() {
        "POSSIBLE" => " Step-free boarding.",
        "NOT_POSSIBLE" => " No step-free boarding.",
        _ => "",
    };
    let mut message = format!("{}{code}: {served}.{boarding}", stop.name);
    message.push_str(&alert_clause(
        alerts.first().map(|a| a.header.as_str()),
        alerts.len(),
    ));
    message
}

/// What OTP says of the stop or station `id`: one shared upstream answer. It carries the
/// stop's alerts, so it is kept as long as alerts are (60 s), not as long as a place (12 h).
async fn stop_info_of(
    toolpack: &Toolpack,
    id: &str,
    language: Language,
) -> Result<std::sync::Arc<StopInfo>, Failure> {
    upstream::graphql_shaped(
        toolpack,
        AnswerKind::Disruptions,
        QUERY,
        "StopInfo",
        json!({ "id": id }),
        language,
        StopInfo::of,
    )
    .await
    .map_err(UpstreamFailure::for_routing)
}

/// The stop or station `id` (none when no stop has that id), as `get_stop_info` reads it.
pub(super) async fn stop_details(
    toolpack: &Toolpack,
    id: &str,
) -> Result<Option<StopDetails>, Failure> {
    let info = stop_info_of(toolpack, id, Language::En).await?;
    Ok(info.0.as_ref().map(|shaped| shaped.stop.clone()))
}

/// A stop's answer in the contract's form, when the id named a stop or station: made once
/// per upstream answer, for every caller it serves.
struct StopInfo(Option<Shaped>);

struct Shaped {
    stop: StopDetails,
    routes: Vec<StopRoute>,
    patterns: Vec<StopPattern>,
    alerts: Vec<Alert>,
}

impl StopInfo {
    fn of(data: Data) -> Self {
        Self(data.stop.or(data.station).map(Shaped::of))
    }
}

impl Shaped {
    fn of(stop: OtpStop) -> Self {
        let mut routes: Vec<StopRoute> = stop
            .routes
            .unwrap_or_default()
            .into_iter()
            .map(StopRoute::from)
            .collect();
        routes.sort_by(by_line);
        routes.dedup_by(|a, b| a.gtfs_id == b.gtfs_id);
        let mut patterns: Vec<StopPattern> = stop
            .patterns
            .unwrap_or_default()
            .into_iter()
            .map(|p| StopPattern {
                headsign: p.headsign,
                direction_id: p.direction_id,
                route: p.route.into(),
            })
            .collect();
        patterns.sort_by(|a, b| {
            by_line(&a.route, &b.route)
                .then_with(|| a.direction_id.cmp(&b.direction_id))
                .then_with(|| a.headsign.cmp(&b.headsign))
        });
        patterns.dedup();
        let mut alerts = in_order(stop.alerts);
        alerts.dedup_by(|a, b| a.id == b.id);
        Self {
            stop: StopDetails {
                name: stop.name.unwrap_or_else(|| stop.gtfs_id.clone()),
                gtfs_id: stop.gtfs_id,
                code: stop.code,
                platform: stop.platform_code,
                mode: stop.vehicle_mode.as_deref().map(contract_mode),
                wheelchair_boarding: stop
                    .wheelchair_boarding
                    .unwrap_or_else(|| "NO_INFORMATION".to_owned()),
                lat: stop.lat,
                lon: stop.lon,
            },
            routes,
            patterns,
            alerts,
        }
    }
}

/// Routes as riders look for them: by short name, numbers in number order (`7` before
/// `55`), then by id.
fn by_line(a: &StopRoute, b: &StopRoute) -> std::cmp::Ordering {
    let key = |r: &StopRoute| {
        let name = r.short_name.clone().unwrap_or_default();
        let digits = name.chars().take_while(char::is_ascii_digit).count();
        (
            name[..digits].parse::<u64>().unwrap_or(u64::MAX),
            name,
            r.gtfs_id.clone(),
        )
    };
    key(a).cmp(&key(b))
}
