//! OTP's `Alert` as the `AlertFields` fragment selects it, and how it becomes the
//! contract's [`Alert`]: Unix seconds to Helsinki time, a missing header filled in, the
//! `entities` union as routes and stops, and the order every tool lists alerts in.

use std::cmp::Ordering;

use serde::Deserialize;

use super::types::{Alert, AlertRoute, AlertStatus, AlertStop, AlertSummary};
use crate::digitransit::place::contract_mode;
use crate::digitransit::time::helsinki_iso;

/// The longest header made from a description, in characters.
pub const MAX_MADE_HEADER_CHARS: usize = 120;
/// The severities a caller may ask for, least severe first.
pub const SEVERITIES: [&str; 3] = ["INFO", "WARNING", "SEVERE"];

/// An alert as OTP answers it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OtpAlert {
    id: String,
    alert_header_text: Option<String>,
    alert_description_text: Option<String>,
    alert_url: Option<String>,
    alert_severity_level: Option<String>,
    alert_effect: Option<String>,
    alert_cause: Option<String>,
    effective_start_date: Option<i64>,
    effective_end_date: Option<i64>,
    #[serde(default)]
    entities: Option<Vec<Option<Entity>>>,
}

/// One member of OTP's `AlertEntity` union; the kinds the fragment does not select
/// (agencies, route types, unknown) read as empty.
#[derive(Debug, Deserialize)]
struct Entity {
    /// Absent when a query selects no `__typename` (such an entity touches nothing known).
    #[serde(rename = "__typename", default)]
    typename: String,
    #[serde(flatten)]
    fields: EntityFields,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct EntityFields {
    gtfs_id: Option<String>,
    short_name: Option<String>,
    mode: Option<String>,
    name: Option<String>,
    code: Option<String>,
    stop: Option<OtpStop>,
    route: Option<OtpRoute>,
}

/// An OTP `Route` with its GTFS id, as the alert fragment and `get_stop_info` select it
/// (the alert fragment leaves `longName` out).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OtpRoute {
    pub gtfs_id: String,
    pub short_name: Option<String>,
    pub long_name: Option<String>,
    pub mode: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct OtpStop {
    gtfs_id: String,
    name: Option<String>,
    code: Option<String>,
}

impl From<OtpRoute> for AlertRoute {
    fn from(route: OtpRoute) -> Self {
        Self {
            gtfs_id: route.gtfs_id,
            short_name: route.short_name,
            mode: route.mode.as_deref().map(contract_mode),
        }
    }
}

impl From<OtpStop> for AlertStop {
    fn from(stop: OtpStop) -> Self {
        Self {
            gtfs_id: stop.gtfs_id,
            name: stop.name,
            code: stop.code,
        }
    }
}

impl Entity {
    /// What this entity touches (a route, a stop, or both), if it is a route, a stop, or
    /// something on a route.
    fn target(self) -> Option<(Option<AlertRoute>, Option<AlertStop>)> {
        let f = self.fields;
        let (route, stop) = match self.typename.as_str() {
            "Route" => {
                let route = OtpRoute {
                    gtfs_id: f.gtfs_id?,
                    short_name: f.short_name,
                    long_name: None,
                    mode: f.mode,
                };
                (Some(route), None)
            }
            "Stop" => {
                let stop = OtpStop {
                    gtfs_id: f.gtfs_id?,
                    name: f.name,
                    code: f.code,
                };
                (None, Some(stop))
            }
            "StopOnRoute" => (Some(f.route?), Some(f.stop?)),
            "Trip" | "Pattern" => (Some(f.route?), None),
            _ => return None,
        };
        Some((route.map(AlertRoute::from), stop.map(AlertStop::from)))
    }
}

impl OtpAlert {
    /// The full text, trimmed, when there is one.
    fn description(&self) -> Option<String> {
        let text = self.alert_description_text.as_deref()?.trim();
        (!text.is_empty()).then(|| text.to_owned())
    }

    /// The headline: OTP's, else the description's first line, else the effect in words.
    fn header(&self, description: Option<&str>) -> String {
        self.alert_header_text
            .as_deref()
            .map(str::trim)
            .filter(|h| !h.is_empty())
            .map(str::to_owned)
            .or_else(|| description.map(made_header))
            .unwrap_or_else(|| effect_in_words(self.alert_effect.as_deref()))
    }

    fn severity(&self) -> String {
        severity(self.alert_severity_level.as_deref()).to_owned()
    }
}

impl From<OtpAlert> for Alert {
    fn from(alert: OtpAlert) -> Self {
        let description = alert.description();
        let header = alert.header(description.as_deref());
        let severity = alert.severity();
        let status = alert.period().status_at(jiff::Timestamp::now().as_second());
        let (mut routes, mut stops) = (Vec::new(), Vec::new());
        let targets = alert.entities.unwrap_or_default().into_iter().flatten();
        for (route, stop) in targets.filter_map(Entity::target) {
            if let Some(route) = route.filter(|r| !routes.contains(r)) {
                routes.push(route);
            }
            if let Some(stop) = stop.filter(|s| !stops.contains(s)) {
                stops.push(stop);
            }
        }
        let said_by_header = alert
            .alert_header_text
            .as_deref()
            .is_none_or(|h| h.trim().is_empty())
            && description.is_none();
        let description = description.and_then(|text| beyond_header(&text, &header));
        Self {
            id: alert.id,
            header,
            description,
            url: alert.alert_url.filter(|u| !u.trim().is_empty()),
            severity,
            // A header made from the effect ("Reduced service") already says it.
            effect: alert
                .alert_effect
                .filter(|e| !says_nothing(e) && !said_by_header),
            cause: alert.alert_cause.filter(|c| !says_nothing(c)),
            start: alert.effective_start_date.and_then(helsinki_seconds),
            end: alert.effective_end_date.and_then(helsinki_seconds),
            status,
            routes,
            stops,
        }
    }
}

/// Whether a GTFS-RT effect or cause says nothing: `UNKNOWN_EFFECT`, `UNKNOWN_CAUSE`,
/// `OTHER_EFFECT`, `OTHER_CAUSE`.
fn says_nothing(name: &str) -> bool {
    name.starts_with("UNKNOWN_") || name.starts_with("OTHER_")
}

/// What `description` says beyond `header`: all of it, unless it opens with the header
/// (then what follows, or nothing).
fn beyond_header(description: &str, header: &str) -> Option<String> {
    let rest = description
        .strip_prefix(header)
        .map_or(description, str::trim_start);
    (!rest.is_empty()).then(|| rest.to_owned())
}

/// When an alert runs, as OTP answers it (Unix seconds; 0 or none: open): kept beside the
/// contract's alert, so a call tells its status at its own time without reading the
/// answer's text back.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Period {
    start: Option<i64>,
    end: Option<i64>,
}

impl Period {
    /// Whether the alert is in effect at `now` (Unix seconds).
    pub(crate) fn status_at(self, now: i64) -> AlertStatus {
        let given = |seconds: Option<i64>| seconds.filter(|s| *s > 0);
        if given(self.end).is_some_and(|end| end <= now) {
            AlertStatus::Ended
        } else if given(self.start).is_some_and(|start| start > now) {
            AlertStatus::Upcoming
        } else {
            AlertStatus::InEffect
        }
    }
}

impl OtpAlert {
    fn period(&self) -> Period {
        Period {
            start: self.effective_start_date,
            end: self.effective_end_date,
        }
    }
}

/// OTP's alerts in the contract's form, ended ones too, each with its period, in the order
/// every tool lists them ([`listing_order`]).
pub(crate) fn every_alert(alerts: Option<Vec<Option<OtpAlert>>>) -> Vec<(Alert, Period)> {
    let mut list: Vec<(Alert, Period)> = alerts
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .map(|alert| {
            let period = alert.period();
            (Alert::from(alert), period)
        })
        .collect();
    list.sort_by(|(a, _), (b, _)| listing_order(a, b));
    list
}

/// OTP's alerts that have not ended, in the contract's form and listing order: an ended
/// alert is not news.
pub(crate) fn in_order(alerts: Option<Vec<Option<OtpAlert>>>) -> Vec<Alert> {
    every_alert(alerts)
        .into_iter()
        .map(|(alert, _)| alert)
        .filter(|alert| alert.status != AlertStatus::Ended)
        .collect()
}

/// Alerts in brief (the `AlertSummaryFields` fragment's selection), those that have not
/// ended, in the same order, once each.
pub(crate) fn summaries(alerts: Option<Vec<Option<OtpAlert>>>) -> Vec<AlertSummary> {
    let mut alerts = in_order(alerts);
    alerts.dedup_by(|a, b| a.id == b.id);
    alerts
        .into_iter()
        .map(|alert| AlertSummary {
            id: alert.id,
            header: alert.header,
            severity: alert.severity,
        })
        .collect()
}

/// OTP's severity level in the contract's words.
fn severity(level: Option<&str>) -> &'static str {
    match level {
        Some("SEVERE") => "SEVERE",
        Some("WARNING") => "WARNING",
        Some("INFO") => "INFO",
        _ => "UNKNOWN",
    }
}

/// How severe a contract severity is: `SEVERE` 3 down to `UNKNOWN` 0.
pub(crate) fn rank(severity: &str) -> u8 {
    match severity {
        "SEVERE" => 3,
        "WARNING" => 2,
        "INFO" => 1,
        _ => 0,
    }
}

/// The order alerts are listed in: those in effect first, most severe first, then the
/// earliest start (one without a start, in effect since before anyone knows, first); then
/// the upcoming ones, soonest first; then the ended ones, the latest ended first; ties by id.
pub(crate) fn listing_order(a: &Alert, b: &Alert) -> Ordering {
    let by_status = a.status.cmp(&b.status);
    let within = match a.status {
        AlertStatus::InEffect => rank(&b.severity)
            .cmp(&rank(&a.severity))
            .then_with(|| a.start.cmp(&b.start)),
        AlertStatus::Upcoming => a
            .start
            .cmp(&b.start)
            .then_with(|| rank(&b.severity).cmp(&rank(&a.severity))),
        AlertStatus::Ended => b.end.cmp(&a.end),
    };
    by_status.then(within).then_with(|| a.id.cmp(&b.id))
}

/// A header from a description: its first line, cut at a character boundary.
fn made_header(description: &str) -> String {
    let line = description.lines().next().unwrap_or_default().trim();
    if line.chars().count() <= MAX_MADE_HEADER_CHARS {
        return line.to_owned();
    }
    let cut: String = line.chars().take(MAX_MADE_HEADER_CHARS - 1).collect();
    format!("{}…", cut.trim_end())
}

/// A header for an alert with no text at all: its effect in words.
fn effect_in_words(effect: Option<&str>) -> String {
    match effect {
        Some("NO_SERVICE") => "No service",
        Some("REDUCED_SERVICE") => "Reduced service",
        Some("SIGNIFICANT_DELAYS") => "Significant delays",
        Some("DETOUR") => "Detour",
        Some("ADDITIONAL_SERVICE") => "Additional service",
        Some("MODIFIED_SERVICE") => "Modified service",
        Some("STOP_MOVED") => "Stop moved",
        Some("ACCESSIBILITY_ISSUE") => "Accessibility issue",
        _ => "Service alert",
    }
    .to_owned()
}

/// Unix seconds as ISO 8601 in Helsinki time; OTP's 0 or an impossible value as none.
fn helsinki_seconds(seconds: i64) -> Option<String> {
    (seconds > 0)
        .then(|| jiff::Timestamp::from_second(seconds).ok())
        .flatten()
        .map(helsinki_iso)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_alert_is_in_effect_between_its_start_and_end() {
        let now = 1_000;
        assert_eq!(
            Period {
                start: None,
                end: None
            }
            .status_at(now),
            AlertStatus::InEffect
        );
        assert_eq!(
            Period {
                start: Some(0),
                end: Some(0)
            }
            .status_at(now),
            AlertStatus::InEffect
        );
        assert_eq!(
            Period {
                start: Some(500),
                end: Some(2_000)
            }
            .status_at(now),
            AlertStatus::InEffect
        );
        assert_eq!(
            Period {
                start: Some(1_001),
                end: None
            }
            .status_at(now),
            AlertStatus::Upcoming
        );
        assert_eq!(
            Period {
                start: Some(500),
                end: Some(1_000)
            }
            .status_at(now),
            AlertStatus::Ended
        );
        assert_eq!(
            Period {
                start: None,
                end: Some(999)
            }
            .status_at(now),
            AlertStatus::Ended
        );
    }

    #[test]
    fn in_force_come_first_by_severity_then_upcoming_by_start() {
        let at = |id: &str, severity: &str, start: i64, end: i64| {
            let otp: OtpAlert = serde_json::from_value(serde_json::json!({"id": id,
                "alertHeaderText": id, "alertSeverityLevel": severity,
                "effectiveStartDate": start, "effectiveEndDate": end}))
            .unwrap();
            let period = otp.period();
            (Alert::from(otp), period)
        };
        let now = jiff::Timestamp::now().as_second();
        let (day, year) = (86_400, 365 * 86_400);
        let mut list = [
            at("ended-severe", "SEVERE", now - year, now - day),
            at("soon-info", "INFO", now + day, now + 2 * day),
            at("later-severe", "SEVERE", now + 3 * day, now + 4 * day),
            at("now-info", "INFO", now - day, now + day),
            at("now-severe", "SEVERE", now - day, now + day),
        ];
        list.sort_by(|(a, _), (b, _)| listing_order(a, b));
        let ids: Vec<&str> = list.iter().map(|(a, _)| a.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "now-severe",
                "now-info",
                "soon-info",
                "later-severe",
                "ended-severe"
            ]
        );
        assert_eq!(list[0].1.status_at(now), AlertStatus::InEffect);
        assert_eq!(list[2].1.status_at(now), AlertStatus::Upcoming);
        assert_eq!(list[4].1.status_at(now), AlertStatus::Ended);
    }

    fn alert(json: serde_json::Value) -> Alert {
        serde_json::from_value::<OtpAlert>(json).unwrap().into()
    }

    #[test]
    fn a_missing_header_is_made_from_the_description_or_the_effect() {
        let long = "x".repeat(200);
        let a = alert(serde_json::json!({"id": "a", "alertHeaderText": null,
            "alertDescriptionText": format!("{long}\nmore"), "alertEffect": "DETOUR"}));
        assert_eq!(a.header.chars().count(), MAX_MADE_HEADER_CHARS);
        assert!(a.header.ends_with('…'));
        let b = alert(serde_json::json!({"id": "b", "alertHeaderText": " ",
            "alertDescriptionText": "", "alertEffect": "NO_SERVICE"}));
        assert_eq!(b.header, "No service");
        assert_eq!(b.description, None);
        assert_eq!(b.severity, "UNKNOWN");
    }

    #[test]
    fn seconds_become_helsinki_time_and_entities_routes_and_stops() {
        let a = alert(serde_json::json!({"id": "a", "alertHeaderText": "H",
        "effectiveStartDate": 1676459008, "effectiveEndDate": 0,
        "entities": [
            {"__typename": "Route", "gtfsId": "HSL:2550", "shortName": "550", "mode": "BUS"},
            {"__typename": "Agency", "gtfsId": "HSL:HSL"},
            null,
            {"__typename": "StopOnRoute",
             "stop": {"gtfsId": "HSL:1", "name": "S", "code": "H1"},
             "route": {"gtfsId": "HSL:31M1", "shortName": "M1", "mode": "SUBWAY"}},
            {"__typename": "Trip", "route": {"gtfsId": "HSL:1010", "shortName": "10", "mode": "TRAM"}},
            {"__typename": "Pattern", "route": {"gtfsId": "HSL:1010", "shortName": "10", "mode": "TRAM"}}
        ]}));
        assert_eq!(a.start.as_deref(), Some("2023-02-15T13:03:28+02:00"));
        assert_eq!(a.end, None);
        assert_eq!(a.status, AlertStatus::InEffect);
        let routes: Vec<&str> = a.routes.iter().map(|r| r.gtfs_id.as_str()).collect();
        assert_eq!(
            routes,
            ["HSL:2550", "HSL:31M1", "HSL:1010"],
            "each route once"
        );
        assert_eq!(a.routes[1].mode.as_deref(), Some("METRO"));
        assert_eq!(a.stops.len(), 1);
        assert_eq!(a.stops[0].code.as_deref(), Some("H1"));
    }

    #[test]
    fn a_description_that_opens_with_the_header_goes_on_after_it() {
        assert_eq!(
            beyond_header(
                "Lift out of order.\nUse the other one.",
                "Lift out of order."
            ),
            Some("Use the other one.".to_owned())
        );
        assert_eq!(
            beyond_header("Lift out of order.", "Lift out of order."),
            None
        );
        assert_eq!(
            beyond_header("Bus 550 skips the stop.", "Detour"),
            Some("Bus 550 skips the stop.".to_owned())
        );
    }
}
