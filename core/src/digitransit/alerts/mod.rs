//! `get_alerts`: the service alerts in effect or announced (OTP `alerts`), filtered by
//! route, stop and severity. The router's alerts are fetched whole, so one upstream
//! answer serves every caller; the filters are applied here.

mod types;
pub(crate) mod wire;

pub use types::{
    Alert, AlertRoute, AlertStatus, AlertStop, AlertSummary, GetAlertsRequest, GetAlertsResult,
};

use serde::Deserialize;
use serde_json::json;

use super::place::{Language, MaxResults, checked_text};
use super::response::{DigitransitResponse, Failure, Warning, WarningCode, warnings};
use super::upstream::{self, UpstreamFailure};
use crate::Toolpack;
use crate::config::Config;
use crate::http::AnswerKind;
use crate::tool::{Tool, ToolSpec};
use wire::{OtpAlert, Period, SEVERITIES, listing_order, rank};

/// The query sent (also checked against the OTP schema in tests).
pub const QUERY: &str = concat!(
    include_str!("../queries/alerts.graphql"),
    include_str!("../queries/fragments/alert.graphql")
);
/// Most alerts returned; a larger `maxResults` is capped with a warning.
pub const MAX_RESULTS: i64 = 100;
/// Most routes or stops a filter takes.
pub const MAX_FILTER_IDS: usize = 20;
/// Longest route or stop in a filter, in characters.
pub const MAX_ID_CHARS: usize = 100;

/// The `get_alerts` tool.
#[derive(Debug, Clone, Copy)]
pub struct GetAlerts;

crate::tool::live_bodies!(GetAlertsResult);

impl Tool for GetAlerts {
    type Input = GetAlertsRequest;
    type Output = DigitransitResponse<GetAlertsResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "get_alerts",
        title: "Disruptions in Finland",
        description: "Service alerts and disruptions in Finland: detours, closed stops, cancellations, by \
route (tram 4, bus 550), stop or severity.",
        summary: "Disruptions and service alerts, by route, stop or severity",
        ..upstream::LIVE_TOOL
    };

    fn missing_prerequisite(config: &Config) -> Option<String> {
        upstream::missing_key(config)
    }

    async fn run(toolpack: &Toolpack, input: Self::Input) -> Self::Output {
        DigitransitResponse::answer(|id| alerts(toolpack, input, id)).await
    }
}

#[derive(Debug, Deserialize)]
struct Data {
    #[serde(default)]
    alerts: Option<Vec<Option<OtpAlert>>>,
}

/// Every alert the router answered, ended ones too, in the contract's form with its period:
/// made once per upstream answer; each call says which are in effect at its time, and
/// filters them.
struct KnownAlerts(Vec<(Alert, Period)>);

impl KnownAlerts {
    fn of(data: Data) -> Self {
        Self(wire::every_alert(data.alerts))
    }
}

/// The checked filters of a call.
struct Filters {
    routes: Vec<String>,
    stops: Vec<String>,
    least_rank: u8,
}

async fn alerts(
    toolpack: &Toolpack,
    input: GetAlertsRequest,
    correlation_id: String,
) -> Result<GetAlertsResult, Failure> {
    let asked = MaxResults::checked(input.max_results, 20, MAX_RESULTS)?;
    let max_results = asked.limit();
    let filters = Filters {
        routes: checked_ids("routes", input.routes.as_deref())?,
        stops: checked_ids("stops", input.stops.as_deref())?,
        least_rank: checked_severity(input.severity.as_deref())?,
    };
    let language = input.language.unwrap_or(Language::En);
    let known = upstream::graphql_shaped(
        toolpack,
        AnswerKind::Disruptions,
        QUERY,
        "Alerts",
        json!({}),
        language,
        KnownAlerts::of,
    )
    .await
    .map_err(UpstreamFailure::for_routing)?;
    let now = jiff::Timestamp::now().as_second();
    let include_ended = input.include_ended.unwrap_or(false);
    let mut ended_left_out = 0;
    let mut matching: Vec<Alert> = Vec::new();
    for (alert, period) in known.0.iter().filter(|(a, _)| filters.keep(a)) {
        let status = period.status_at(now);
        if status == AlertStatus::Ended && !include_ended {
            ended_left_out += 1;
            continue;
        }
        matching.push(Alert {
            status,
            ..alert.clone()
        });
    }
    matching.sort_by(listing_order);
    let total = matching.len();
    // What a traveller acts on: an alert in effect says until when, not since when.
    let list: Vec<Alert> = matching
        .into_iter()
        .take(max_results)
        .map(|alert| match alert.status {
            AlertStatus::InEffect => Alert {
                start: None,
                ..alert
            },
            _ => alert,
        })
        .collect();
    let mut notes = Vec::new();
    if let Some(capped) = asked.capped() {
        notes.push(capped);
    } else if total > max_results {
        notes.push(Warning::new(
            WarningCode::TruncatedResults,
            format!("{total} alerts match; the first {max_results} are returned."),
        ));
    }
    Ok(GetAlertsResult {
        message: alerts_message(&list, total, ended_left_out),
        served: None,
        alerts: list,
        ended_left_out: Some(ended_left_out).filter(|n| *n > 0),
        correlation_id,
        warnings: warnings(notes),
    })
}

/// The end of a message that names a place's most severe alert (`first`, the headline of
/// the first of `count`): " Alert: Bus 159: detour via Karhusuontie (and 1 more)."; nothing
/// when there is none. `get_departures` and `get_stop_info` end their messages with it.
pub(crate) fn alert_clause(first: Option<&str>, count: usize) -> String {
    let Some(header) = first else {
        return String::new();
    };
    let header = header.trim_end_matches('.');
    match count {
        1 => format!(" Alert: {header}."),
        n => format!(" Alert: {header} (and {} more).", n - 1),
    }
}

/// The most headlines the message gives.
const HEADLINES_SAID: usize = 2;

/// What a person asking "is anything disrupted" hears: how many alerts are in effect, the
/// first headlines (most severe first), how many are upcoming, and the ended ones left out.
fn alerts_message(list: &[Alert], total: usize, ended_left_out: u32) -> String {
    let in_effect: Vec<&Alert> = list
        .iter()
        .filter(|a| a.status == AlertStatus::InEffect)
        .collect();
    let upcoming = list
        .iter()
        .filter(|a| a.status == AlertStatus::Upcoming)
        .count();
    let mut said = Vec::new();
    match in_effect.len() {
        0 => said.push("No alert is in effect.".to_owned()),
        n => {
            let headlines: Vec<String> = in_effect
                .iter()
                .take(HEADLINES_SAID)
                .map(|a| format!("{} ({})", a.header.trim_end_matches('.'), a.severity))
                .collect();
            let more = match n.saturating_sub(HEADLINES_SAID) {
                0 => String::new(),
                m => format!("; {m} more"),
            };
            let plural = if n == 1 { "alert" } else { "alerts" };
            said.push(format!(
                "{n} {plural} in effect: {}{more}.",
                headlines.join("; ")
            ));
        }
    }
    if upcoming > 0 {
        said.push(format!("{upcoming} upcoming."));
    }
    let ended: Vec<&Alert> = list
        .iter()
        .filter(|a| a.status == AlertStatus::Ended)
        .collect();
    if let Some(first) = ended.first() {
        let more = match ended.len() {
            1 => String::new(),
            n => format!(" (and {} more)", n - 1),
        };
        said.push(format!(
            "Ended: {}{more}.",
            first.header.trim_end_matches('.')
        ));
    }
    if total > list.len() {
        said.push(format!("{} listed of {total}.", list.len()));
    }
    match ended_left_out {
        0 => {}
        1 => said.push("1 alert that has ended is left out.".to_owned()),
        n => said.push(format!("{n} alerts that have ended are left out.")),
    }
    said.join(" ")
}

impl Filters {
    /// Whether `alert` passes: severe enough, and touching a route or stop asked about
    /// (when any are).
    fn keep(&self, alert: &Alert) -> bool {
        if rank(&alert.severity) < self.least_rank {
            return false;
        }
        if self.routes.is_empty() && self.stops.is_empty() {
            return true;
        }
        let route = alert.routes.iter().any(|r| {
            self.routes.iter().any(|asked| {
                r.gtfs_id.eq_ignore_ascii_case(asked)
                    || r.short_name
                        .as_deref()
                        .is_some_and(|s| s.eq_ignore_ascii_case(asked))
            })
        });
        route || alert.stops.iter().any(|s| self.stops.contains(&s.gtfs_id))
    }
}

fn checked_ids(field: &str, ids: Option<&[String]>) -> Result<Vec<String>, Failure> {
    let ids = ids.unwrap_or_default();
    if ids.len() > MAX_FILTER_IDS {
        return Err(Failure::validation(format!(
            "{field} takes at most {MAX_FILTER_IDS} entries."
        )));
    }
    ids.iter()
        .map(|id| checked_text(field, id, MAX_ID_CHARS).map(str::to_owned))
        .collect()
}

fn checked_severity(severity: Option<&str>) -> Result<u8, Failure> {
    let Some(severity) = severity else {
        return Ok(0);
    };
    let upper = severity.trim().to_uppercase();
    if SEVERITIES.contains(&upper.as_str()) {
        Ok(rank(&upper))
    } else {
        Err(Failure::validation(format!(
            "severity takes {}; got '{severity}'.",
            SEVERITIES.join(", ")
        )))
    }
}
