//! `plan_trip`: itineraries from the OTP GraphQL `planConnection` of Digitransit routing
//! v2, with realtime status per leg, one relaxed second search when nothing is found or a
//! disruption is seen, fingerprint dedupe, the pinned order and `limit` last.

mod choices;
mod named;
mod request;
mod types;
mod variables;
mod wire;
mod wishes;

pub use choices::{BikeUse, ViaPoint};
pub use types::{
    Accessibility, AccessibilityInput, Itinerary, Leg, LegFare, LegPlace, LocationRef, Optimize,
    PlaceRef, PlanConstraints, PlanConstraintsInput, PlanMeta, PlanTripRequest, PlanTripResult,
    RawSource, RequestedTime, ScheduleType, TripTime, WhenType,
};

use std::collections::HashSet;

use request::Plan;
use wire::{PlanConnection, PlanData, Planned, RoutingError};

use super::departures::TransitStatus;
use super::response::{
    DigitransitErrorCode, DigitransitResponse, Failure, Warning, WarningCode, provider_message,
    warnings,
};
use super::time::{fetched_at, helsinki_iso};
use super::upstream::{self, UpstreamFailure};
use crate::Toolpack;
use crate::config::Config;
use crate::http::AnswerKind;
use crate::report;
use crate::tool::{Tool, ToolSpec};

/// The query sent (also checked against the OTP schema in tests).
pub const QUERY: &str = concat!(
    include_str!("../queries/plan_trip.graphql"),
    include_str!("../queries/fragments/alert_summary.graphql")
);

/// The `plan_trip` tool.
#[derive(Debug, Clone, Copy)]
pub struct PlanTrip;

crate::tool::live_bodies!(PlanTripResult);

impl Tool for PlanTrip {
    type Input = PlanTripRequest;
    type Output = DigitransitResponse<PlanTripResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "plan_trip",
        title: "Plan a trip in Finland",
        description: "How to get from A to B by public transport in Finland (Helsinki and other regions): \
itineraries with legs, live delays, cancellations and alerts; leave or arrive by a time.",
        summary: "Public transport itineraries (OTP `planConnection`) with realtime leg status, disruption alternatives, dedupe",
        ..upstream::LIVE_TOOL
    };

    fn missing_prerequisite(config: &Config) -> Option<String> {
        upstream::missing_key(config)
    }

    async fn run(toolpack: &Toolpack, input: Self::Input) -> Self::Output {
        DigitransitResponse::answer(|id| plan_trip(toolpack, input, id)).await
    }
}

async fn plan_trip(
    toolpack: &Toolpack,
    input: PlanTripRequest,
    correlation_id: String,
) -> Result<PlanTripResult, Failure> {
    let plan = Plan::check(toolpack, input).await?;
    let (mut planned, mut reason) = search(toolpack, &plan, &plan.constraints).await?;
    report::progress(
        1.0,
        None,
        Some(format!("{} itineraries found", planned.len())),
    );
    if planned.is_empty() {
        if let Some(relaxed) = plan.relaxed() {
            (planned, reason) = search(toolpack, &plan, &relaxed).await?;
            report::progress(2.0, None, Some("relaxed search done".into()));
        }
    } else if plan.include_disruption_alt && planned.iter().any(|p| p.disrupted) {
        add_alternatives(toolpack, &plan, &mut planned).await;
        report::progress(2.0, None, Some("disruption alternatives searched".into()));
    }
    let received = fetched_at();
    if planned.is_empty() {
        let why = reason.map(|r| format!(" ({r})")).unwrap_or_default();
        return Err(Failure::new(
            DigitransitErrorCode::NoItineraryFound,
            format!("No itineraries for given constraints{why}"),
        )
        .hint("Try increasing maxWalkingDistance or adjusting departure time"));
    }
    let mut notes = Vec::new();
    let walk_limit = plan.walk_limit();
    if planned
        .iter()
        .all(|p| p.itinerary.walk_distance_meters > walk_limit)
    {
        notes.push(Warning::new(
            WarningCode::PreferenceUnmet,
            format!("Every itinerary walks more than {walk_limit} m; they are returned anyway."),
        ));
    } else {
        planned.retain(|p| p.itinerary.walk_distance_meters <= walk_limit);
    }
    planned.sort_by(|a, b| {
        let (x, y) = (&a.itinerary, &b.itinerary);
        a.end_ts
            .cmp(&b.end_ts)
            .then_with(|| x.number_of_transfers.cmp(&y.number_of_transfers))
            .then_with(|| x.duration_seconds.cmp(&y.duration_seconds))
            .then_with(|| x.fingerprint.cmp(&y.fingerprint))
    });
    let before_dedupe = planned.len();
    let mut seen = HashSet::new();
    planned.retain(|p| seen.insert(p.itinerary.fingerprint.clone()));
    let meta = (planned.len() < before_dedupe).then_some(PlanMeta {
        deduplicated_from: Some(before_dedupe as u32),
    });
    if planned.len() > plan.limit {
        notes.push(Warning::new(
            WarningCode::TruncatedResults,
            format!(
                "{} itineraries were found; the best {} are returned.",
                planned.len(),
                plan.limit
            ),
        ));
        planned.truncate(plan.limit);
    }
    if plan.constraints.accessibility.step_free {
        let mut unknown: Vec<&str> = planned
            .iter()
            .flat_map(|p| p.unknown_step_free.iter().map(String::as_str))
            .collect();
        unknown.sort_unstable();
        unknown.dedup();
        if !unknown.is_empty() {
            notes.push(Warning::new(
                WarningCode::UnsupportedAccessibilityFlag,
                format!(
                    "Step-free access was asked for, but the timetable data does not say whether \
these stops are step-free: {}.",
                    unknown.join(", ")
                ),
            ));
        }
    }
    let (with_estimate, transit) = planned.iter().fold((0, 0), |(w, t), p| {
        (w + p.realtime_legs.0, t + p.realtime_legs.1)
    });
    let itineraries: Vec<Itinerary> = planned.into_iter().map(|p| p.itinerary).collect();
    let message = trip_message(&itineraries);
    let itineraries: Vec<Itinerary> = itineraries.into_iter().map(wire::lean).collect();
    Ok(PlanTripResult {
        message,
        served: None,
        origin: plan.origin,
        destination: plan.destination,
        requested: plan.requested,
        constraints: plan.constraints,
        itineraries,
        realtime_used: wire::schedule_type(with_estimate, transit),
        data_freshness: helsinki_iso(received),
        warnings: warnings(notes),
        correlation_id,
        meta,
    })
}

/// The disruption rule: one relaxed search; what it finds beyond the first search's
/// itineraries is added with `disruptionFlag: true`, and replaces the itineraries with a
/// cancelled leg (delayed ones stay, with their delay). A failure of this optional search
/// leaves the first answer as it is.
async fn add_alternatives(toolpack: &Toolpack, plan: &Plan, planned: &mut Vec<Planned>) {
    let Some(relaxed) = plan.relaxed() else {
        return;
    };
    match search(toolpack, plan, &relaxed).await {
        Ok((alternatives, _)) => {
            let known: HashSet<String> = planned
                .iter()
                .map(|p| p.itinerary.fingerprint.clone())
                .collect();
            let replacements: Vec<Planned> = alternatives
                .into_iter()
                .filter(|p| !known.contains(&p.itinerary.fingerprint))
                .map(|mut p| {
                    p.itinerary.disruption_flag = Some(true);
                    p
                })
                .collect();
            if !replacements.is_empty() {
                // A cancelled itinerary cannot be travelled: its replacements take its place.
                planned.retain(|p| !p.cancelled);
                planned.extend(replacements);
            }
        }
        Err(failure) => {
            tracing::info!(
                code = failure.code.as_str(),
                "plan_trip: disruption search failed"
            )
        }
    }
}

/// One `planConnection` search: its itineraries and OTP's first routing error
/// (`CODE: description`), or the failure it means (`OUTSIDE_BOUNDS` → `unsupported-region`).
async fn search(
    toolpack: &Toolpack,
    plan: &Plan,
    constraints: &PlanConstraints,
) -> Result<(Vec<Planned>, Option<String>), Failure> {
    let searched = upstream::graphql_shaped(
        toolpack,
        AnswerKind::Journeys,
        QUERY,
        "PlanTrip",
        plan.variables(constraints),
        constraints.language,
        Searched::of,
    )
    .await
    .map_err(UpstreamFailure::for_routing)?;
    if let Some(field) = &searched.outside {
        let side = match field.as_deref() {
            Some("FROM") => "The origin is",
            Some("TO") => "The destination is",
            _ => "The origin or destination is",
        };
        return Err(Failure::new(
            DigitransitErrorCode::UnsupportedRegion,
            format!(
                "{side} outside the area of the '{}' router.",
                toolpack.config().digitransit_router().as_str()
            ),
        )
        .hint("Digitransit covers Finland; DIGITRANSIT_ROUTER picks the region (hsl, waltti, finland, varely)."));
    }
    Ok((searched.planned.clone(), searched.reason.clone()))
}

/// One search's answer as every caller it serves reads it: made once per upstream answer.
struct Searched {
    /// OTP's `OUTSIDE_BOUNDS` routing error, with the input it names (`FROM`, `TO`).
    outside: Option<Option<String>>,
    /// OTP's first routing error, as `CODE: description`.
    reason: Option<String>,
    planned: Vec<Planned>,
}

impl Searched {
    fn of(data: PlanData) -> Self {
        let connection = data.plan_connection.unwrap_or_default();
        let outside = outside_bounds(&connection).map(|e| e.input_field.clone());
        let reason = connection.routing_errors.first().map(|e| {
            let description = e.description.as_deref().unwrap_or_default();
            provider_message(&format!("{}: {description}", e.code))
        });
        Self {
            outside,
            reason,
            planned: wire::itineraries(connection.edges),
        }
    }
}

fn outside_bounds(connection: &PlanConnection) -> Option<&RoutingError> {
    connection
        .routing_errors
        .iter()
        .find(|e| e.code == "OUTSIDE_BOUNDS")
}

/// What a person asking "how do I get there" hears: the first itinerary to arrive, when it
/// leaves and arrives, its rides, where to board and get off ("tram 10 from Lasipalatsi to
/// Jalavatie (towards Pikku Huopalahti), then …"),
/// and how many itineraries there are.
fn trip_message(itineraries: &[Itinerary]) -> String {
    let Some(first) = itineraries.first() else {
        return "No itinerary found.".to_owned();
    };
    let clock = |time: &str| time.get(11..16).unwrap_or(time).to_owned();
    let rides: Vec<String> = first
        .legs
        .iter()
        .filter(|leg| {
            !matches!(leg.mode.as_str(), "WALK" | "BIKE") || leg.rented_bike == Some(true)
        })
        .map(|leg| {
            let what = match &leg.line {
                Some(line) => format!("{} {line}", leg.mode.to_lowercase()),
                None if leg.rented_bike == Some(true) => "a city bike".to_owned(),
                None => leg.mode.to_lowercase(),
            };
            let towards = leg
                .headsign
                .as_deref()
                .map(|h| format!(" (towards {h})"))
                .unwrap_or_default();
            let from = leg.from.as_ref().map_or("", |place| place.name.as_str());
            format!("{what} from {from} to {}{towards}", leg.to.name)
        })
        .collect();
    let route = if rides.is_empty() {
        "walk all the way".to_owned()
    } else {
        rides.join(", then ")
    };
    let minutes = (first.duration_seconds + 30) / 60;
    let mut message = format!(
        "Earliest arrival: {}, leaving {} ({minutes} min): {route}.",
        clock(&first.end),
        clock(&first.start)
    );
    if first
        .legs
        .iter()
        .any(|leg| leg.status == TransitStatus::Cancelled)
    {
        message.push_str(" A leg of it is cancelled.");
    }
    if itineraries.len() > 1 {
        message.push_str(&format!(" {} itineraries in all.", itineraries.len()));
    }
    message
}
