//! `find_rental_vehicles`: city bike stations and free-floating vehicles near a point
//! (OTP `nearest` with `VEHICLE_RENT`), nearest first; form factors are filtered here.

mod types;

pub use types::{
    FindRentalVehiclesRequest, FindRentalVehiclesResult, RentalStation, RentalVehicle,
};

use serde::Deserialize;
use serde_json::json;

use super::place::{Language, MaxResults, checked_range};
use super::response::{DigitransitResponse, Failure, Warning, WarningCode, warnings};
use super::upstream::{self, UpstreamFailure};
use crate::Toolpack;
use crate::config::Config;
use crate::http::AnswerKind;
use crate::tool::{Tool, ToolSpec};

/// The query sent (also checked against the OTP schema in tests).
pub const QUERY: &str = include_str!("../queries/rental.graphql");
/// Most stations (and most vehicles) returned; a larger `maxResults` is capped with a warning.
pub const MAX_RESULTS: i64 = 50;
/// Places asked of the router: enough for both lists after a form-factor filter.
pub const POOL: i64 = 200;
/// The form factors `formFactors` takes (OTP's names).
pub const FORM_FACTORS: [&str; 8] = [
    "BICYCLE",
    "CARGO_BICYCLE",
    "CAR",
    "MOPED",
    "SCOOTER",
    "SCOOTER_STANDING",
    "SCOOTER_SEATED",
    "OTHER",
];

/// The `find_rental_vehicles` tool.
#[derive(Debug, Clone, Copy)]
pub struct FindRentalVehicles;

crate::tool::live_bodies!(FindRentalVehiclesResult);

impl Tool for FindRentalVehicles {
    type Input = FindRentalVehiclesRequest;
    type Output = DigitransitResponse<FindRentalVehiclesResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "find_rental_vehicles",
        title: "City bikes and scooters in Finland",
        description: "City bike stations and rental scooters near a point in Finland: bikes and free spaces \
now.",
        summary: "City bike stations and scooters near a point, with availability",
        ..upstream::LIVE_TOOL
    };

    fn missing_prerequisite(config: &Config) -> Option<String> {
        upstream::missing_key(config)
    }

    async fn run(toolpack: &Toolpack, input: Self::Input) -> Self::Output {
        DigitransitResponse::answer(|id| rentals(toolpack, input, id)).await
    }
}

#[derive(Debug, Deserialize)]
struct Data {
    nearest: Option<Connection>,
}

#[derive(Debug, Deserialize)]
struct Connection {
    #[serde(default)]
    edges: Vec<Edge>,
}

#[derive(Debug, Deserialize)]
struct Edge {
    node: Node,
}

#[derive(Debug, Deserialize)]
struct Node {
    distance: Option<f64>,
    place: Option<Place>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Place {
    #[serde(rename = "__typename")]
    typename: String,
    station_id: Option<String>,
    vehicle_id: Option<String>,
    name: Option<String>,
    lat: Option<f64>,
    lon: Option<f64>,
    operative: Option<bool>,
    allow_pickup_now: Option<bool>,
    allow_dropoff_now: Option<bool>,
    available_vehicles: Option<Counts>,
    available_spaces: Option<Counts>,
    rental_network: Option<Network>,
    vehicle_type: Option<VehicleType>,
    fuel: Option<Fuel>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Counts {
    total: i64,
    #[serde(default)]
    by_type: Vec<TypeCount>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct TypeCount {
    vehicle_type: VehicleType,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct VehicleType {
    form_factor: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Network {
    network_id: String,
}

#[derive(Debug, Deserialize)]
struct Fuel {
    range: Option<f64>,
}

async fn rentals(
    toolpack: &Toolpack,
    input: FindRentalVehiclesRequest,
    correlation_id: String,
) -> Result<FindRentalVehiclesResult, Failure> {
    input.coordinate.validate("coordinate")?;
    let radius = checked_range("radius", input.radius, 1..=2000, 500)?;
    let asked = MaxResults::checked(input.max_results, 10, MAX_RESULTS)?;
    let max_results = asked.limit();
    let form_factors = checked_form_factors(input.form_factors.as_deref().unwrap_or_default())?;
    let variables = json!({
        "lat": input.coordinate.lat,
        "lon": input.coordinate.lon,
        "radius": radius,
        "first": POOL,
    });
    let nearby = upstream::graphql_shaped(
        toolpack,
        AnswerKind::Bikes,
        QUERY,
        "Rentals",
        variables,
        Language::En,
        Nearby::of,
    )
    .await
    .map_err(UpstreamFailure::for_routing)?;
    let stations: Vec<&RentalStation> = nearby
        .stations
        .iter()
        .filter(|(kinds, _)| offers(kinds, &form_factors))
        .map(|(_, station)| station)
        .collect();
    let vehicles: Vec<&RentalVehicle> = nearby
        .vehicles
        .iter()
        .filter(|(kind, _)| is_one_of(kind.as_deref(), &form_factors))
        .map(|(_, vehicle)| vehicle)
        .collect();
    let mut notes = Vec::new();
    if let Some(capped) = asked.capped() {
        notes.push(capped);
    } else if stations.len() > max_results || vehicles.len() > max_results {
        notes.push(Warning::new(
            WarningCode::TruncatedResults,
            format!("More are in range; the nearest {max_results} of each are returned."),
        ));
    }
    if stations.is_empty() && vehicles.is_empty() {
        notes.push(Warning::new(
            WarningCode::NoResults,
            format!(
                "No rental stations or vehicles within {radius} m. City bikes are out of \
season in winter (in Helsinki from November to March), so an empty answer then is normal."
            ),
        ));
    }
    let stations: Vec<RentalStation> = stations.into_iter().take(max_results).cloned().collect();
    let vehicles: Vec<RentalVehicle> = vehicles.into_iter().take(max_results).cloned().collect();
    Ok(FindRentalVehiclesResult {
        message: rental_message(&stations, &vehicles),
        served: None,
        stations,
        vehicles,
        correlation_id,
        warnings: warnings(notes),
    })
}

/// What a person asking "where can I rent one" hears: the nearest station that has a
/// bike (else the nearest station), with its bikes and free spaces; the nearest
/// free-floating vehicle; how many of each.
fn rental_message(stations: &[RentalStation], vehicles: &[RentalVehicle]) -> String {
    let mut said = Vec::new();
    let with_bikes = stations.iter().find(|s| s.bikes > 0 && s.operative);
    if let Some(station) = with_bikes.or(stations.first()) {
        let lead = match with_bikes {
            Some(_) => "Nearest station with bikes",
            None => "No station has a bike; nearest",
        };
        let closed = if station.operative {
            ""
        } else {
            ", not in service"
        };
        said.push(format!(
            "{lead}: {}, {:.0} m: {} bikes, {} free spaces{closed}.",
            station.name, station.distance, station.bikes, station.spaces
        ));
    }
    if let Some(vehicle) = vehicles.first() {
        let kind = match vehicle.form_factor.as_str() {
            "SCOOTER_STANDING" => "e-scooter".to_owned(),
            "SCOOTER_SEATED" => "seated scooter".to_owned(),
            "BICYCLE" => "bike".to_owned(),
            "CARGO_BICYCLE" => "cargo bike".to_owned(),
            other => other.to_lowercase().replace('_', " "),
        };
        said.push(format!(
            "Nearest {kind}: {:.0} m ({}).",
            vehicle.distance, vehicle.network
        ));
    }
    if said.is_empty() {
        return "No rental station or vehicle within the radius.".to_owned();
    }
    let count = |n: usize, one: &str, many: &str| match n {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    };
    said.push(format!(
        "{} and {} listed.",
        count(stations.len(), "station", "stations"),
        count(
            vehicles.len(),
            "free-floating vehicle",
            "free-floating vehicles"
        )
    ));
    said.join(" ")
}

impl Place {
    fn network(&self) -> String {
        self.rental_network
            .as_ref()
            .map(|n| n.network_id.clone())
            .unwrap_or_default()
    }

    /// The form factors a station holds or has a space for.
    fn kinds_held(&self) -> Vec<String> {
        let mut held: Vec<String> = self
            .available_vehicles
            .iter()
            .chain(&self.available_spaces)
            .flat_map(|c| &c.by_type)
            .filter_map(|t| t.vehicle_type.form_factor.clone())
            .collect();
        held.sort();
        held.dedup();
        held
    }

    fn station(self, distance: f64) -> Option<RentalStation> {
        let network = self.network();
        let operative = self.operative.unwrap_or(false);
        Some(RentalStation {
            id: self.station_id?,
            name: self.name.unwrap_or_default(),
            lat: self.lat?,
            lon: self.lon?,
            distance,
            bikes: self.available_vehicles.map_or(0, |c| c.total),
            spaces: self.available_spaces.map_or(0, |c| c.total),
            allow_pickup: self.allow_pickup_now.unwrap_or(operative),
            allow_dropoff: self.allow_dropoff_now.unwrap_or(operative),
            network,
            operative,
        })
    }

    fn vehicle(self, distance: f64) -> Option<RentalVehicle> {
        let network = self.network();
        Some(RentalVehicle {
            id: self.vehicle_id?,
            form_factor: self
                .vehicle_type
                .and_then(|t| t.form_factor)
                .unwrap_or_else(|| "OTHER".to_owned()),
            lat: self.lat?,
            lon: self.lon?,
            distance,
            range: self.fuel.and_then(|f| f.range),
            network,
        })
    }
}

/// Rental places near the point asked about, nearest first, each with the form factors
/// it offers: made once per upstream answer, filtered by each call.
struct Nearby {
    stations: Vec<(Vec<String>, RentalStation)>,
    vehicles: Vec<(Option<String>, RentalVehicle)>,
}

impl Nearby {
    fn of(data: Data) -> Self {
        let mut nearby = Self {
            stations: Vec::new(),
            vehicles: Vec::new(),
        };
        for edge in data.nearest.map(|c| c.edges).unwrap_or_default() {
            let distance = edge.node.distance.unwrap_or_default();
            let Some(place) = edge.node.place else {
                continue;
            };
            match place.typename.as_str() {
                "VehicleRentalStation" => {
                    let kinds = place.kinds_held();
                    nearby
                        .stations
                        .extend(place.station(distance).map(|s| (kinds, s)));
                }
                "RentalVehicle" => {
                    let kind = place
                        .vehicle_type
                        .as_ref()
                        .and_then(|t| t.form_factor.clone());
                    nearby
                        .vehicles
                        .extend(place.vehicle(distance).map(|v| (kind, v)));
                }
                _ => {}
            }
        }
        nearby.stations.sort_by(|(_, a), (_, b)| {
            a.distance
                .total_cmp(&b.distance)
                .then_with(|| a.id.cmp(&b.id))
        });
        nearby.vehicles.sort_by(|(_, a), (_, b)| {
            a.distance
                .total_cmp(&b.distance)
                .then_with(|| a.id.cmp(&b.id))
        });
        nearby
    }
}

/// Whether a station holding or taking `held` offers one of `form_factors` (any, when
/// none are asked for or the station does not say what it takes).
fn offers(held: &[String], form_factors: &[String]) -> bool {
    form_factors.is_empty() || held.is_empty() || held.iter().any(|f| form_factors.contains(f))
}

/// Whether a vehicle of `kind` is of one of `form_factors` (any, when none are asked for).
fn is_one_of(kind: Option<&str>, form_factors: &[String]) -> bool {
    form_factors.is_empty() || kind.is_some_and(|f| form_factors.iter().any(|asked| asked == f))
}

fn checked_form_factors(form_factors: &[String]) -> Result<Vec<String>, Failure> {
    form_factors
        .iter()
        .map(|f| {
            let upper = f.trim().to_uppercase();
            if FORM_FACTORS.contains(&upper.as_str()) {
                Ok(upper)
            } else {
                Err(Failure::validation(format!(
                    "formFactors takes {}; got '{f}'.",
                    FORM_FACTORS.join(", ")
                )))
            }
        })
        .collect()
}
