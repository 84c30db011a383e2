//! `lineStatus` request and response types.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::tfl::TflCode;

/// `LineStatusRequest`: which lines to report on.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LineStatusRequest {
    /// e.g. central, elizabeth, 25; at most 20; or give `modes`.
    ///
    /// Line ids, at most 20: `central`, `elizabeth`, `liberty`, `dlr`, bus routes such as
    /// `25` or `n29`. Case does not matter. Give `lines` or `modes`, not both.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<String>>,
    /// tube, dlr, overground, elizabeth-line, tram or bus; at most 10 (default: rail).
    ///
    /// Modes, at most 10: `tube`, `dlr`, `overground`, `elizabeth-line`, `tram`, `bus`,
    /// `cable-car`, `river-bus`, … Neither `lines` nor `modes`: tube, elizabeth-line,
    /// overground, dlr and tram.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modes: Option<Vec<String>>,
    /// Only lines without a good service.
    ///
    /// Only the lines without a good service now (default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disrupted_only: Option<bool>,
}

/// `LineStatusResponse`: a field with nothing to say is left out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct LineStatusResponse {
    /// Whether the statuses were retrieved.
    pub success: bool,
    /// Machine-readable result or error code.
    pub code: TflCode,
    /// Human-readable summary.
    pub message: String,
    /// The lines with a status other than a good service (now, or planned), in TfL's
    /// order (success only; may be empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<LineStatusLine>>,
    /// The names of the other lines asked about: each has a good service and nothing
    /// planned (left out with `disruptedOnly`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub good_service: Option<Vec<String>>,
    /// On `LINE_NOT_FOUND` and `MODE_NOT_FOUND`: the nearest known line ids or modes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggestions: Option<Vec<String>>,
    /// When the upstream answer was fetched, and whether it is stale (success only).
    #[serde(flatten)]
    pub served: Option<crate::http::ServedFields>,
}

impl LineStatusResponse {
    /// An error response with `code` and `message`; every other field null.
    pub fn error(code: TflCode, message: impl Into<String>) -> Self {
        Self {
            served: None,
            success: false,
            code,
            message: message.into(),
            lines: None,
            good_service: None,
            suggestions: None,
        }
    }
}

/// One line and its statuses now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct LineStatusLine {
    /// TfL's line id, e.g. `central`, `elizabeth`, `windrush`, `25`.
    pub id: String,
    /// The line's name, e.g. `Central`, `Elizabeth line`, `Windrush`.
    pub name: String,
    /// Its mode, e.g. `tube`, `elizabeth-line`, `overground`, `bus`.
    pub mode: String,
    /// Whether the line has a good status (severity 10 "Good Service", 18 "No Issues" or
    /// 19 "Information") and every status that applies now is a good one.
    pub good_service: bool,
    /// TfL's statuses for the line (one, or several at once, such as "Severe Delays" and
    /// "Part Suspended").
    pub statuses: Vec<LineStatusEntry>,
}

/// One status of a line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct LineStatusEntry {
    /// TfL's severity code, 0–20: 10 Good Service, 9 Minor Delays, 6 Severe Delays,
    /// 20 Service Closed, …
    pub severity: i64,
    /// TfL's name for the severity, as TfL sends it (e.g. "Minor Delays").
    pub description: String,
    /// Why, in TfL's words (absent for a good service, and when another status of the
    /// line gave the same reason).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Start of the period the status is valid for, London time with its UTC offset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// End of that period, London time with its UTC offset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// Whether the status applies now: TfL says so, it has no validity period, or the
    /// line has no good status (TfL lists what its board shows now).
    pub is_now: bool,
}
