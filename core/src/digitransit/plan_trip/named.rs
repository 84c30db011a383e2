//! An origin or destination given by name ("Kamppi", "Mannerheimintie 89"): found with the
//! geocoder through the same upstream path as `geocode_address` (cached, on the key's
//! budget). A clear best match is used; an unclear name is asked about ([`crate::ask`]),
//! or answered with `disambiguation-required` and its candidates.

use super::types::{LocationRef, RawSource};
use crate::Toolpack;
use crate::ask::{Choice, Question, choose};
use crate::digitransit::geocode::{self, GeocodeResult, MAX_TEXT_CHARS};
use crate::digitransit::place::{Language, checked_text};
use crate::digitransit::response::{DigitransitErrorCode, Failure, PlaceCandidate};

/// How many places a name is looked up among.
const CANDIDATES: usize = 5;
/// Places whose confidence is within this of the best one compete with it.
const RIVAL_CONFIDENCE: f64 = 0.1;
/// Rivals this close to the best match are the same place under other names (Kamppi the
/// metro station and Kamppi the shopping centre).
const SAME_PLACE_METRES: f64 = 500.0;

/// The place `text` names, for `field` (`origin` or `destination`).
pub(super) async fn by_name(
    toolpack: &Toolpack,
    field: &str,
    text: &str,
    language: Language,
) -> Result<LocationRef, Failure> {
    let text = checked_text(&format!("{field}.value"), text, MAX_TEXT_CHARS)?;
    let found = geocode::search(toolpack, text, CANDIDATES, language, None, &[])
        .await
        .map_err(|failure| match failure.code {
            DigitransitErrorCode::GeocodeNoResults => Failure::new(
                DigitransitErrorCode::GeocodeNoResults,
                format!("No place called '{text}' was found ({field})."),
            )
            .hint("Check the spelling, add a city (\"Kamppi, Helsinki\"), or give coordinates."),
            _ => failure,
        })?;
    let chosen = match rivals(&found) {
        [] => 0,
        _ => asked(field, text, &found)
            .await
            .ok_or_else(|| unclear(field, text, &found))?,
    };
    let place = &found[chosen];
    Ok(LocationRef {
        coordinate: place.coordinates,
        label: None,
        name: Some(place.name.clone()),
        address: place.label.clone().or_else(|| place.address.clone()),
        raw_source: RawSource::Geocode,
    })
}

/// The places that compete with the best one: nearly as likely, and somewhere else.
/// None: the best match is clear.
fn rivals(found: &[GeocodeResult]) -> &[GeocodeResult] {
    let Some((best, rest)) = found.split_first() else {
        return &[];
    };
    let competing = rest.iter().any(|other| {
        best.confidence - other.confidence < RIVAL_CONFIDENCE
            && best.coordinates.distance_m(&other.coordinates) > SAME_PLACE_METRES
    });
    if competing { rest } else { &[] }
}

/// Asks the person which of `found` they mean, when the host can ask: its index.
async fn asked(field: &str, text: &str, found: &[GeocodeResult]) -> Option<usize> {
    let question = Question::new(
        field,
        format!("Which place do you mean by \"{text}\" ({field})?"),
        found.iter().enumerate().map(|(index, place)| Choice {
            value: index.to_string(),
            title: said(place),
        }),
    );
    choose(&question).await?.parse().ok()
}

/// `disambiguation-required` with the candidates of an unclear name.
fn unclear(field: &str, text: &str, found: &[GeocodeResult]) -> Failure {
    let candidates: Vec<PlaceCandidate> = found
        .iter()
        .map(|place| PlaceCandidate {
            label: said(place),
            lat: place.coordinates.lat,
            lon: place.coordinates.lon,
            stop_id: place.stop_id.clone(),
        })
        .collect();
    let listed: Vec<&str> = candidates.iter().map(|c| c.label.as_str()).collect();
    Failure::new(
        DigitransitErrorCode::DisambiguationRequired,
        format!(
            "'{text}' ({field}) may mean {} places: {}.",
            candidates.len(),
            listed.join("; ")
        ),
    )
    .hint(format!(
        "Call again with one candidate's label as {field}, or its coordinates as {{type: 'coords'}}."
    ))
    .candidates(candidates)
}

/// A place as a person tells it apart: the geocoder's label ("Koulutie 1, Espoo"), else
/// its name.
fn said(place: &GeocodeResult) -> String {
    place.label.clone().unwrap_or_else(|| place.name.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::digitransit::geocode::GeocodeResultType;
    use crate::digitransit::place::Coordinate;

    fn place(name: &str, confidence: f64, lat: f64, lon: f64) -> GeocodeResult {
        GeocodeResult {
            name: name.to_owned(),
            coordinates: Coordinate::new(lat, lon),
            confidence,
            r#type: GeocodeResultType::Address,
            language: None,
            label: None,
            address: None,
            bounding_box: None,
            stop_id: None,
            distance_meters: None,
        }
    }

    #[test]
    fn a_name_is_clear_unless_a_likely_place_is_elsewhere() {
        let kamppi = place("Kamppi", 1.0, 60.169018, 24.932362);
        let centre = place("Kamppi shopping centre", 0.99, 60.1688, 24.9325);
        let far = place("Kamppi, Espoo", 0.98, 60.21, 24.66);
        let unlikely = place("Kampinkuja", 0.6, 60.3, 24.9);
        assert!(
            rivals(std::slice::from_ref(&kamppi)).is_empty(),
            "one place"
        );
        assert!(
            rivals(&[kamppi.clone(), centre.clone()]).is_empty(),
            "the same place under two names"
        );
        assert!(
            rivals(&[kamppi.clone(), unlikely]).is_empty(),
            "far away but much less likely"
        );
        assert_eq!(rivals(&[kamppi, centre, far]).len(), 2);
    }
}
