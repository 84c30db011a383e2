//! `planJourney`: London journeys from the TfL Journey Planner API
//! (`GET {TFL_API_BASE_URL}/Journey/JourneyResults/{from}/to/{to}`).

mod ask;
mod choices;
mod classify;
mod options;
mod rank;
mod types;
mod wire;

use std::time::Duration;

pub use choices::{
    AccessibilityWish, JourneyMode, JourneyPreference, MAX_WALKING_MINUTES, TimeIs, WalkingSpeed,
};
pub use types::{
    JourneyDisambiguationSuggestion, JourneyFare, JourneyLegSummary, JourneyObstacle,
    JourneyOptionSummary, JourneyPlanRequest, JourneyPlanToolResponse, JourneyRequested,
    PlanJourneyCode,
};

use ask::Places;
use options::Wishes;

use crate::Toolpack;
use crate::config::{Config, env};
use crate::http::{AnswerKind, HttpError, Served, UpstreamRequest};
use crate::tfl::upstream::{self, Failure, policy};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

/// Longest accepted `from` / `to`, in characters.
pub const MAX_LOCATION_CHARS: usize = 200;
/// TfL's upstream timeout unless `TOOLPACK_UPSTREAM_TIMEOUT_MS` overrides it.
pub const DEFAULT_TIMEOUT: Duration = upstream::DEFAULT_TIMEOUT;

/// The `planJourney` tool.
#[derive(Debug, Clone, Copy)]
pub struct PlanJourney;

impl Tool for PlanJourney {
    type Input = JourneyPlanRequest;
    type Output = JourneyPlanToolResponse;
    const SPEC: ToolSpec = ToolSpec {
        name: "planJourney",
        title: "Plan a London journey",
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
        let wishes = match validate(&input).and_then(|()| Wishes::of(&input)) {
            Ok(wishes) => wishes,
            Err(message) => {
                return JourneyPlanToolResponse::error(PlanJourneyCode::ValidationError, message);
            }
        };
        let places = Places {
            from: input.from.trim().to_owned(),
            to: input.to.trim().to_owned(),
            via: wishes.requested.via.clone(),
        };
        let (answer, served) = plan(toolpack, &places, &wishes).await;
        match served {
            Some(served) if answer.code == PlanJourneyCode::DisambiguationRequired => {
                let mut answer = answer;
                ask::tell_apart(toolpack, &served.body, &mut answer).await;
                match ask::picked(&answer, &places).await {
                    Some(picked) => {
                        let wishes = wishes.via(picked.via.clone());
                        plan(toolpack, &picked, &wishes).await.0
                    }
                    None => answer,
                }
            }
            _ => answer,
        }
    }
}

/// One Journey Planner request and its answer (with what was asked, when TfL planned or
/// asked back), and TfL's body when it answered.
async fn plan(
    toolpack: &Toolpack,
    places: &Places,
    wishes: &Wishes,
) -> (JourneyPlanToolResponse, Option<Served>) {
    let request =
        journey_request(toolpack.config(), places, wishes).answer_kind(AnswerKind::Journeys);
    match toolpack
        .http()
        .send(&request, &policy(toolpack.config()))
        .await
    {
        Ok(response) => {
            let mut answer =
                classify::classify(&response, &places.from, &places.to, places.via.as_deref());
            match answer.code {
                PlanJourneyCode::UpstreamError => toolpack.http().forget(&request),
                PlanJourneyCode::Ok | PlanJourneyCode::DisambiguationRequired => {
                    answer.requested = Some(wishes.requested.clone());
                }
                _ => {}
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
        check_place(field, value.trim())?;
    }
    Ok(())
}

/// Why the place given as `field` cannot be sent (too long, a control character).
fn check_place(field: &str, value: &str) -> Result<(), String> {
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
    Ok(())
}

/// The Journey Planner request: each location one percent-encoded path segment, the
/// wishes its query ([`Wishes::query`], `via` among them), the key (when set) only in the `app_key` header,
/// never in the URL.
fn journey_request(config: &Config, places: &Places, wishes: &Wishes) -> UpstreamRequest {
    let path = format!(
        "/Journey/JourneyResults/{}/to/{}",
        encode_segment(&places.from),
        encode_segment(&places.to)
    );
    let query = wishes.query();
    let query: Vec<(&str, &str)> = query.iter().map(|(n, v)| (*n, v.as_str())).collect();
    upstream::request(config, &path, &query)
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

    fn request_of(config: &Config, input: JourneyPlanRequest) -> UpstreamRequest {
        let wishes = Wishes::of(&input).unwrap();
        let places = Places {
            from: input.from.clone(),
            to: input.to.clone(),
            via: wishes.requested.via.clone(),
        };
        journey_request(config, &places, &wishes)
    }

    #[test]
    fn the_key_is_a_header_and_only_when_set() {
        let with_key = Config::builder().tfl_api_key("sekrit").build();
        let asked = JourneyPlanRequest::new("a", "b").accessible(true);
        let shown = format!("{:?}", request_of(&with_key, asked));
        assert!(!shown.contains("sekrit"), "{shown}");
        assert!(
            shown.contains("app_key") && shown.contains("StepFreeToVehicle"),
            "{shown}"
        );
        let without = format!(
            "{:?}",
            request_of(
                &Config::default(),
                JourneyPlanRequest::new("a", "b").accessible(false)
            )
        );
        assert!(
            !without.contains("app_key") && !without.contains("accessibility"),
            "{without}"
        );
    }
}
