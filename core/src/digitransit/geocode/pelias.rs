//! Pelias features → [`GeocodeResult`], and the result order of the notes (§0): a total
//! order built from confidence groups, so sorting can never see an inconsistent comparison.

use std::cmp::Ordering;

use serde::Deserialize;
use serde_json::Value;

use super::types::{BoundingBox, GeocodeResult, GeocodeResultType};
use crate::digitransit::place::{Coordinate, Language};
use crate::digitransit::upstream::UpstreamFailure;

/// Confidences within this of a group's leader count as equal.
pub const CONFIDENCE_TIE: f64 = 0.01;

#[derive(Debug, Deserialize)]
struct Collection {
    features: Vec<Feature>,
}

#[derive(Debug, Deserialize)]
struct Feature {
    geometry: Geometry,
    #[serde(default)]
    properties: Properties,
    #[serde(default)]
    bbox: Option<[f64; 4]>,
}

#[derive(Debug, Deserialize)]
struct Geometry {
    coordinates: [f64; 2],
}

#[derive(Debug, Default, Deserialize)]
struct Properties {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    gid: Option<String>,
    #[serde(default)]
    layer: Option<String>,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    label: Option<String>,
    #[serde(default)]
    housenumber: Option<String>,
    #[serde(default)]
    street: Option<String>,
    #[serde(default)]
    locality: Option<String>,
    #[serde(default)]
    confidence: Option<f64>,
    #[serde(default)]
    distance: Option<f64>,
}

/// A result with the keys it is ordered by.
#[derive(Debug, Clone)]
pub(crate) struct Ranked {
    pub result: GeocodeResult,
    pub gid: String,
}

/// The features of a Pelias answer as results in `language`.
pub(crate) fn results(envelope: Value, language: Language) -> Result<Vec<Ranked>, UpstreamFailure> {
    let collection: Collection = serde_json::from_value(envelope).map_err(|e| {
        UpstreamFailure::Malformed(format!("a geocoding answer of another shape ({e})"))
    })?;
    Ok(collection
        .features
        .into_iter()
        .filter_map(|feature| to_result(feature, language))
        .collect())
}

fn to_result(feature: Feature, language: Language) -> Option<Ranked> {
    let p = feature.properties;
    let [lon, lat] = feature.geometry.coordinates;
    let name = p.name.clone().or_else(|| p.label.clone())?;
    let layer = p.layer.as_deref().unwrap_or_default();
    let r#type = match layer {
        "stop" | "station" => GeocodeResultType::Stop,
        "address" | "street" => GeocodeResultType::Address,
        _ => GeocodeResultType::Poi,
    };
    let raw_confidence = p.confidence.unwrap_or(0.0);
    let confidence = if raw_confidence > 1.0 {
        raw_confidence / 100.0
    } else {
        raw_confidence
    }
    .clamp(0.0, 1.0);
    let address = p.street.as_deref().map(|street| {
        let line = match p.housenumber.as_deref() {
            Some(number) => format!("{street} {number}"),
            None => street.to_owned(),
        };
        match p.locality.as_deref() {
            Some(locality) => format!("{line}, {locality}"),
            None => line,
        }
    });
    let stop_id = (r#type == GeocodeResultType::Stop
        && p.source.as_deref().is_some_and(|s| s.starts_with("gtfs")))
    .then(|| p.id.as_deref().map(otp_id))
    .flatten();
    let bounding_box = feature
        .bbox
        .map(|[min_lon, min_lat, max_lon, max_lat]| BoundingBox {
            min_lon,
            max_lon,
            min_lat,
            max_lat,
        });
    Some(Ranked {
        gid: p.gid.unwrap_or_default(),
        result: GeocodeResult {
            name,
            coordinates: Coordinate::new(lat, lon),
            confidence,
            r#type,
            language: Some(language.as_str().to_owned()),
            label: p.label,
            address,
            bounding_box,
            stop_id,
            distance_meters: p.distance.map(|km| (km * 1000.0).round()),
        },
    })
}

/// A GTFS Pelias id as OTP knows it: `GTFS:HSL:2431252#E4314` → `HSL:2431252`.
pub fn otp_id(pelias_id: &str) -> String {
    let id = pelias_id.strip_prefix("GTFS:").unwrap_or(pelias_id);
    id.split('#').next().unwrap_or(id).to_owned()
}

/// Sorts by the notes' total order: confidence DESC; within a confidence group (items
/// within [`CONFIDENCE_TIE`] of the group's leader) focus distance ASC when a focus is
/// given; then name ASC (code points), then gid ASC.
pub(crate) fn sort(results: &mut [Ranked], focus: Option<Coordinate>) {
    results.sort_by(|a, b| b.result.confidence.total_cmp(&a.result.confidence));
    let mut start = 0;
    while start < results.len() {
        let floor = results[start].result.confidence - CONFIDENCE_TIE;
        let end = results[start..]
            .iter()
            .position(|r| r.result.confidence < floor)
            .map_or(results.len(), |offset| start + offset);
        results[start..end].sort_by(|a, b| within_group(a, b, focus));
        start = end;
    }
}

fn within_group(a: &Ranked, b: &Ranked, focus: Option<Coordinate>) -> Ordering {
    let by_distance = match focus {
        Some(f) => f
            .distance_m(&a.result.coordinates)
            .total_cmp(&f.distance_m(&b.result.coordinates)),
        None => Ordering::Equal,
    };
    by_distance
        .then_with(|| a.result.name.cmp(&b.result.name))
        .then_with(|| a.gid.cmp(&b.gid))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranked(name: &str, confidence: f64, lat: f64) -> Ranked {
        Ranked {
            gid: format!("gid:{name}"),
            result: GeocodeResult {
                name: name.into(),
                coordinates: Coordinate::new(lat, 25.0),
                confidence,
                r#type: GeocodeResultType::Poi,
                language: None,
                label: None,
                address: None,
                bounding_box: None,
                stop_id: None,
                distance_meters: None,
            },
        }
    }

    fn names(results: &[Ranked]) -> Vec<&str> {
        results.iter().map(|r| r.result.name.as_str()).collect()
    }

    #[test]
    fn groups_make_the_order_total_and_focus_breaks_ties() {
        // 0.95 and 0.945 tie with the leader 0.95; 0.935 is more than 0.01 below it.
        let mut list = vec![
            ranked("far", 0.95, 61.0),
            ranked("near", 0.945, 60.0),
            ranked("lower", 0.935, 60.0),
        ];
        sort(&mut list, Some(Coordinate::new(60.0, 25.0)));
        assert_eq!(names(&list), ["near", "far", "lower"]);
        sort(&mut list, None);
        assert_eq!(names(&list), ["far", "near", "lower"]);
    }

    #[test]
    fn percentages_become_fractions_and_layers_become_types() {
        let envelope = serde_json::json!({"features": [
            {"geometry": {"coordinates": [24.9, 60.1]}, "properties": {
                "name": "A", "layer": "venue", "confidence": 94}},
            {"geometry": {"coordinates": [24.9, 60.1]}, "properties": {
                "name": "B", "layer": "street", "confidence": 0.5, "street": "Mannerheimintie"}},
            {"geometry": {"coordinates": [24.9, 60.1]}, "properties": {
                "name": "C", "layer": "stop", "source": "gtfsHSL", "id": "GTFS:HSL:1#X",
                "confidence": 1.5e3}},
            {"geometry": {"coordinates": [24.9, 60.1]}, "properties": {"layer": "venue"}}
        ]});
        let found = results(envelope, Language::Fi).unwrap();
        let got: Vec<_> = found
            .iter()
            .map(|r| {
                (
                    r.result.confidence,
                    r.result.r#type,
                    r.result.address.clone(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (0.94, GeocodeResultType::Poi, None),
                (
                    0.5,
                    GeocodeResultType::Address,
                    Some("Mannerheimintie".into())
                ),
                (1.0, GeocodeResultType::Stop, None),
            ]
        );
        assert_eq!(found[2].result.stop_id.as_deref(), Some("HSL:1"));
        assert_eq!(found[0].result.language.as_deref(), Some("fi"));
    }

    #[test]
    fn gtfs_ids_become_otp_ids() {
        assert_eq!(otp_id("GTFS:HSL:2431252#E4314"), "HSL:2431252");
        assert_eq!(otp_id("GTFS:MATKA:318915"), "MATKA:318915");
    }
}
