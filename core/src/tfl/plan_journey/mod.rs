//! `planJourney`: London journeys from the TfL Journey Planner API
//! (`GET {TFL_API_BASE_URL}/Journey/JourneyResults/{from}/to/{to}`).

mod ask;
mod classify;
mod rank;
mod types;
mod wire;

use std::time::Duration;

pub use types::{
    JourneyDisambiguationSuggestion, JourneyLegSummary, JourneyOptionSummary, JourneyPlanRequest,
    JourneyPlanToolResponse, PlanJourneyCode,
};

use crate::Toolpack;
use crate::config::{Config, env};
use crate::http::{AnswerKind, HttpError, Served, UpstreamRequest};
use crate::tfl::upstream::{self, Failure, policy};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

/// Longest accepted `from` / `to`, in characters.
pub const MAX_LOCATION_CHARS: usize = 200;
/// TfL's upstream timeout unless `TOOLPACK_UPSTREAM_TIMEOUT_MS` overrides it.
pub const DEFAULT_TIMEOUT: Duration = upstream::DEFAULT_TIMEOUT;
/// The `accessibilityPreference` sent when `needAccessibleRoute` is true: the strictest,
/// step-free from street to vehicle.
pub const ACCESSIBLE_PREFERENCE: &str = "StepFreeToVehicle";

/// The `planJourney` tool.
#[derive(Debug, Clone, Copy)]
pub struct PlanJourney;

impl Tool for PlanJourney {
    type Input = JourneyPlanRequest;
    type Output = JourneyPlanToolResponse;
    const SPEC: ToolSpec = ToolSpec {
        name: "planJourney",
        title: "Plan a London journey (TfL)",
        description: "How to get from A to B in London by tube, bus, rail, DLR or on foot (TfL Journey \
Planner): the fastest routes with times, legs, disruptions and fare; needAccessibleRoute \
sends accessibilityPreference=StepFreeToVehicle.",
        summary: "The 5 fastest London journeys between two places (TfL Journey Planner): times, legs with mode, line, instruction and disruptions, fare in pence; suggestions when a place name is ambiguous",
        needs: "`TFL_API_KEY`",
        toolset: Toolset::Tfl,
        annotations: Annotations::READ_ONLY_REMOTE,
    };

    fn missing_prerequisite(config: &Config) -> Option<String> {
        config
            .tfl_api_key()
            .is_none()
            .then(|| format!("{} is not set", env::TFL_API_KEY))
    }

    async fn run(toolpack: &Toolpack, input: Self::Input) -> Self::Output {
        if let Err(message) = validate(&input) {
            return JourneyPlanToolResponse::error(PlanJourneyCode::ValidationError, message);
        }
        let (from, to) = (input.from.trim(), input.to.trim());
        let accessible = input.need_accessible_route;
        let (answer, served) = plan(toolpack, from, to, accessible).await;
        match served {
            Some(served) if answer.code == PlanJourneyCode::DisambiguationRequired => {
                let mut answer = answer;
                ask::tell_apart(toolpack, &served.body, &mut answer).await;
                match ask::picked(&answer, from, to).await {
                    Some((from, to)) => plan(toolpack, &from, &to, accessible).await.0,
                    None => answer,
                }
            }
            _ => answer,
        }
    }
}

/// One Journey Planner request and its answer, with TfL's body when it answered.
async fn plan(
    toolpack: &Toolpack,
    from: &str,
    to: &str,
    need_accessible_route: Option<bool>,
) -> (JourneyPlanToolResponse, Option<Served>) {
    let request = journey_request(toolpack.config(), from, to, need_accessible_route)
        .answer_kind(AnswerKind::Journeys);
    match toolpack
        .http()
        .send(&request, &policy(toolpack.config()))
        .await
    {
        Ok(response) => {
            let answer = classify::classify(&response, from, to);
            if answer.code == PlanJourneyCode::UpstreamError {
                toolpack.http().forget(&request);
            }
            (answer, Some(response))
        }
        Err(error) => (transport_error(&error), None),
    }
}

crate::tfl::tfl_tool_output!(
    JourneyPlanToolResponse,
    PlanJourneyCode,
    "Unexpected error while planning journey.",
    live
);

fn validate(input: &JourneyPlanRequest) -> Result<(), String> {
    if input.from.trim().is_empty() || input.to.trim().is_empty() {
        return Err("Both 'from' and 'to' must be provided.".into());
    }
    for (field, value) in [("from", &input.from), ("to", &input.to)] {
        let value = value.trim();
        if value.chars().count() > MAX_LOCATION_CHARS {
            return Err(format!(
                "Field '{field}' must be at most {MAX_LOCATION_CHARS} characters."
            ));
        }
        if value.chars().any(char::is_control) {
            return Err(format!(
                "Field '{field}' must not contain control characters."
            ));
        }
    }
    Ok(())
}

/// The Journey Planner request: each location one percent-encoded path segment, the
/// key (when set) only in the `app_key` header, never in the URL.
fn journey_request(
    config: &Config,
    from: &str,
    to: &str,
    need_accessible_route: Option<bool>,
) -> UpstreamRequest {
    let path = format!(
        "/Journey/JourneyResults/{}/to/{}",
        encode_segment(from),
        encode_segment(to)
    );
    let query: &[(&str, &str)] = if need_accessible_route == Some(true) {
        &[("accessibilityPreference", ACCESSIBLE_PREFERENCE)]
    } else {
        &[]
    };
    upstream::request(config, &path, query)
}

/// Percent-encodes a path segment (see [`crate::http::encode_component`]).
pub use crate::http::encode_component as encode_segment;

fn transport_error(error: &HttpError) -> JourneyPlanToolResponse {
    let failure = Failure::of_transport(error);
    let code = match failure {
        Failure::Timeout => PlanJourneyCode::UpstreamTimeout,
        Failure::OverBudget(_) => PlanJourneyCode::RateLimitExceeded,
        _ => PlanJourneyCode::UpstreamError,
    };
    JourneyPlanToolResponse::error(code, failure.message())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn awkward_characters_stay_inside_one_segment() {
        assert_eq!(
            encode_segment("King's Cross & St. Pancras/A,B?c#d"),
            "King%27s%20Cross%20%26%20St.%20Pancras%2FA%2CB%3Fc%23d"
        );
        assert_eq!(encode_segment("Tōkyō"), "T%C5%8Dky%C5%8D");
        assert_eq!(encode_segment("940GZZLUBNK"), "940GZZLUBNK");
    }

    #[test]
    fn validation_names_the_field() {
        let long = "x".repeat(MAX_LOCATION_CHARS + 1);
        let cases = [
            (
                JourneyPlanRequest::new(" ", "Bank"),
                "Both 'from' and 'to' must be provided.",
            ),
            (
                JourneyPlanRequest::new("Bank", ""),
                "Both 'from' and 'to' must be provided.",
            ),
            (
                JourneyPlanRequest::new(long.as_str(), "Bank"),
                "Field 'from' must be at most 200 characters.",
            ),
            (
                JourneyPlanRequest::new("Bank", "Mile\u{7}End"),
                "Field 'to' must not contain control characters.",
            ),
        ];
        for (request, message) in cases {
            assert_eq!(validate(&request).unwrap_err(), message);
        }
        let exactly_max = "y".repeat(MAX_LOCATION_CHARS);
        assert!(validate(&JourneyPlanRequest::new(exactly_max.as_str(), "Bank")).is_ok());
    }

    #[test]
    fn the_key_is_a_header_and_only_when_set() {
        let with_key = Config::builder().tfl_api_key("sekrit").build();
        let shown = format!("{:?}", journey_request(&with_key, "a", "b", Some(true)));
        assert!(!shown.contains("sekrit"), "{shown}");
        assert!(
            shown.contains("app_key") && shown.contains("StepFreeToVehicle"),
            "{shown}"
        );
        let without = format!(
            "{:?}",
            journey_request(&Config::default(), "a", "b", Some(false))
        );
        assert!(
            !without.contains("app_key") && !without.contains("accessibility"),
            "{without}"
        );
    }
}
