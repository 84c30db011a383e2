//! `planJourney` request and response types, exactly as the contract's JSON, plus the
//! route details an agent needs to describe a journey (legs, disruptions, fare).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::choices::{AccessibilityWish, JourneyMode, JourneyPreference, TimeIs, WalkingSpeed};

/// `JourneyPlanRequest`: where from, where to, and how: when, by what, how step-free,
/// through where, how far and how fast on foot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JourneyPlanRequest {
    /// A place, station, postcode, "lat,lon", stop id or suggested parameterValue; at most 200 characters.
    ///
    /// Start: a place name ("Bank"), a postcode ("SW1A 2AA"), `"lat,lon"`
    /// ("51.5074,-0.1278"), a NaPTAN id ("940GZZLUBNK") or an ICS id ("1000013"), or a
    /// `parameterValue` from an earlier disambiguation. At most 200 characters.
    pub from: String,
    /// As `from`.
    ///
    /// Destination, in the same forms as `from`. At most 200 characters.
    pub to: String,
    /// Need accessible route.
    ///
    /// Step-free, street to vehicle.
    ///
    /// `true` asks TfL for a route that is step-free from street to vehicle
    /// (`accessibilityPreference=StepFreeToVehicle`); `false` or absent: no preference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub need_accessible_route: Option<bool>,
    /// ISO 8601; no offset: London time. Default now.
    ///
    /// When to leave or arrive. Without an offset it is London time; with one (or `Z`) it
    /// is converted to London time (GMT or BST). A clock time London skips is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "uniffi", uniffi(default))]
    pub time: Option<String>,
    /// Default departing.
    ///
    /// Whether `time` is when to leave (`departing`) or when to be there (`arriving`,
    /// which needs a `time`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "uniffi", uniffi(default))]
    pub time_is: Option<TimeIs>,
    /// Only these; default any.
    ///
    /// The modes the journeys may use (TfL's `/Journey/Meta/Modes` ids); absent: any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "uniffi", uniffi(default))]
    pub modes: Option<Vec<JourneyMode>>,
    /// The accessibility.
    ///
    /// Step-free wishes, sent to TfL together with `needAccessibleRoute`'s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "uniffi", uniffi(default))]
    pub accessibility: Option<Vec<AccessibilityWish>>,
    /// Through here, as `from`.
    ///
    /// A place the journeys go through, in the forms `from` takes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "uniffi", uniffi(default))]
    pub via: Option<String>,
    /// The walking speed.
    ///
    /// How fast the traveller walks; absent: TfL's default (average).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "uniffi", uniffi(default))]
    pub walking_speed: Option<WalkingSpeed>,
    /// 0..120.
    ///
    /// Most minutes of walking, 0..120.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "uniffi", uniffi(default))]
    pub max_walking_minutes: Option<u32>,
    /// The journey preference.
    ///
    /// What the planner puts first: the least time, the fewest changes or the least
    /// walking; absent: TfL's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "uniffi", uniffi(default))]
    pub journey_preference: Option<JourneyPreference>,
}

impl JourneyPlanRequest {
    /// A request from `from` to `to` with no accessibility preference.
    pub fn new(from: impl Into<String>, to: impl Into<String>) -> Self {
        Self {
            from: from.into(),
            to: to.into(),
            need_accessible_route: None,
            time: None,
            time_is: None,
            modes: None,
            accessibility: None,
            via: None,
            walking_speed: None,
            max_walking_minutes: None,
            journey_preference: None,
        }
    }

    /// The same request asking (or not) for a step-free route.
    pub fn accessible(mut self, need_accessible_route: bool) -> Self {
        self.need_accessible_route = Some(need_accessible_route);
        self
    }
}

/// Result or error code of `planJourney`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum PlanJourneyCode {
    /// Journeys were planned; `topJourneys` is filled (possibly empty).
    Ok,
    /// Invalid request input, or a location TfL could not identify at all.
    ValidationError,
    /// TfL could not resolve `from` or `to` uniquely; retry with a suggested `parameterValue`.
    DisambiguationRequired,
    /// The local rate limit for `planJourney` was exceeded, or the TfL key's budget of
    /// requests is spent (`TFL_API_BUDGET_PER_MINUTE`).
    RateLimitExceeded,
    /// TfL refused the API key (HTTP 429 "Invalid app_key is provided."): check
    /// `TFL_API_KEY`. This is not throttling, and is never retried.
    InvalidApiKey,
    /// TfL did not answer in time.
    UpstreamTimeout,
    /// TfL answered with an error status or an unusable body, or could not be reached.
    UpstreamError,
    /// Unexpected internal failure.
    InternalError,
}

impl PlanJourneyCode {
    /// The code as it appears in JSON, e.g. `UPSTREAM_TIMEOUT`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Ok => "OK",
            Self::ValidationError => "VALIDATION_ERROR",
            Self::DisambiguationRequired => "DISAMBIGUATION_REQUIRED",
            Self::RateLimitExceeded => "RATE_LIMIT_EXCEEDED",
            Self::InvalidApiKey => "INVALID_API_KEY",
            Self::UpstreamTimeout => "UPSTREAM_TIMEOUT",
            Self::UpstreamError => "UPSTREAM_ERROR",
            Self::InternalError => "INTERNAL_ERROR",
        }
    }
}

/// `JourneyPlanToolResponse`: the contract's fields are always present (`null` when
/// unused); the others are left out when they have nothing to say.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct JourneyPlanToolResponse {
    /// Whether planning succeeded.
    pub success: bool,
    /// Machine-readable result or error code.
    pub code: PlanJourneyCode,
    /// Human-readable summary.
    pub message: String,
    /// Up to 5 journeys, fastest first (success only; may be empty).
    pub top_journeys: Option<Vec<JourneyOptionSummary>>,
    /// Suggestions for `from` (on `DISAMBIGUATION_REQUIRED` only; `[]` when `from` resolved).
    pub from_location_disambiguation: Option<Vec<JourneyDisambiguationSuggestion>>,
    /// Suggestions for `to` (on `DISAMBIGUATION_REQUIRED` only; `[]` when `to` resolved).
    pub to_location_disambiguation: Option<Vec<JourneyDisambiguationSuggestion>>,
    /// Suggestions for `via` (on `DISAMBIGUATION_REQUIRED` when a `via` was given; `[]`
    /// when it resolved).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via_location_disambiguation: Option<Vec<JourneyDisambiguationSuggestion>>,
    /// What was asked beyond `from` and `to` (on `OK` and `DISAMBIGUATION_REQUIRED`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested: Option<JourneyRequested>,
    /// When the upstream answer was fetched, and whether it is stale (success only).
    #[serde(flatten)]
    pub served: Option<crate::http::ServedFields>,
}

impl JourneyPlanToolResponse {
    /// An error response with `code` and `message`; every other field null.
    pub fn error(code: PlanJourneyCode, message: impl Into<String>) -> Self {
        Self {
            served: None,
            success: false,
            code,
            message: message.into(),
            top_journeys: None,
            from_location_disambiguation: None,
            to_location_disambiguation: None,
            via_location_disambiguation: None,
            requested: None,
        }
    }
}

/// `JourneyOptionSummary`: one journey, with what an agent needs to describe it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct JourneyOptionSummary {
    /// Door-to-door duration in minutes.
    pub duration_minutes: Option<i64>,
    /// Departure, London time with its UTC offset (`2015-10-21T16:27:00+01:00`).
    pub start_date_time: Option<String>,
    /// Arrival, London time with its UTC offset.
    pub arrival_date_time: Option<String>,
    /// Number of legs.
    pub leg_count: u32,
    /// The single adult pay-as-you-go fare in pence, when TfL gives one (walks have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_fare_pence: Option<i64>,
    /// The fare's parts as TfL prices them (a part spans the legs between two taps), each
    /// with its peak and off-peak price; left out when TfL gives no fare.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fares: Vec<JourneyFare>,
    /// True when any leg is disrupted (left out otherwise).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_disrupted: bool,
    /// The legs, in travel order.
    pub legs: Vec<JourneyLegSummary>,
}

/// One leg of a journey.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct JourneyLegSummary {
    /// Mode id: `tube`, `walking`, `bus`, `overground`, `dlr`, `national-rail`, `elizabeth-line`, …
    pub mode: Option<String>,
    /// Line or route name (e.g. `Central`, `London Overground`, bus `73`); none for walks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route_name: Option<String>,
    /// TfL's one-line instruction, e.g. "Central line to Mile End".
    pub instruction: Option<String>,
    /// Departure, London time with its UTC offset (left out when the journey has this one
    /// leg: the journey's times are its).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub departure_time: Option<String>,
    /// Arrival, London time with its UTC offset (left out as `departureTime` is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrival_time: Option<String>,
    /// Leg duration in minutes (left out as `departureTime` is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_minutes: Option<i64>,
    /// True when TfL flags the leg as disrupted (left out otherwise).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_disrupted: bool,
    /// Disruption texts for this leg, without duplicates (left out when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disruptions: Vec<String>,
    /// Where the leg starts, where a traveller boards: the stop or place TfL names, as
    /// people say it ("Bank", not "Bank Underground Station").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub departure_point: Option<String>,
    /// Where the leg ends: where a traveller gets off or changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrival_point: Option<String>,
    /// The stops the leg calls at after it starts, its last stop included (TfL's
    /// `path.stopPoints`); their count is how many stops the traveller rides (left out
    /// for a walk).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stops: Vec<String>,
    /// What is in the way of a step-free journey on this leg: stairs, escalators or lifts
    /// (left out when nothing is).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub obstacles: Vec<JourneyObstacle>,
}

/// One priced part of a journey.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct JourneyFare {
    /// What it costs at the planned time, in pence.
    pub cost_pence: Option<i64>,
    /// Its peak price in pence.
    pub peak_pence: Option<i64>,
    /// Its off-peak price in pence.
    pub off_peak_pence: Option<i64>,
    /// Which price applies at the planned time, e.g. "Peak", "Off Peak".
    pub charge_level: Option<String>,
    /// The lowest fare zone it crosses.
    pub low_zone: Option<i64>,
    /// The highest fare zone it crosses.
    pub high_zone: Option<i64>,
}

/// Something in the way of a step-free journey.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct JourneyObstacle {
    /// What it is, as TfL says: `STAIRS`, `ESCALATOR`, `LIFT`, `WALKWAY`.
    pub kind: Option<String>,
    /// `UP`, `DOWN` or `LEVEL`.
    pub incline: Option<String>,
    /// Where: `BEFORE` or `AFTER` the leg, or `IDEST` at its end.
    pub position: Option<String>,
}

/// `JourneyDisambiguationSuggestion`: one candidate place for an ambiguous location.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct JourneyDisambiguationSuggestion {
    /// Retry token: pass it back as `from` or `to` to choose this place.
    pub parameter_value: String,
    /// TfL's match quality (higher is better; seen 500–1000). Not station-first.
    pub match_quality: Option<i64>,
    /// The place's name, e.g. "Victoria Station".
    pub common_name: Option<String>,
    /// The place's type, e.g. `NaptanMetroStation`, `StopPoint`, `PointOfInterest`.
    pub place_type: Option<String>,
    /// The place as a person tells it apart from the others: its name, then its lines
    /// when another suggestion has the same name (TfL's stop data), else its modes
    /// ("Edgware Road — Bakerloo"). What a person is shown when asked to pick.
    pub title: String,
}

/// What was asked for, beyond `from` and `to`: on every answer that reached TfL's plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct JourneyRequested {
    /// The London time asked for, with its offset (`2026-12-05T09:00:00+00:00`); none: now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<String>,
    /// `GMT` or `BST`, the clock `time` is on; none without `time`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_zone: Option<String>,
    /// Whether `time` is when to leave or when to be there.
    pub time_is: TimeIs,
    /// The modes the journeys may use; none: any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modes: Vec<JourneyMode>,
    /// The step-free wishes (`needAccessibleRoute` among them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub accessibility: Vec<AccessibilityWish>,
    /// The place to go through, as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    /// How fast the traveller walks; none: TfL's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub walking_speed: Option<WalkingSpeed>,
    /// Most minutes of walking; none: TfL's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_walking_minutes: Option<u32>,
    /// What the planner puts first; none: TfL's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub journey_preference: Option<JourneyPreference>,
}
