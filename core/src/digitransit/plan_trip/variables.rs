//! `planConnection`'s variables as OTP reads them, typed: a call writes them straight into
//! the request's JSON, without a `Value` tree built first (the tree's allocations were most
//! of what the planning wishes cost on a call answered from the cache).

use serde::Serialize;

use crate::digitransit::place::Coordinate;

/// The variables of the `PlanTrip` query.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Variables<'a> {
    pub origin: Location<'a>,
    pub destination: Location<'a>,
    pub date_time: DateTime<'a>,
    pub first: u32,
    pub preferences: Preferences,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modes: Option<Modes>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<[Via<'a>; 1]>,
}

/// `PlanLabeledLocationInput`: a point, and the name OTP labels it with.
#[derive(Debug, Serialize)]
pub(super) struct Location<'a> {
    pub location: PointLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<&'a str>,
}

/// `PlanLocationInput` of a coordinate.
#[derive(Debug, Serialize)]
pub(super) struct PointLocation {
    pub coordinate: LatLon,
}

/// `PlanCoordinateInput`.
#[derive(Debug, Serialize)]
pub(super) struct LatLon {
    pub latitude: f64,
    pub longitude: f64,
}

impl From<Coordinate> for LatLon {
    fn from(point: Coordinate) -> Self {
        Self {
            latitude: point.lat,
            longitude: point.lon,
        }
    }
}

/// `PlanDateTimeInput`: leave after, or arrive by, a time.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) enum DateTime<'a> {
    EarliestDeparture(&'a str),
    LatestArrival(&'a str),
}

/// `PlanPreferencesInput`, the parts the tool sets.
#[derive(Debug, Serialize)]
pub(super) struct Preferences {
    pub accessibility: Accessibility,
    pub street: Street,
    pub transit: Transit,
}

#[derive(Debug, Serialize)]
pub(super) struct Accessibility {
    pub wheelchair: Enabled,
}

#[derive(Debug, Serialize)]
pub(super) struct Enabled {
    pub enabled: bool,
}

#[derive(Debug, Serialize)]
pub(super) struct Street {
    pub walk: Walk,
}

/// `WalkPreferencesInput`: reluctance, board cost and, when asked, speed (m/s).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Walk {
    pub reluctance: f64,
    pub board_cost: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed: Option<f64>,
}

#[derive(Debug, Serialize)]
pub(super) struct Transit {
    pub transfer: Transfer,
    pub timetable: Timetable,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Transfer {
    pub maximum_transfers: u32,
    pub cost: u32,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Timetable {
    pub include_real_time_cancellations: bool,
}

/// `PlanModesInput`, the parts the tool sets.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Modes {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transit_only: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub direct: Option<&'static [&'static str]>,
    pub transit: TransitModes,
}

/// `PlanTransitModesInput`.
#[derive(Debug, Default, Serialize)]
pub(super) struct TransitModes {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transit: Option<Vec<ModeChoice>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub access: Option<&'static [&'static str]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transfer: Option<&'static [&'static str]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub egress: Option<&'static [&'static str]>,
}

/// `PlanTransitModePreferenceInput` of one mode.
#[derive(Debug, Serialize)]
pub(super) struct ModeChoice {
    pub mode: &'static str,
}

/// `PlanViaLocationInput`: a stop passed through, or a point visited.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) enum Via<'a> {
    #[serde(rename_all = "camelCase")]
    PassThrough {
        stop_location_ids: [&'a str; 1],
        #[serde(skip_serializing_if = "Option::is_none")]
        label: Option<&'a str>,
    },
    Visit {
        coordinate: LatLon,
        #[serde(skip_serializing_if = "Option::is_none")]
        label: Option<&'a str>,
    },
}
