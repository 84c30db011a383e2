//! `vehicle_positions` request and response types.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::digitransit::stop_info::StopRoute;

/// `vehicle_positions` arguments: a route (and maybe a direction), or a stop.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VehiclePositionsRequest {
    /// The route.
    ///
    /// An HSL line as riders say it ("550", "4", "M1") or its id ("HSL:2550").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route: Option<String>,
    /// Default: both.
    ///
    /// The route's direction, 0 or 1 (as `get_stop_info`'s patterns number them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<u8>,
    /// Instead of route: a stop id.
    ///
    /// Instead of a route: a stop id ("HSL:1130446"), for the vehicles whose next stop it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<String>,
}

impl VehiclePositionsRequest {
    /// Where the vehicles of `route` (a line such as "550", or an id) are now.
    pub fn route(route: impl Into<String>) -> Self {
        Self {
            route: Some(route.into()),
            ..Self::default()
        }
    }

    /// The vehicles whose next stop is `stop` (a stop id).
    pub fn stop(stop: impl Into<String>) -> Self {
        Self {
            stop: Some(stop.into()),
            ..Self::default()
        }
    }
}

/// A stop on a route's line, or the stop asked about.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct LineStop {
    /// The stop's id, e.g. `HSL:1130446`.
    pub gtfs_id: String,
    /// Its name.
    pub name: String,
    /// Latitude.
    pub lat: f64,
    /// Longitude.
    pub lon: f64,
}

/// One direction of the route, as a line of stops (its longest pattern), for drawing it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct VehicleRouteLine {
    /// GTFS direction, 0 or 1.
    pub direction_id: u8,
    /// Where it goes, as the sign says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headsign: Option<String>,
    /// Its stops in order.
    pub stops: Vec<LineStop>,
}

/// The stop a vehicle calls at next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct NextStop {
    /// The stop's id, e.g. `HSL:1130446`.
    pub gtfs_id: String,
    /// Its name, when the route's stops name it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// One vehicle, where it last reported itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct VehiclePosition {
    /// The vehicle: operator and vehicle number, e.g. `22/868`.
    pub id: String,
    /// The line as riders know it, e.g. `550`.
    pub line: String,
    /// The route's id, e.g. `HSL:2550`.
    pub route_id: String,
    /// GTFS direction, 0 or 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction_id: Option<u8>,
    /// Where it is headed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headsign: Option<String>,
    /// Latitude.
    pub lat: f64,
    /// Longitude.
    pub lon: f64,
    /// Heading, degrees clockwise from north.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heading: Option<f64>,
    /// Speed, metres a second.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<f64>,
    /// Seconds behind the timetable; negative when ahead of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay_seconds: Option<i64>,
    /// The stop it calls at next (none at the end of its line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_stop: Option<NextStop>,
    /// How full, as HSL reports it: 0 (seats free) to 100 (full).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub occupancy_percent: Option<u8>,
    /// When the vehicle reported this position (ISO 8601, Helsinki time).
    pub seen_at: String,
    /// Seconds since the position arrived.
    pub age_seconds: u64,
    /// True when the feed cannot be reached now and this is the last position held (left
    /// out otherwise).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stale: bool,
}

/// `vehicle_positions` success body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct VehiclePositionsResult {
    /// The answer in words: how many vehicles report now, or that none does.
    pub message: String,
    /// The route asked about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route: Option<StopRoute>,
    /// The stop asked about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<LineStop>,
    /// The vehicles, by direction then id.
    pub vehicles: Vec<VehiclePosition>,
    /// The route's directions as lines of stops (with a route).
    pub lines: Vec<VehicleRouteLine>,
    /// The call's correlation id (UUID).
    pub correlation_id: String,
    /// When the newest position arrived (`asOf`), and whether the feed is unreachable and
    /// the positions are the last held (`stale`).
    #[serde(flatten)]
    pub served: Option<crate::http::ServedFields>,
}
