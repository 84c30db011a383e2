//! The values `plan_trip`'s routing wishes take: how a bike comes along, and the place a
//! trip goes via (OTP `planConnection`'s `modes` and `via`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::digitransit::place::Coordinate;

/// How a bike comes along.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "camelCase")]
pub enum BikeUse {
    /// Your own bike, taken on board.
    Own,
    /// City bikes to reach transit, from it, or the whole way.
    CityBike,
    /// Ride to a bike park, then transit.
    Park,
}

/// The via point as applied: the stop passed, or the point visited.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct ViaPoint {
    /// The stop or station passed, for a stop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_id: Option<String>,
    /// The point visited, for a point or a saved place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coordinate: Option<Coordinate>,
    /// The saved key, for a saved place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The saved place's name, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}
