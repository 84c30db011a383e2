//! `plan_trip`'s routing wishes checked (transit modes, a via point) and sent as OTP
//! `planConnection` variables (`modes`, `via`), as the digitransit-site docs give them.

use serde_json::{Value, json};

use super::choices::{BikeUse, ViaPoint};
use super::types::PlanConstraints;
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
pub(super) fn via_variable(via: &ViaPoint) -> Value {
    let label = via.name.as_ref().or(via.label.as_ref());
    let mut location = match (&via.stop_id, &via.coordinate) {
        (Some(stop), _) => json!({ "passThrough": { "stopLocationIds": [stop] } }),
        (None, Some(point)) => json!({ "visit": { "coordinate": {
            "latitude": point.lat,
            "longitude": point.lon,
        } } }),
        (None, None) => json!({}),
    };
    if let (Some(label), Some(inner)) = (
        label,
        location.as_object_mut().and_then(|o| o.values_mut().next()),
    ) {
        inner["label"] = Value::String(label.clone());
    }
    json!([location])
}

/// OTP's `modes`: the transit modes allowed and how a bike comes along; `None` when the
/// call asks for neither (OTP's defaults: every mode, walking to and from transit).
pub(super) fn modes_variable(constraints: &PlanConstraints) -> Option<Value> {
    if constraints.modes.is_none() && constraints.bike.is_none() {
        return None;
    }
    let mut modes = json!({});
    let mut transit = json!({});
    if let Some(list) = &constraints.modes {
        let list: Vec<Value> = list
            .iter()
            .map(|m| json!({ "mode": m.otp_name() }))
            .collect();
        transit["transit"] = Value::Array(list);
    }
    match constraints.bike {
        Some(BikeUse::Own) => {
            modes["transitOnly"] = Value::Bool(true);
            for phase in ["access", "transfer", "egress"] {
                transit[phase] = json!(["BICYCLE"]);
            }
        }
        Some(BikeUse::CityBike) => {
            modes["direct"] = json!(["BICYCLE_RENTAL"]);
            for phase in ["access", "egress"] {
                transit[phase] = json!(["BICYCLE_RENTAL"]);
            }
        }
        Some(BikeUse::Park) => transit["access"] = json!(["BICYCLE_PARKING"]),
        None => {}
    }
    modes["transit"] = transit;
    Some(modes)
}

#[cfg(test)]
mod tests {
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
            via_variable(&stop),
            json!([{ "passThrough": { "stopLocationIds": ["HSL:1000003"] } }])
        );
        let saved = ViaPoint {
            stop_id: None,
            coordinate: Some(Coordinate::new(60.2, 24.9)),
            label: Some("friend".into()),
            name: Some("Maija's".into()),
        };
        assert_eq!(
            via_variable(&saved),
            json!([{ "visit": {
                "coordinate": { "latitude": 60.2, "longitude": 24.9 },
                "label": "Maija's"
            } }])
        );
    }
}
