//! OTP `planConnection` answers → [`Itinerary`] values: leg status from the realtime
//! fields, schedule type, and the fingerprint of the notes (§5).

use serde::Deserialize;
use sha1::{Digest, Sha1};

use super::types::{Itinerary, Leg, LegFare, LegPlace, ScheduleType};
use crate::digitransit::alerts::wire::{OtpAlert, summaries};
use crate::digitransit::departures::{TransitStatus, transit_status};
use crate::digitransit::place::{Coordinate, OtpRoute, contract_mode};
use crate::digitransit::time::{duration_seconds, parse_offset_time};
use crate::geo::six_decimals;
use crate::http::encode_component;

/// `data` of a `planConnection` answer.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PlanData {
    pub plan_connection: Option<PlanConnection>,
}

/// The connection: routing errors and itineraries.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PlanConnection {
    #[serde(default)]
    pub routing_errors: Vec<RoutingError>,
    #[serde(default)]
    pub edges: Vec<Edge>,
}

/// Why OTP found nothing.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RoutingError {
    pub code: String,
    pub description: Option<String>,
    pub input_field: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Edge {
    node: Node,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Node {
    start: String,
    end: String,
    duration: Option<f64>,
    number_of_transfers: Option<u32>,
    walk_distance: Option<f64>,
    emissions_per_person: Option<Emissions>,
    #[serde(default)]
    legs: Vec<WireLeg>,
}

#[derive(Debug, Deserialize)]
struct Emissions {
    co2: Option<f64>,
}

/// One use of a fare product (OTP `FareProductUse`).
#[derive(Debug, Deserialize)]
struct FareUse {
    id: String,
    product: Option<FareProduct>,
}

#[derive(Debug, Deserialize)]
struct FareProduct {
    name: Option<String>,
    price: Option<Money>,
}

#[derive(Debug, Deserialize)]
struct Money {
    amount: Option<f64>,
    currency: Option<Currency>,
}

#[derive(Debug, Deserialize)]
struct Currency {
    code: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireLeg {
    mode: Option<String>,
    rented_bike: Option<bool>,
    real_time: Option<bool>,
    realtime_state: Option<String>,
    distance: Option<f64>,
    headsign: Option<String>,
    start: LegTime,
    end: LegTime,
    from: WirePlace,
    to: WirePlace,
    route: Option<OtpRoute>,
    #[serde(default)]
    alerts: Option<Vec<Option<OtpAlert>>>,
    #[serde(default)]
    fare_products: Option<Vec<Option<FareUse>>>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct LegTime {
    scheduled_time: String,
    estimated: Option<Estimated>,
}

#[derive(Debug, Deserialize)]
struct Estimated {
    time: Option<String>,
    delay: Option<String>,
}

#[derive(Debug, Deserialize)]
struct WirePlace {
    name: Option<String>,
    lat: f64,
    lon: f64,
    stop: Option<WireStop>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireStop {
    gtfs_id: Option<String>,
    platform_code: Option<String>,
    wheelchair_boarding: Option<String>,
}

/// An itinerary with what the pipeline decides on.
#[derive(Debug, Clone)]
pub(crate) struct Planned {
    pub itinerary: Itinerary,
    /// A leg is cancelled or over [`DISRUPTION_DELAY_SECS`] late.
    pub disrupted: bool,
    /// A leg is cancelled.
    pub cancelled: bool,
    /// Transit legs with an estimate / all transit legs.
    pub realtime_legs: (usize, usize),
    /// Stops boarded or left whose step-free access OTP does not know.
    pub unknown_step_free: Vec<String>,
    /// Arrival, for ordering.
    pub end_ts: jiff::Timestamp,
}

/// A delay beyond this many seconds counts as a disruption.
pub const DISRUPTION_DELAY_SECS: i64 = 300;

/// The itineraries of one answer; an edge that cannot be read is skipped.
pub(crate) fn itineraries(edges: Vec<Edge>) -> Vec<Planned> {
    edges.into_iter().filter_map(|e| planned(e.node)).collect()
}

fn planned(node: Node) -> Option<Planned> {
    let end_ts = parse_offset_time(&node.end)?;
    let start_ts = parse_offset_time(&node.start)?;
    let (mut disrupted, mut cancelled) = (false, false);
    let (mut with_estimate, mut transit) = (0, 0);
    let mut unknown_step_free = Vec::new();
    let mut legs = Vec::with_capacity(node.legs.len());
    for wire in node.legs {
        let is_transit = wire.route.is_some() && wire.mode.as_deref() != Some("WALK");
        let estimate = wire
            .start
            .estimated
            .as_ref()
            .or(wire.end.estimated.as_ref())
            .filter(|_| wire.real_time != Some(false));
        let delay = estimate.map(|e| e.delay.as_deref().and_then(duration_seconds).unwrap_or(0));
        let status = transit_status(wire.realtime_state.as_deref(), delay);
        if is_transit {
            transit += 1;
            with_estimate += usize::from(estimate.is_some());
            cancelled |= status == TransitStatus::Cancelled;
            disrupted |= status == TransitStatus::Cancelled
                || delay.is_some_and(|d| d > DISRUPTION_DELAY_SECS);
            for place in [&wire.from, &wire.to] {
                let known = place
                    .stop
                    .as_ref()
                    .and_then(|s| s.wheelchair_boarding.as_deref())
                    .is_some_and(|w| w != "NO_INFORMATION");
                if !known {
                    unknown_step_free.push(place.name.clone().unwrap_or_default());
                }
            }
        }
        let route = wire.route.as_ref();
        legs.push(Leg {
            mode: contract_mode(
                wire.mode
                    .as_deref()
                    .or(route.and_then(|r| r.mode.as_deref()))
                    .unwrap_or("WALK"),
            ),
            line: route.and_then(OtpRoute::line),
            headsign: wire.headsign.clone(),
            from: Some(leg_place(wire.from)),
            to: leg_place(wire.to),
            realtime_departure: wire.start.estimated.as_ref().and_then(|e| e.time.clone()),
            scheduled_departure: wire.start.scheduled_time,
            realtime_arrival: wire.end.estimated.as_ref().and_then(|e| e.time.clone()),
            scheduled_arrival: wire.end.scheduled_time,
            realtime_delay_seconds: delay,
            status,
            distance_meters: round1(wire.distance.unwrap_or_default()),
            alerts: Some(summaries(wire.alerts)).filter(|alerts| !alerts.is_empty()),
            rented_bike: wire.rented_bike.filter(|rented| *rented),
            fare_products: fares(wire.fare_products),
        });
    }
    let fingerprint = fingerprint(&legs);
    let duration = node
        .duration
        .map_or_else(|| (end_ts - start_ts).get_seconds(), |d| d.round() as i64);
    unknown_step_free.dedup();
    Some(Planned {
        itinerary: Itinerary {
            start: node.start,
            end: node.end,
            duration_seconds: duration,
            number_of_transfers: node.number_of_transfers.unwrap_or_default(),
            walk_distance_meters: round1(node.walk_distance.unwrap_or_default()),
            legs,
            schedule_type: schedule_type(with_estimate, transit),
            fingerprint,
            disruption_flag: None,
            co2_grams_per_person: node.emissions_per_person.and_then(|e| e.co2),
        },
        disrupted,
        cancelled,
        realtime_legs: (with_estimate, transit),
        unknown_step_free,
        end_ts,
    })
}

/// A leg's tickets: each named use once, in OTP's order; `None` when there are none.
fn fares(uses: Option<Vec<Option<FareUse>>>) -> Option<Vec<LegFare>> {
    let fares: Vec<LegFare> = uses
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|used| {
            let product = used.product?;
            let price = product.price;
            Some(LegFare {
                name: product.name?,
                price: price.as_ref().and_then(|p| p.amount),
                currency: price.and_then(|p| p.currency).and_then(|c| c.code),
                use_id: used.id,
            })
        })
        .collect();
    (!fares.is_empty()).then_some(fares)
}

fn leg_place(place: WirePlace) -> LegPlace {
    let stop = place.stop;
    LegPlace {
        name: place.name.unwrap_or_default(),
        coordinate: Coordinate::new(six_decimals(place.lat), six_decimals(place.lon)),
        stop_id: stop.as_ref().and_then(|s| s.gtfs_id.clone()),
        platform: stop.and_then(|s| s.platform_code),
    }
}

/// The itinerary as the answer gives it: a leg's start left out when it is where the leg
/// before ended, and realtime times left out when they are the timetabled ones (the delay
/// says realtime data stands behind them).
pub(crate) fn lean(mut itinerary: Itinerary) -> Itinerary {
    let mut previous_end: Option<LegPlace> = None;
    for leg in &mut itinerary.legs {
        if leg.from.is_some() && leg.from == previous_end {
            leg.from = None;
        }
        previous_end = Some(leg.to.clone());
        if leg.realtime_departure.as_ref() == Some(&leg.scheduled_departure) {
            leg.realtime_departure = None;
        }
        if leg.realtime_arrival.as_ref() == Some(&leg.scheduled_arrival) {
            leg.realtime_arrival = None;
        }
    }
    itinerary
}

fn round1(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

/// `realtime` when every transit leg has an estimate, `mixed` when some do, else
/// `scheduled` (also with no transit leg at all).
pub(crate) fn schedule_type(with_estimate: usize, transit: usize) -> ScheduleType {
    match (with_estimate, transit) {
        (0, _) => ScheduleType::Scheduled,
        (w, t) if w == t => ScheduleType::Realtime,
        _ => ScheduleType::Mixed,
    }
}

/// `"sha1:" + hex(sha1(legs.map(enc(mode)|enc(line)|enc(from.id ?? from.name)|enc(to.id ??
/// to.name)).join("~") + "|" + startBucket))`, where `startBucket` is the UTC minute of the
/// first leg's scheduled departure, floored to an even minute (`YYYY-MM-DDTHH:MMZ`).
pub fn fingerprint(legs: &[Leg]) -> String {
    let end_of = |place: &LegPlace| place.stop_id.clone().unwrap_or_else(|| place.name.clone());
    let parts: Vec<String> = legs
        .iter()
        .map(|leg| {
            [
                leg.mode.as_str(),
                leg.line.as_deref().unwrap_or_default(),
                &leg.from.as_ref().map(end_of).unwrap_or_default(),
                &end_of(&leg.to),
            ]
            .map(encode_component)
            .join("|")
        })
        .collect();
    let bucket = legs
        .first()
        .and_then(|leg| parse_offset_time(&leg.scheduled_departure))
        .map(|ts| {
            let minute = ts.as_second().div_euclid(60);
            let even = minute - minute.rem_euclid(2);
            jiff::Timestamp::from_second(even * 60)
                .map(|t| t.strftime("%Y-%m-%dT%H:%MZ").to_string())
                .unwrap_or_default()
        })
        .unwrap_or_default();
    let digest = Sha1::digest(format!("{}|{bucket}", parts.join("~")).as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha1:{hex}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leg(departure: &str) -> Leg {
        let place = |name: &str, id: Option<&str>| LegPlace {
            name: name.into(),
            coordinate: Coordinate::new(60.0, 25.0),
            stop_id: id.map(Into::into),
            platform: None,
        };
        Leg {
            mode: "TRAM".into(),
            line: Some("10".into()),
            headsign: None,
            from: Some(place("Lasipalatsi", Some("HSL:1020444"))),
            to: place("Jalavatie | x", None),
            scheduled_departure: departure.into(),
            realtime_departure: None,
            scheduled_arrival: departure.into(),
            realtime_arrival: None,
            realtime_delay_seconds: None,
            status: TransitStatus::ScheduledOnly,
            distance_meters: 0.0,
            alerts: None,
            rented_bike: None,
            fare_products: None,
        }
    }

    #[test]
    fn the_fingerprint_is_the_notes_formula() {
        // Built by hand: TRAM|10|HSL%3A1020444|Jalavatie%20%7C%20x + "|2021-06-29T14:12Z".
        let expected = {
            let text = "TRAM|10|HSL%3A1020444|Jalavatie%20%7C%20x|2021-06-29T14:12Z";
            let hex: String = Sha1::digest(text.as_bytes())
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            format!("sha1:{hex}")
        };
        assert_eq!(fingerprint(&[leg("2021-06-29T17:13:00+03:00")]), expected);
        // 17:12:59 and 17:13:59 share the even-minute bucket 14:12Z; 17:14 does not.
        assert_eq!(
            fingerprint(&[leg("2021-06-29T17:12:59+03:00")]),
            fingerprint(&[leg("2021-06-29T17:13:59+03:00")])
        );
        assert_ne!(
            fingerprint(&[leg("2021-06-29T17:13:00+03:00")]),
            fingerprint(&[leg("2021-06-29T17:14:00+03:00")])
        );
    }

    #[test]
    fn schedule_type_counts_transit_legs_only() {
        assert_eq!(schedule_type(0, 0), ScheduleType::Scheduled);
        assert_eq!(schedule_type(2, 2), ScheduleType::Realtime);
        assert_eq!(schedule_type(1, 2), ScheduleType::Mixed);
    }
}
