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
    /// The lines not in good service now, the worst first (success only; may be empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<LineStatusLine>>,
    /// The names of the other lines asked about: each has a good service now (left out
    /// with `disruptedOnly`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub good_service: Option<Vec<String>>,
    /// What TfL has planned on the lines asked about, such as a closure on Sunday (left
    /// out with `disruptedOnly`, and when nothing is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub planned: Option<Vec<PlannedStatus>>,
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
            planned: None,
            suggestions: None,
        }
    }
}

/// A line not in good service now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct LineStatusLine {
    /// The line's name, e.g. `Central`, `Elizabeth line`, `Windrush`, `25`.
    pub name: String,
    /// TfL's line id when it is not the name in lower case (`elizabeth` for the Elizabeth
    /// line, `hammersmith-city`); otherwise the name is the id, in any case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// What applies now, in TfL's words, several joined ("Severe Delays, Part Suspended").
    pub status: String,
    /// Why, in TfL's words, once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl LineStatusLine {
    /// TfL's id for the line: [`Self::id`], else the name in lower case.
    pub fn line_id(&self) -> String {
        self.id.clone().unwrap_or_else(|| self.name.to_lowercase())
    }
}

/// A status TfL has planned for a line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct PlannedStatus {
    /// The line's name.
    pub line: String,
    /// TfL's line id when it is not the name in lower case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// TfL's words for it, e.g. "Planned Closure", "Part Closure".
    pub status: String,
    /// Why, in TfL's words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// When it starts, London time with its UTC offset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// When it ends, London time with its UTC offset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
}
