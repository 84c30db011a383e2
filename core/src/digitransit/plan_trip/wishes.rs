//! `plan_trip`'s routing wishes checked (transit modes, a via point) and sent as OTP
//! `planConnection` variables (`modes`, `via`), as the digitransit-site docs give them.

use super::choices::{BikeUse, ViaPoint};
use super::types::PlanConstraints;
use super::variables::{ModeChoice, Modes, Via};
use crate::Toolpack;
use crate::digitransit::departures::MAX_ID_CHARS;
use crate::digitransit::place::{Coordinate, checked_text};
use crate::digitransit::response::Failure;
use crate::digitransit::user_variables::saved_location;

/// The via point a text names: `lat,lon` is a point, a `FEED:ID` without spaces a stop or
/// station, anything else the label of a saved place (its point is visited).
pub(super) async fn resolve_via(
    toolpack: &Toolpack,
    via: Option<String>,
) -> Result<Option<ViaPoint>, Failure> {
    const FIELD: &str = "constraints.via";
    let Some(text) = via else {
        return Ok(None);
    };
    let text = checked_text(FIELD, &text, MAX_ID_CHARS)?;
    let mut point = ViaPoint {
        stop_id: None,
        coordinate: None,
        label: None,
        name: None,
    };
    if let Some(coordinate) = lat_lon(text) {
        coordinate.validate(FIELD)?;
        point.coordinate = Some(coordinate);
    } else if text.contains(':') && !text.contains(char::is_whitespace) {
        point.stop_id = Some(text.to_owned());
    } else {
        let saved = saved_location(toolpack, FIELD, text).await?;
        point.coordinate = Some(Coordinate::new(saved.lat, saved.lon));
        point.label = Some(text.to_owned());
        point.name = saved.name.or(saved.label);
    }
    Ok(Some(point))
}

/// `60.2,24.9` (spaces allowed around the comma) as a point.
fn lat_lon(text: &str) -> Option<Coordinate> {
    let (lat, lon) = text.split_once(',')?;
    Some(Coordinate::new(
        lat.trim().parse().ok()?,
        lon.trim().parse().ok()?,
    ))
}

/// OTP's `via`: a stop is passed through (on board or changing there), a point visited.
pub(super) fn via_variable(via: &ViaPoint) -> [Via<'_>; 1] {
    let label = via.name.as_deref().or(via.label.as_deref());
    [match (&via.stop_id, via.coordinate) {
        (Some(stop), _) => Via::PassThrough {
            stop_location_ids: [stop.as_str()],
            label,
        },
        // A via point is a stop or a point: `resolve_via` makes no other.
        (None, point) => Via::Visit {
            coordinate: point.unwrap_or(Coordinate::new(0.0, 0.0)).into(),
            label,
        },
    }]
}

/// Where the bike rides, by phase: `own` on board everywhere (transit only), `cityBike`
/// rented to, from or instead of transit, `park` ridden to a bike park.
const BICYCLE: &[&str] = &["BICYCLE"];
const RENTAL: &[&str] = &["BICYCLE_RENTAL"];
const PARKING: &[&str] = &["BICYCLE_PARKING"];

/// OTP's `modes`: the transit modes allowed and how a bike comes along; `None` when the
/// call asks for neither (OTP's defaults: every mode, walking to and from transit).
pub(super) fn modes_variable(constraints: &PlanConstraints) -> Option<Modes> {
    if constraints.modes.is_none() && constraints.bike.is_none() {
        return None;
    }
    let mut modes = Modes::default();
    modes.transit.transit = constraints.modes.as_ref().map(|list| {
        list.iter()
            .map(|m| ModeChoice { mode: m.otp_name() })
            .collect()
    });
    match constraints.bike {
        Some(BikeUse::Own) => {
            modes.transit_only = Some(true);
            modes.transit.access = Some(BICYCLE);
            modes.transit.transfer = Some(BICYCLE);
            modes.transit.egress = Some(BICYCLE);
        }
        Some(BikeUse::CityBike) => {
            modes.direct = Some(RENTAL);
            modes.transit.access = Some(RENTAL);
            modes.transit.egress = Some(RENTAL);
        }
        Some(BikeUse::Park) => modes.transit.access = Some(PARKING),
        None => {}
    }
    Some(modes)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_point_is_read_from_lat_comma_lon() {
        assert_eq!(lat_lon("60.2, 24.9"), Some(Coordinate::new(60.2, 24.9)));
        assert_eq!(lat_lon("HSL:1000003"), None);
        assert_eq!(lat_lon("home"), None);
        assert_eq!(lat_lon("60.2,east"), None);
    }

    #[test]
    fn a_stop_is_passed_through_and_a_point_visited_with_its_name() {
        let stop = ViaPoint {
            stop_id: Some("HSL:1000003".into()),
            coordinate: None,
            label: None,
            name: None,
        };
        assert_eq!(
            serde_json::to_value(via_variable(&stop)).unwrap(),
            json!([{ "passThrough": { "stopLocationIds": ["HSL:1000003"] } }])
        );
        let saved = ViaPoint {
            stop_id: None,
            coordinate: Some(Coordinate::new(60.2, 24.9)),
            label: Some("friend".into()),
            name: Some("Maija's".into()),
        };
        assert_eq!(
            serde_json::to_value(via_variable(&saved)).unwrap(),
            json!([{ "visit": {
                "coordinate": { "latitude": 60.2, "longitude": 24.9 },
                "label": "Maija's"
            } }])
        );
    }
}
