//! Turns a Journey Planner answer into the contract's response, by the body and never
//! by the status (TfL answers ambiguity with HTTP 300, mocks and other endpoints with 200):
//!
//! 1. any side (from, to, via) with an option whose `parameterValue` is not blank →
//!    `DISAMBIGUATION_REQUIRED`;
//! 2. else `journeys` present → `OK` (`[]` included);
//! 3. else a `notidentified` side → `VALIDATION_ERROR` naming the side;
//! 4. else an error status → `UPSTREAM_ERROR` with TfL's message (a throttled 429 with
//!    the `Retry-After` wait), or a body of no known shape → `UPSTREAM_ERROR`.
//!
//! Before all of these, a 429 that refuses the key → `INVALID_API_KEY`: not throttling.

use reqwest::StatusCode;

use super::rank::{suggestions, summarise_journeys};
use super::types::{JourneyOptionSummary, JourneyPlanToolResponse, PlanJourneyCode};
use super::wire::{Disambiguation, JourneyResponse};
use crate::http::UpstreamResponse;
use crate::tfl::upstream;

/// The contract response for one upstream answer to `from` → `to` (through `via`).
pub(crate) fn classify(
    response: &UpstreamResponse,
    from: &str,
    to: &str,
    via: Option<&str>,
) -> JourneyPlanToolResponse {
    if upstream::refused_key(response) {
        return JourneyPlanToolResponse::error(
            PlanJourneyCode::InvalidApiKey,
            upstream::REFUSED_KEY_MESSAGE,
        );
    }
    let status = response.status;
    let body: JourneyResponse = match serde_json::from_slice(&response.body) {
        Ok(body) => body,
        Err(_) if !is_answer_status(status) => return status_error(response, None),
        Err(_) if response.body.iter().all(u8::is_ascii_whitespace) => {
            return upstream_error(format!(
                "TfL API returned an empty body (HTTP {}).",
                status.as_u16()
            ));
        }
        Err(_) => {
            return upstream_error(format!(
                "TfL API returned a body that is not valid JSON (HTTP {}).",
                status.as_u16()
            ));
        }
    };
    let sides = [
        body.from_location_disambiguation.as_ref(),
        body.to_location_disambiguation.as_ref(),
        body.via_location_disambiguation.as_ref(),
    ];
    if sides
        .iter()
        .flatten()
        .any(|side| side.usable_options().next().is_some())
    {
        return JourneyPlanToolResponse {
            from_location_disambiguation: Some(suggestions(sides[0])),
            to_location_disambiguation: Some(suggestions(sides[1])),
            via_location_disambiguation: via.map(|_| suggestions(sides[2])),
            ..JourneyPlanToolResponse::error(
                PlanJourneyCode::DisambiguationRequired,
                "Input location is ambiguous. Choose one of the suggested parameterValue values.",
            )
        };
    }
    if let Some(journeys) = body.journeys {
        let top = summarise_journeys(journeys);
        let message = journeys_message(&top);
        return JourneyPlanToolResponse {
            served: None,
            success: true,
            code: PlanJourneyCode::Ok,
            message,
            top_journeys: Some(top),
            from_location_disambiguation: None,
            to_location_disambiguation: None,
            via_location_disambiguation: None,
            requested: None,
        };
    }
    let given = [
        ("from", Some(from), sides[0]),
        ("to", Some(to), sides[1]),
        ("via", via, sides[2]),
    ];
    let unidentified: Vec<String> = given
        .into_iter()
        .filter_map(|(field, value, side)| Some((field, value?, side)))
        .filter(|(_, _, side)| side.is_some_and(Disambiguation::not_identified))
        .map(|(field, value, _)| format!("'{field}' (\"{value}\")"))
        .collect();
    if !unidentified.is_empty() {
        return JourneyPlanToolResponse::error(
            PlanJourneyCode::ValidationError,
            format!(
                "TfL could not identify the location given as {}. Check the spelling, or give a \
postcode, a station id or \"lat,lon\".",
                unidentified.join(" and ")
            ),
        );
    }
    if !is_answer_status(status) {
        return status_error(response, body.message.as_deref());
    }
    upstream_error(format!(
        "TfL API returned an unexpected response (HTTP {}): neither journeys nor a \
disambiguation.",
        status.as_u16()
    ))
}

/// Statuses whose body is a Journey Planner answer: 2xx and TfL's 300 disambiguation.
fn is_answer_status(status: StatusCode) -> bool {
    status.is_success() || status == StatusCode::MULTIPLE_CHOICES
}

fn upstream_error(message: String) -> JourneyPlanToolResponse {
    JourneyPlanToolResponse::error(PlanJourneyCode::UpstreamError, message)
}

/// `UPSTREAM_ERROR` for an error status, with TfL's own message when it sent one (the
/// `message` of the body as read, else what [`upstream::upstream_message`] finds).
fn status_error(
    response: &UpstreamResponse,
    upstream_message: Option<&str>,
) -> JourneyPlanToolResponse {
    let said = upstream_message
        .map(str::to_owned)
        .or_else(|| upstream::upstream_message(&response.body));
    upstream_error(upstream::status_message(response, said.as_deref()))
}

/// What a person asking "how do I get there" hears: the fastest journey's minutes, times
/// and rides ("Fastest: 7 min, 16:27–16:34, Central line to Mile End."), whether it is
/// disrupted, and how many journeys there are.
fn journeys_message(top: &[JourneyOptionSummary]) -> String {
    let Some(fastest) = top
        .iter()
        .min_by_key(|j| j.duration_minutes.unwrap_or(i64::MAX))
    else {
        return "TfL found no journeys for this request.".into();
    };
    let clock = |time: &Option<String>| {
        time.as_deref()
            .and_then(|t| t.get(11..16))
            .unwrap_or("?")
            .to_owned()
    };
    let rides: Vec<&str> = fastest
        .legs
        .iter()
        .filter(|leg| leg.mode.as_deref() != Some("walking"))
        .filter_map(|leg| leg.instruction.as_deref())
        .collect();
    let route = if rides.is_empty() {
        fastest
            .legs
            .first()
            .and_then(|leg| leg.instruction.as_deref())
            .unwrap_or("walk")
            .to_owned()
    } else {
        rides.join(", then ")
    };
    let minutes = fastest
        .duration_minutes
        .map_or_else(|| "?".to_owned(), |m| m.to_string());
    let mut message = format!(
        "Fastest: {minutes} min, {}–{}, {route}.",
        clock(&fastest.start_date_time),
        clock(&fastest.arrival_date_time)
    );
    if fastest.is_disrupted {
        message.push_str(" It is disrupted: see its legs.");
    }
    if top.len() > 1 {
        message.push_str(&format!(" {} journeys in all.", top.len()));
    }
    message
}
