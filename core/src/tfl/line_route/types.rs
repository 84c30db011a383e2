//! `lineRoute` request and response types.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::tfl::TflCode;

/// `LineRouteRequest`: one line, one direction, one kind of service.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LineRouteRequest {
    /// e.g. central, elizabeth, mildmay, dlr or a bus route (25).
    ///
    /// A line id: `central`, `elizabeth`, `mildmay`, `dlr`, a bus route such as `25`.
    pub line: String,
    /// Default outbound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<RouteDirection>,
    /// Default Regular.
    ///
    /// `Regular` (the default) or `Night` (the Night Tube and night buses).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_type: Option<ServiceType>,
}

impl LineRouteRequest {
    /// The outbound regular routes of `line`.
    pub fn new(line: impl Into<String>) -> Self {
        Self {
            line: line.into(),
            direction: None,
            service_type: None,
        }
    }
}

/// Which way along a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "lowercase")]
pub enum RouteDirection {
    /// TfL's outbound direction.
    Outbound,
    /// TfL's inbound direction.
    Inbound,
}

impl RouteDirection {
    /// The direction as TfL's paths and queries write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Outbound => "outbound",
            Self::Inbound => "inbound",
        }
    }
}

/// Which timetable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum ServiceType {
    /// The day service.
    Regular,
    /// The night service.
    Night,
}

/// `LineRouteResponse`: every field is always present (`null` when unused).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct LineRouteResponse {
    /// Whether the routes were retrieved.
    pub success: bool,
    /// Machine-readable result or error code.
    pub code: TflCode,
    /// Human-readable summary.
    pub message: String,
    /// The line (success only).
    pub line: Option<RouteLine>,
    /// One route per branch, in TfL's order (success only; empty when the line has no
    /// service of this type in this direction).
    pub routes: Option<Vec<RouteBranch>>,
    /// On `LINE_NOT_FOUND`: the nearest known line ids.
    pub suggestions: Option<Vec<String>>,
    /// When the upstream answer was fetched, and whether it is stale (success only).
    #[serde(flatten)]
    pub served: Option<crate::http::ServedFields>,
}

impl LineRouteResponse {
    /// An error response with `code` and `message`; every other field null.
    pub fn error(code: TflCode, message: impl Into<String>) -> Self {
        Self {
            served: None,
            success: false,
            code,
            message: message.into(),
            line: None,
            routes: None,
            suggestions: None,
        }
    }
}

/// A line's id and name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct RouteLine {
    /// TfL's line id.
    pub id: String,
    /// The line's name, e.g. "Central".
    pub name: String,
}

/// One branch of a line (one route), its stops in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct RouteBranch {
    /// TfL's name for the branch, e.g. "West Ruislip Underground Station - Epping
    /// Underground Station".
    pub name: String,
    /// Its stops, first to last.
    pub stops: Vec<RouteStop>,
}

/// A stop on a route.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct RouteStop {
    /// Its NaPTAN id, e.g. `940GZZLUOXC`.
    pub id: String,
    /// Its name, e.g. "Oxford Circus Underground Station" (the id when TfL names it
    /// nowhere in the answer).
    pub name: String,
}
