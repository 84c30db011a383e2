//! `find_rental_vehicles` request and response types.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::digitransit::place::Coordinate;
use crate::digitransit::response::Warning;

/// `find_rental_vehicles` arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FindRentalVehiclesRequest {
    /// The coordinate.
    ///
    /// Where to look from.
    pub coordinate: Coordinate,
    /// Metres, 1..2000 (default 500).
    ///
    /// Radius in metres, 1..2000 (default 500).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<i64>,
    /// BICYCLE, SCOOTER, SCOOTER_STANDING, SCOOTER_SEATED, CARGO_BICYCLE, CAR, MOPED, OTHER.
    ///
    /// Keep stations offering, and vehicles of, these form factors: BICYCLE, SCOOTER,
    /// SCOOTER_STANDING, SCOOTER_SEATED, CARGO_BICYCLE, CAR, MOPED, OTHER.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form_factors: Option<Vec<String>>,
    /// Most of each list (default 10, at most 50).
    ///
    /// Most stations, and most vehicles, returned (default 10; above 50 it is capped with
    /// a warning).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_results: Option<i64>,
}

/// A city bike station (or another docked rental station).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct RentalStation {
    /// The station's id, e.g. `smoove:070`.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Latitude.
    pub lat: f64,
    /// Longitude.
    pub lon: f64,
    /// Distance from the coordinate, in metres.
    pub distance: f64,
    /// Vehicles ready to take.
    pub bikes: i64,
    /// Free places to return one.
    pub spaces: i64,
    /// Whether a vehicle may be taken now.
    pub allow_pickup: bool,
    /// Whether a vehicle may be returned now.
    pub allow_dropoff: bool,
    /// The rental network, e.g. `smoove` or `vantaa`.
    pub network: String,
    /// Whether the station is in service (false out of season).
    pub operative: bool,
}

/// A free-floating rental vehicle (a scooter, a bike without a dock).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct RentalVehicle {
    /// The vehicle's id.
    pub id: String,
    /// BICYCLE, SCOOTER, SCOOTER_STANDING, …
    pub form_factor: String,
    /// Latitude.
    pub lat: f64,
    /// Longitude.
    pub lon: f64,
    /// Distance from the coordinate, in metres.
    pub distance: f64,
    /// How far it can go on its charge, in metres, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<f64>,
    /// The rental network, e.g. `tier_helsinki`.
    pub network: String,
}

/// `find_rental_vehicles` success body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct FindRentalVehiclesResult {
    /// The answer in words: the nearest station with bikes and free spaces, the nearest
    /// free-floating vehicle, and how many of each.
    pub message: String,
    /// Stations, nearest first.
    pub stations: Vec<RentalStation>,
    /// Free-floating vehicles, nearest first.
    pub vehicles: Vec<RentalVehicle>,
    /// The call's correlation id (UUID).
    pub correlation_id: String,
    /// Notes (`truncated-results`; `no-results` when nothing is in range, which is normal
    /// for city bikes in winter).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warnings: Option<Vec<Warning>>,
    /// When the upstream answer was fetched, and whether it is stale.
    #[serde(flatten)]
    pub served: Option<crate::http::ServedFields>,
}
