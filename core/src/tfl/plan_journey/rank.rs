//! Ranking and summarising: the 5 fastest journeys and the 5 best suggestions per side.

use std::cmp::Ordering;

use super::types::{
    JourneyDisambiguationSuggestion, JourneyFare, JourneyLegSummary, JourneyObstacle,
    JourneyOptionSummary,
};
use super::wire::{Disambiguation, Journey, Leg};
use crate::tfl::london::london_iso_of_local;
use crate::tfl::stops::short_place;

/// How many journeys and suggestions per side an answer carries.
pub const TOP_N: usize = 5;

/// The [`TOP_N`] fastest journeys: `duration`, then `arrivalDateTime`, then
/// `startDateTime` ascending (plain string compares of TfL's offset-less ISO times, before
/// they gain their offset),
/// missing values last, ties kept in TfL's order.
pub(crate) fn summarise_journeys(mut journeys: Vec<Journey>) -> Vec<JourneyOptionSummary> {
    journeys.sort_by(|a, b| {
        nulls_last(&a.duration, &b.duration)
            .then_with(|| nulls_last(&a.arrival_date_time, &b.arrival_date_time))
            .then_with(|| nulls_last(&a.start_date_time, &b.start_date_time))
    });
    journeys.into_iter().take(TOP_N).map(summarise).collect()
}

fn nulls_last<T: Ord>(a: &Option<T>, b: &Option<T>) -> Ordering {
    match (a, b) {
        (Some(a), Some(b)) => a.cmp(b),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

/// Descending order with missing values last.
fn nulls_last_desc<T: Ord>(a: &Option<T>, b: &Option<T>) -> Ordering {
    match (a, b) {
        (Some(a), Some(b)) => b.cmp(a),
        _ => nulls_last(a, b),
    }
}

fn summarise(journey: Journey) -> JourneyOptionSummary {
    let mut legs: Vec<JourneyLegSummary> = journey.legs.into_iter().map(summarise_leg).collect();
    // A journey of one leg says its times once: the leg's would repeat the journey's.
    if let [leg] = legs.as_mut_slice() {
        leg.departure_time = None;
        leg.arrival_time = None;
        leg.duration_minutes = None;
    }
    JourneyOptionSummary {
        duration_minutes: journey.duration,
        start_date_time: journey.start_date_time.as_deref().map(london_iso_of_local),
        arrival_date_time: journey
            .arrival_date_time
            .as_deref()
            .map(london_iso_of_local),
        leg_count: u32::try_from(legs.len()).unwrap_or(u32::MAX),
        total_fare_pence: journey.fare.as_ref().and_then(|f| f.total_cost),
        fares: journey
            .fare
            .into_iter()
            .flat_map(|f| f.fares)
            .map(|part| JourneyFare {
                cost_pence: part.cost,
                peak_pence: part.peak,
                off_peak_pence: part.off_peak,
                charge_level: non_blank(part.charge_level),
                low_zone: part.low_zone,
                high_zone: part.high_zone,
            })
            .collect(),
        is_disrupted: legs.iter().any(|l| l.is_disrupted),
        legs,
    }
}

fn summarise_leg(leg: Leg) -> JourneyLegSummary {
    let route_name = leg.route_options.first().and_then(|option| {
        non_blank(
            option
                .line_identifier
                .as_ref()
                .and_then(|line| line.name.clone()),
        )
        .or_else(|| non_blank(option.name.clone()))
    });
    let mut disruptions: Vec<String> = Vec::new();
    for disruption in &leg.disruptions {
        let text = non_blank(disruption.summary.clone())
            .or_else(|| non_blank(disruption.description.clone()));
        if let Some(text) = text
            && !disruptions.contains(&text)
        {
            disruptions.push(text);
        }
    }
    JourneyLegSummary {
        mode: leg.mode.and_then(|m| non_blank(m.id)),
        route_name,
        instruction: leg.instruction.and_then(|i| non_blank(i.summary)),
        departure_time: leg.departure_time.as_deref().map(london_iso_of_local),
        arrival_time: leg.arrival_time.as_deref().map(london_iso_of_local),
        duration_minutes: leg.duration,
        is_disrupted: leg.is_disrupted.unwrap_or(false) || !disruptions.is_empty(),
        disruptions,
        departure_point: leg.departure_point.and_then(|p| spoken(p.common_name)),
        arrival_point: leg.arrival_point.and_then(|p| spoken(p.common_name)),
        stops: leg
            .path
            .into_iter()
            .flat_map(|p| p.stop_points)
            .filter_map(|stop| spoken(stop.name))
            .collect(),
        obstacles: leg
            .obstacles
            .into_iter()
            .map(|o| JourneyObstacle {
                kind: non_blank(o.kind),
                incline: non_blank(o.incline),
                position: non_blank(o.position),
            })
            .collect(),
    }
}

fn non_blank(text: Option<String>) -> Option<String> {
    text.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty())
}

/// A place's name as people say it ("Bank", not "Bank Underground Station").
fn spoken(text: Option<String>) -> Option<String> {
    non_blank(text).map(|t| short_place(&t).to_owned())
}

/// The [`TOP_N`] suggestions of one side: blank `parameterValue`s dropped, sorted by
/// `matchQuality` descending (missing last, ties in TfL's order). A side that
/// resolved (or is absent) gives `[]`.
pub(crate) fn suggestions(side: Option<&Disambiguation>) -> Vec<JourneyDisambiguationSuggestion> {
    let mut options: Vec<_> = side
        .map(|s| s.usable_options().collect())
        .unwrap_or_default();
    options.sort_by(|a, b| nulls_last_desc(&a.match_quality, &b.match_quality));
    options
        .into_iter()
        .take(TOP_N)
        .map(|o| {
            let place = o.place.as_ref();
            let common_name = place.and_then(|p| non_blank(p.common_name.clone()));
            let parameter_value = o
                .parameter_value
                .clone()
                .unwrap_or_default()
                .trim()
                .to_owned();
            let name = common_name.as_deref().unwrap_or(&parameter_value);
            let modes = place.map(|p| p.modes.join(", ")).unwrap_or_default();
            JourneyDisambiguationSuggestion {
                title: crate::ask::titled(name, &modes),
                match_quality: o.match_quality,
                place_type: place.and_then(|p| non_blank(p.place_type.clone())),
                common_name,
                parameter_value,
            }
        })
        .collect()
}
