//! `geocode_address` and `reverse_geocode` request and response types.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::digitransit::place::{Coordinate, Language};
use crate::digitransit::response::Warning;

/// `geocode_address` arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct GeocodeAddressRequest {
    /// An address, place or stop name; 1..200 characters.
    ///
    /// What to look for: an address, a place or a stop name; 1..200 characters after trimming.
    pub text: String,
    /// Results, 1..40 (default 10).
    ///
    /// How many results, 1..40 (default 10). A larger size is clamped to 40 and the answer
    /// says `truncated`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
    /// The language.
    ///
    /// Language of names and labels: `fi`, `sv` or `en` (default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<Language>,
    /// A point to prefer among equal matches.
    ///
    /// A point to prefer: among results of (almost) equal confidence, nearer ones first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub focus: Option<Coordinate>,
    /// Pelias layers (at most 8), e.g. ["address", "stop"].
    ///
    /// Pelias layers to search (at most 8), e.g. `["address", "stop"]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layers: Option<Vec<String>>,
}

/// What kind of place a result is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "lowercase")]
pub enum GeocodeResultType {
    /// A street address or a street.
    Address,
    /// A venue, area or anything else.
    Poi,
    /// A public transport stop or station.
    Stop,
}

/// A bounding box.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct BoundingBox {
    /// Western edge.
    pub min_lon: f64,
    /// Eastern edge.
    pub max_lon: f64,
    /// Southern edge.
    pub min_lat: f64,
    /// Northern edge.
    pub max_lat: f64,
}

/// One place the geocoder found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct GeocodeResult {
    /// The place's name in the requested language (the default name when it has none).
    pub name: String,
    /// Where it is.
    pub coordinates: Coordinate,
    /// How well it matches, 0..1.
    pub confidence: f64,
    /// `address`, `poi` or `stop`.
    pub r#type: GeocodeResultType,
    /// The language asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// A short display label, e.g. "Kamppi, Helsinki".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// "Street number, locality" when the provider gives a street.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// The place's extent, when the provider gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounding_box: Option<BoundingBox>,
    /// For a stop or station, its OTP id (for `get_departures`), e.g. `HSL:2431252`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_id: Option<String>,
    /// Distance from the reverse-geocoded point, in metres (`reverse_geocode` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance_meters: Option<f64>,
}

/// `geocode_address` success body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct GeocodeAddressResult {
    /// The answer in words: the best match (with its stop id for a stop) and how many more.
    pub message: String,
    /// The query as searched (trimmed).
    pub query: String,
    /// The language asked for.
    pub language: Language,
    /// The places found, best first.
    pub results: Vec<GeocodeResult>,
    /// `true` when more results existed than were returned, or `size` was clamped to 40.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated: Option<bool>,
    /// Notes on the answer (`truncated-results`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warnings: Option<Vec<Warning>>,
    /// The call's correlation id (UUID).
    pub correlation_id: String,
    /// When the upstream answer was fetched, and whether it is stale.
    #[serde(flatten)]
    pub served: Option<crate::http::ServedFields>,
}

/// `reverse_geocode` arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct ReverseGeocodeRequest {
    /// Latitude.
    ///
    /// Latitude, -90..90.
    pub lat: f64,
    /// Longitude.
    ///
    /// Longitude, -180..180.
    pub lon: f64,
    /// The language.
    ///
    /// Language of names and labels: `fi`, `sv` or `en` (default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<Language>,
}

/// `reverse_geocode` success body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct ReverseGeocodeResult {
    /// The answer in words: the nearest place and how far, and how many more are near.
    pub message: String,
    /// The point asked about.
    pub query: Coordinate,
    /// The nearest place (absent when nothing is known there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GeocodeResult>,
    /// Other places nearby, nearest first.
    pub candidates: Vec<GeocodeResult>,
    /// The call's correlation id (UUID).
    pub correlation_id: String,
    /// Notes on the answer (`no-results`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warnings: Option<Vec<Warning>>,
    /// When the upstream answer was fetched, and whether it is stale.
    #[serde(flatten)]
    pub served: Option<crate::http::ServedFields>,
}
