//! TfL's `Line` objects, as `/Line/{ids}/Status`, `/Line/Mode/{modes}/Status` and
//! `/Line/Mode/{modes}` send them, read leniently ([`crate::tfl::lenient`]).

use serde::Deserialize;

use super::types::{LineStatusLine, PlannedStatus};
use crate::tfl::checks::id_beside_name;
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

/// A line's statuses as TfL listed them, read: what the answer and its message are made of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Summary {
    pub(crate) id: String,
    pub(crate) name: String,
    /// Whether the line has a good status (severity 10 "Good Service", 18 "No Issues" or
    /// 19 "Information") and every status that applies now is a good one.
    pub(crate) good_service: bool,
    pub(crate) statuses: Vec<Status>,
}

/// One status of a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Status {
    /// TfL's severity code, 0–20: 10 Good Service, 9 Minor Delays, 6 Severe Delays, …
    pub(crate) severity: i64,
    /// TfL's name for the severity ("Minor Delays").
    pub(crate) description: String,
    /// Why, in TfL's words, without a leading label naming the line ("Jubilee Line: "),
    /// and absent when another status of the line gave the same reason.
    pub(crate) reason: Option<String>,
    pub(crate) from: Option<String>,
    pub(crate) to: Option<String>,
    /// Whether the status applies now: TfL says so, it has no validity period, or the
    /// line has no good status (TfL lists what its board shows now).
    pub(crate) is_now: bool,
}

impl Line {
    /// The line's statuses read, or `None` for a line without an id.
    pub(crate) fn summarise(&self) -> Option<Summary> {
        let id = self.id.clone().filter(|id| !id.trim().is_empty())?;
        let name = self.name.clone().unwrap_or_else(|| id.clone());
        let labels = [
            name.clone(),
            self.mode_name
                .as_deref()
                .unwrap_or_default()
                .replace('-', " ")
                .to_lowercase(),
        ];
        let mut statuses: Vec<Status> = self
            .line_statuses
            .iter()
            .map(|status| status.summarise(&labels))
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
        Some(Summary {
            id,
            name,
            good_service,
            statuses,
        })
    }
}

impl Summary {
    /// The statuses not in good service that apply now.
    pub(crate) fn troubles(&self) -> impl Iterator<Item = &Status> {
        self.statuses
            .iter()
            .filter(|s| s.is_now && !is_good(s.severity))
    }

    /// The statuses TfL has planned: not now, and not good.
    pub(crate) fn planned(&self) -> impl Iterator<Item = &Status> {
        self.statuses
            .iter()
            .filter(|s| !s.is_now && !is_good(s.severity))
    }

    /// How bad the service is now, for ordering: the worst severity that applies now
    /// (0 Special Service … 9 Minor Delays; the informational ones above 10 after 9).
    pub(crate) fn badness(&self) -> i64 {
        self.troubles()
            .map(|s| if s.severity >= 10 { 19 } else { 2 * s.severity })
            .min()
            .unwrap_or(19)
    }

    /// The line's id when it is not its name in lower case.
    fn unobvious_id(&self) -> Option<String> {
        id_beside_name(&self.name, &self.id)
    }

    /// The answer's line: what applies now in one status and one reason.
    pub(crate) fn line(&self) -> LineStatusLine {
        let (status, reasons): (Vec<&str>, Vec<&str>) = self
            .troubles()
            .map(|s| {
                (
                    s.description.as_str(),
                    s.reason.as_deref().unwrap_or_default(),
                )
            })
            .unzip();
        let reason = reasons
            .into_iter()
            .filter(|r| !r.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        LineStatusLine {
            id: self.unobvious_id(),
            name: self.name.clone(),
            status: status.join(", "),
            reason: (!reason.is_empty()).then_some(reason),
        }
    }

    /// What TfL has planned on the line.
    pub(crate) fn plans(&self) -> impl Iterator<Item = PlannedStatus> + '_ {
        self.planned().map(|s| PlannedStatus {
            line: self.name.clone(),
            id: self.unobvious_id(),
            status: s.description.clone(),
            reason: s.reason.clone(),
            from: s.from.clone(),
            to: s.to.clone(),
        })
    }
}

impl LineStatus {
    /// The status, its period the one that applies now (else the first), its reason
    /// TfL's `reason`, else its disruption's description, without a leading label that
    /// names the line or its mode (`labels`, in lower case).
    fn summarise(&self, labels: &[String]) -> Status {
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
            .map(|r| unlabelled(&r.split_whitespace().collect::<Vec<_>>().join(" "), labels))
            .filter(|r| !r.is_empty());
        Status {
            severity: self.status_severity.unwrap_or(-1),
            description: self.status_severity_description.clone().unwrap_or_default(),
            reason,
            from: period.and_then(|p| p.from_date.as_deref().map(london_iso_of_utc)),
            to: period.and_then(|p| p.to_date.as_deref().map(london_iso_of_utc)),
            is_now,
        }
    }
}

/// `reason` without a leading "Label: " that names the line or its mode (`labels`, in lower
/// case): TfL starts most reasons with "Jubilee Line: ", "London Overground: " or "Route 25: ",
/// which the answer's line already says. Any other label ("Tube strike: ") stays.
fn unlabelled(reason: &str, labels: &[String]) -> String {
    let Some((label, rest)) = reason.split_once(": ") else {
        return reason.to_owned();
    };
    let label = bare_label(label);
    let names_the_line = labels.iter().any(|name| bare_label(name) == label);
    if names_the_line && !label.is_empty() && !rest.trim().is_empty() {
        rest.trim().to_owned()
    } else {
        reason.to_owned()
    }
}

/// A line's or mode's label as TfL may write it, reduced to its core: lower case, without
/// "London " or "Route " before it or " line" after it.
fn bare_label(label: &str) -> String {
    let label = label.trim().to_lowercase().replace(" & ", " and ");
    let label = label.strip_suffix(" line").unwrap_or(&label);
    let label = label
        .strip_prefix("london ")
        .or_else(|| label.strip_prefix("route "))
        .unwrap_or(label);
    label.to_owned()
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
        assert!(!line.statuses[1].is_now && line.statuses[0].is_now);
        assert_eq!(
            line.plans().collect::<Vec<_>>(),
            vec![PlannedStatus {
                line: "Central".into(),
                id: None,
                status: "Planned Closure".into(),
                reason: Some("Closed on Sunday.".into()),
                from: Some("2026-11-29T04:00:00+00:00".into()),
                to: Some("2026-11-30T01:29:00+00:00".into()),
            }]
        );
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
            Some("roadworks."),
            "the label naming the line goes"
        );
        let nameless: Line = serde_json::from_str(r#"{"id": 7}"#).unwrap();
        assert!(nameless.summarise().is_none());
    }

    #[test]
    fn a_label_naming_the_line_or_its_mode_goes_and_other_colons_stay() {
        let labels = ["windrush".to_owned(), "overground".to_owned()];
        assert_eq!(
            unlabelled("London Overground: Minor delays.", &labels),
            "Minor delays."
        );
        assert_eq!(
            unlabelled("Windrush line: No service.", &labels),
            "No service."
        );
        assert_eq!(
            unlabelled("Due to strike action: no service.", &labels),
            "Due to strike action: no service."
        );
        assert_eq!(unlabelled("Windrush: ", &labels), "Windrush: ");
        let labels = ["Hammersmith & City".to_owned(), "tube".to_owned()];
        assert_eq!(
            unlabelled("Hammersmith and City Line: A 15 minute service.", &labels),
            "A 15 minute service."
        );
        assert_eq!(
            unlabelled("Tube strike: no service.", &labels),
            "Tube strike: no service."
        );
    }
}
