//! `geocode_address` (Pelias `/geocoding/v1/search`) and `reverse_geocode`
//! (Pelias `/geocoding/v1/reverse`).

mod pelias;
mod types;

pub use types::{
    BoundingBox, GeocodeAddressRequest, GeocodeAddressResult, GeocodeResult, GeocodeResultType,
    ReverseGeocodeRequest, ReverseGeocodeResult,
};

use super::place::{Coordinate, Language, checked_text};
use super::response::{
    DigitransitErrorCode, DigitransitResponse, Failure, Warning, WarningCode, warnings,
};
use super::upstream;
use crate::Toolpack;
use crate::config::Config;
use crate::tool::{Tool, ToolSpec};
use crate::words::more;

/// Longest `text`, in characters.
pub const MAX_TEXT_CHARS: usize = 200;
/// Default `size`.
pub const DEFAULT_SIZE: i64 = 10;
/// Pelias's own maximum `size`; larger requests are clamped to it.
pub const MAX_SIZE: i64 = 40;
/// Most `layers` accepted.
pub const MAX_LAYERS: usize = 8;
/// How many places `reverse_geocode` asks for.
pub const REVERSE_SIZE: usize = 10;

/// The `geocode_address` tool.
#[derive(Debug, Clone, Copy)]
pub struct GeocodeAddress;

crate::tool::live_bodies!(GeocodeAddressResult);

impl Tool for GeocodeAddress {
    type Input = GeocodeAddressRequest;
    type Output = DigitransitResponse<GeocodeAddressResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "geocode_address",
        title: "Find places in Finland",
        description: "Coordinates of an address, place or stop in Finland, best match first; stops carry the \
id get_departures takes. The first step before plan_trip.",
        summary: "Places in Finland matching a text (Pelias): coordinates, confidence, type, label, address, OTP stop id",
        ..upstream::LIVE_TOOL
    };

    fn missing_prerequisite(config: &Config) -> Option<String> {
        upstream::missing_key(config)
    }

    async fn run(toolpack: &Toolpack, input: Self::Input) -> Self::Output {
        DigitransitResponse::answer(|id| geocode(toolpack, input, id)).await
    }
}

async fn geocode(
    toolpack: &Toolpack,
    input: GeocodeAddressRequest,
    correlation_id: String,
) -> Result<GeocodeAddressResult, Failure> {
    let text = checked_text("text", &input.text, MAX_TEXT_CHARS)?.to_owned();
    let asked = input.size.unwrap_or(DEFAULT_SIZE);
    if asked < 1 {
        return Err(Failure::validation(format!(
            "size must be between 1 and {MAX_SIZE}."
        )));
    }
    let size = asked.min(MAX_SIZE) as usize;
    if let Some(focus) = &input.focus {
        focus.validate("focus")?;
    }
    let layers = checked_layers(input.layers.as_deref().unwrap_or_default())?;
    let language = input.language.unwrap_or_default();

    let mut ranked = search(toolpack, &text, size, language, input.focus, &layers).await?;
    let truncated = ranked.len() > size || asked > MAX_SIZE;
    ranked.truncate(size);
    let mut notes = Vec::new();
    if truncated {
        notes.push(Warning::new(
            WarningCode::TruncatedResults,
            if asked > MAX_SIZE {
                format!("size {asked} was clamped to {MAX_SIZE}; more results may exist.")
            } else {
                format!("Only the best {size} results are returned.")
            },
        ));
    }
    let results = ranked;
    Ok(GeocodeAddressResult {
        message: geocode_message(&text, &results),
        served: None,
        query: text,
        language,
        results,
        truncated: truncated.then_some(true),
        warnings: warnings(notes),
        correlation_id,
    })
}

/// The places Pelias finds for `text` (at most `size`), best first: `geocode-no-results`
/// when there are none. One upstream path for `geocode_address` and for `plan_trip`'s
/// place names, so both share the cache and the key's budget.
pub(crate) async fn search(
    toolpack: &Toolpack,
    text: &str,
    size: usize,
    language: Language,
    focus: Option<Coordinate>,
    layers: &[&str],
) -> Result<Vec<GeocodeResult>, Failure> {
    let mut params = vec![
        ("text", text.to_owned()),
        ("size", size.to_string()),
        ("lang", language.as_str().to_owned()),
    ];
    if let Some(focus) = focus {
        params.push(("focus.point.lat", focus.lat.to_string()));
        params.push(("focus.point.lon", focus.lon.to_string()));
    }
    if !layers.is_empty() {
        params.push(("layers", layers.join(",")));
    }
    let envelope = upstream::pelias(toolpack, "search", params)
        .await
        .map_err(upstream::UpstreamFailure::for_geocoding)?;
    let mut ranked = pelias::results(envelope, language).map_err(|f| f.for_geocoding())?;
    if ranked.is_empty() {
        return Err(Failure::new(
            DigitransitErrorCode::GeocodeNoResults,
            format!("No results for '{text}'"),
        )
        .hint("Check the spelling, add a city name, or remove layers."));
    }
    pelias::sort(&mut ranked, focus);
    Ok(ranked.into_iter().map(|r| r.result).collect())
}

fn checked_layers(layers: &[String]) -> Result<Vec<&str>, Failure> {
    if layers.len() > MAX_LAYERS {
        return Err(Failure::validation(format!(
            "layers takes at most {MAX_LAYERS} entries."
        )));
    }
    layers
        .iter()
        .map(|layer| {
            let layer = layer.trim();
            if layer.is_empty() || !layer.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                Err(Failure::validation(format!(
                    "layers entries are Pelias layer names such as address, venue or stop; got '{layer}'."
                )))
            } else {
                Ok(layer)
            }
        })
        .collect()
}

/// The `reverse_geocode` tool.
#[derive(Debug, Clone, Copy)]
pub struct ReverseGeocode;

crate::tool::live_bodies!(ReverseGeocodeResult);

impl Tool for ReverseGeocode {
    type Input = ReverseGeocodeRequest;
    type Output = DigitransitResponse<ReverseGeocodeResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "reverse_geocode",
        title: "What is at a point in Finland",
        description: "The address, street, place or stop at a point in Finland (reverse geocoding), and others \
nearby.",
        summary: "The nearest address, place or stop to a point, and others nearby",
        ..upstream::LIVE_TOOL
    };

    fn missing_prerequisite(config: &Config) -> Option<String> {
        upstream::missing_key(config)
    }

    async fn run(toolpack: &Toolpack, input: Self::Input) -> Self::Output {
        DigitransitResponse::answer(|id| reverse(toolpack, input, id)).await
    }
}

async fn reverse(
    toolpack: &Toolpack,
    input: ReverseGeocodeRequest,
    correlation_id: String,
) -> Result<ReverseGeocodeResult, Failure> {
    let point = Coordinate::new(input.lat, input.lon);
    point.validate("point")?;
    let language = input.language.unwrap_or_default();
    let params = vec![
        ("point.lat", point.lat.to_string()),
        ("point.lon", point.lon.to_string()),
        ("size", REVERSE_SIZE.to_string()),
        ("lang", language.as_str().to_owned()),
    ];
    let envelope = upstream::pelias(toolpack, "reverse", params)
        .await
        .map_err(upstream::UpstreamFailure::for_geocoding)?;
    let mut found: Vec<GeocodeResult> = pelias::results(envelope, language)
        .map_err(|f| f.for_geocoding())?
        .into_iter()
        .map(|r| {
            let mut result = r.result;
            let metres = result
                .distance_meters
                .unwrap_or_else(|| point.distance_m(&result.coordinates).round());
            result.distance_meters = Some(metres);
            result
        })
        .collect();
    found.sort_by(|a, b| {
        a.distance_meters
            .unwrap_or_default()
            .total_cmp(&b.distance_meters.unwrap_or_default())
            .then_with(|| b.confidence.total_cmp(&a.confidence))
            .then_with(|| a.name.cmp(&b.name))
    });
    let mut rest = found.into_iter();
    let result = rest.next();
    let notes = if result.is_none() {
        vec![Warning::new(
            WarningCode::NoResults,
            "No address, place or stop is known near this point.",
        )]
    } else {
        Vec::new()
    };
    let candidates: Vec<GeocodeResult> = rest.collect();
    Ok(ReverseGeocodeResult {
        message: reverse_message(result.as_ref(), candidates.len()),
        served: None,
        query: point,
        result,
        candidates,
        correlation_id,
        warnings: warnings(notes),
    })
}

/// A place as a person reads it: its label (else its name), and a stop's id, which
/// `get_departures` takes.
fn place_in_words(place: &GeocodeResult) -> String {
    let label = place.label.as_deref().unwrap_or(&place.name);
    match &place.stop_id {
        Some(id) => format!("{label} (stop {id})"),
        None => label.to_owned(),
    }
}

/// What a person asking "where is it" hears: the best match and how many more.
fn geocode_message(query: &str, results: &[GeocodeResult]) -> String {
    match results.split_first() {
        None => format!("No place matches \"{query}\"."),
        Some((best, rest)) => format!(
            "Best match for \"{query}\": {}.{}",
            place_in_words(best),
            more(rest.len(), "place", "places")
        ),
    }
}

/// What a person asking "what is here" hears: the nearest place and how far, and how many
/// more are near.
fn reverse_message(nearest: Option<&GeocodeResult>, count: usize) -> String {
    match nearest {
        None => "No address, place or stop is known near this point.".to_owned(),
        Some(place) => {
            let away = place
                .distance_meters
                .map(|m| format!(", {m:.0} m away"))
                .unwrap_or_default();
            format!(
                "Nearest: {}{away}.{}",
                place_in_words(place),
                more(count, "place nearby", "places nearby")
            )
        }
    }
}
