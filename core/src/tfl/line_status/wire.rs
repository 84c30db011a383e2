//! TfL's `Line` objects, as `/Line/{ids}/Status`, `/Line/Mode/{modes}/Status` and
//! `/Line/Mode/{modes}` send them, read leniently ([`crate::tfl::lenient`]).

use serde::Deserialize;

use super::types::{LineStatusEntry, LineStatusLine};
use crate::tfl::lenient;
use crate::tfl::london::london_iso_of_utc;

/// Severities that mean nothing is wrong: 10 Good Service, 18 No Issues, 19 Information.
const GOOD_SEVERITIES: [i64; 3] = [10, 18, 19];

/// Whether `severity` means nothing is wrong.
pub(crate) fn is_good(severity: i64) -> bool {
    GOOD_SEVERITIES.contains(&severity)
}

/// One `Tfl.Api.Presentation.Entities.Line`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Line {
    #[serde(default, deserialize_with = "lenient::string")]
    pub(crate) id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub(crate) mode_name: Option<String>,
    #[serde(default, deserialize_with = "lenient::list")]
    line_statuses: Vec<LineStatus>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct LineStatus {
    #[serde(default, deserialize_with = "lenient::int")]
    status_severity: Option<i64>,
    #[serde(default, deserialize_with = "lenient::string")]
    status_severity_description: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    reason: Option<String>,
    #[serde(default, deserialize_with = "lenient::list")]
    validity_periods: Vec<ValidityPeriod>,
    #[serde(default)]
    disruption: Option<Disruption>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ValidityPeriod {
    #[serde(default, deserialize_with = "lenient::string")]
    from_date: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    to_date: Option<String>,
    #[serde(default, deserialize_with = "lenient::boolean")]
    is_now: Option<bool>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Disruption {
    #[serde(default, deserialize_with = "lenient::string")]
    description: Option<String>,
}

impl Line {
    /// The contract's line, or `None` for a line without an id.
    pub(crate) fn summarise(&self) -> Option<LineStatusLine> {
        let id = self.id.clone().filter(|id| !id.trim().is_empty())?;
        let mut statuses: Vec<LineStatusEntry> = self
            .line_statuses
            .iter()
            .map(LineStatus::summarise)
            .collect();
        // TfL's list is what its status board shows now, and its `isNow` is not reliable
        // (a weekend's Part Closure comes alone, its period covering the moment, with
        // `isNow: false`). A line whose statuses hold no good one is not in good service,
        // and its statuses apply now; beside a good status, one TfL says is not now (a
        // closure next Sunday) is planned and does not spoil it.
        // Two statuses of one disruption (Severe Delays and Part Suspended) carry the same
        // reason: it is given once.
        for index in 1..statuses.len() {
            let (before, rest) = statuses.split_at_mut(index);
            if before
                .iter()
                .any(|s| s.reason.is_some() && s.reason == rest[0].reason)
            {
                rest[0].reason = None;
            }
        }
        let has_good = statuses.iter().any(|s| is_good(s.severity));
        if !has_good {
            for status in &mut statuses {
                status.is_now = true;
            }
        }
        let good_service = has_good
            && statuses
                .iter()
                .filter(|s| s.is_now)
                .all(|s| is_good(s.severity));
        Some(LineStatusLine {
            name: self.name.clone().unwrap_or_else(|| id.clone()),
            mode: self.mode_name.clone().unwrap_or_default(),
            id,
            good_service,
            statuses,
        })
    }
}

impl LineStatus {
    /// The status, its period the one that applies now (else the first), its reason
    /// TfL's `reason`, else its disruption's description.
    fn summarise(&self) -> LineStatusEntry {
        let is_now = self.validity_periods.is_empty()
            || self.validity_periods.iter().any(|p| p.is_now == Some(true));
        let period = self
            .validity_periods
            .iter()
            .find(|p| p.is_now == Some(true))
            .or_else(|| self.validity_periods.first());
        let reason = self
            .reason
            .as_deref()
            .or_else(|| self.disruption.as_ref()?.description.as_deref())
            .map(|r| r.trim().to_owned())
            .filter(|r| !r.is_empty());
        LineStatusEntry {
            severity: self.status_severity.unwrap_or(-1),
            description: self.status_severity_description.clone().unwrap_or_default(),
            reason,
            from: period.and_then(|p| p.from_date.as_deref().map(london_iso_of_utc)),
            to: period.and_then(|p| p.to_date.as_deref().map(london_iso_of_utc)),
            is_now,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_future_closure_does_not_spoil_a_good_service_now() {
        let line: Line = serde_json::from_str(
            r#"{"$type":"Line","id":"central","name":"Central","modeName":"tube","created":"0001-01-01T00:00:00",
                "lineStatuses":[
                  {"statusSeverity":10,"statusSeverityDescription":"Good Service","validityPeriods":[]},
                  {"statusSeverity":4,"statusSeverityDescription":"Planned Closure","reason":"  Closed on Sunday. ",
                   "validityPeriods":[{"fromDate":"2026-11-29T04:00:00Z","toDate":"2026-11-30T01:29:00Z","isNow":false}]}]}"#,
        )
        .unwrap();
        let line = line.summarise().unwrap();
        assert!(line.good_service);
        assert_eq!(
            line.statuses[1].reason.as_deref(),
            Some("Closed on Sunday.")
        );
        assert_eq!(
            line.statuses[1].from.as_deref(),
            Some("2026-11-29T04:00:00+00:00")
        );
        assert!(!line.statuses[1].is_now && line.statuses[0].is_now);
    }

    #[test]
    fn a_lone_closure_tfl_calls_not_now_is_not_a_good_service_and_applies_now() {
        let line: Line = serde_json::from_str(
            r#"{"id":"circle","name":"Circle","modeName":"tube","lineStatuses":[
                  {"statusSeverity":5,"statusSeverityDescription":"Part Closure","reason":"No service this weekend.",
                   "validityPeriods":[{"fromDate":"2026-11-28T04:00:00Z","toDate":"2026-11-30T01:29:00Z","isNow":false}]}]}"#,
        )
        .unwrap();
        let line = line.summarise().unwrap();
        assert!(!line.good_service);
        assert!(line.statuses[0].is_now);
        let silent: Line = serde_json::from_str(r#"{"id":"circle","lineStatuses":[]}"#).unwrap();
        assert!(
            !silent.summarise().unwrap().good_service,
            "no good status at all"
        );
    }

    #[test]
    fn the_reason_falls_back_to_the_disruption_and_a_line_needs_an_id() {
        let line: Line = serde_json::from_str(
            r#"{"id":"25","modeName":"bus","lineStatuses":[{"statusSeverity":"9","statusSeverityDescription":"Minor Delays",
                "disruption":{"description":"Route 25: roadworks."},"validityPeriods":[{"isNow":true}]}]}"#,
        )
        .unwrap();
        let line = line.summarise().unwrap();
        assert!(!line.good_service);
        assert_eq!(line.name, "25");
        assert_eq!(line.statuses[0].severity, 9);
        assert_eq!(
            line.statuses[0].reason.as_deref(),
            Some("Route 25: roadworks.")
        );
        let nameless: Line = serde_json::from_str(r#"{"id": 7}"#).unwrap();
        assert!(nameless.summarise().is_none());
    }
}
