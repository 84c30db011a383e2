//! What TfL's Journey Planner sends: the parts of `ItineraryResult`,
//! `DisambiguationResult` and `ApiError` this tool reads. Every field is optional and
//! unknown fields are ignored, so TfL adding fields never breaks a call.

use serde::Deserialize;

/// Any Journey Planner body: an itinerary, a disambiguation, an error, or a mix.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct JourneyResponse {
    pub journeys: Option<Vec<Journey>>,
    pub from_location_disambiguation: Option<Disambiguation>,
    pub to_location_disambiguation: Option<Disambiguation>,
    pub via_location_disambiguation: Option<Disambiguation>,
    /// `ApiError.message`, or an API-gateway body's `message`.
    pub message: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct Journey {
    pub start_date_time: Option<String>,
    pub arrival_date_time: Option<String>,
    pub duration: Option<i64>,
    pub legs: Vec<Leg>,
    pub fare: Option<Fare>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct Fare {
    pub total_cost: Option<i64>,
    #[serde(deserialize_with = "crate::tfl::lenient::list")]
    pub fares: Vec<FarePart>,
}

/// One priced part of a journey (TfL's `Fare`): its zones, what it costs at this time, and
/// at peak and off-peak times.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FarePart {
    #[serde(default, deserialize_with = "crate::tfl::lenient::int")]
    pub cost: Option<i64>,
    #[serde(default, deserialize_with = "crate::tfl::lenient::int")]
    pub peak: Option<i64>,
    #[serde(default, deserialize_with = "crate::tfl::lenient::int")]
    pub off_peak: Option<i64>,
    #[serde(default, deserialize_with = "crate::tfl::lenient::string")]
    pub charge_level: Option<String>,
    #[serde(default, deserialize_with = "crate::tfl::lenient::int")]
    pub low_zone: Option<i64>,
    #[serde(default, deserialize_with = "crate::tfl::lenient::int")]
    pub high_zone: Option<i64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct Leg {
    pub duration: Option<i64>,
    pub departure_time: Option<String>,
    pub arrival_time: Option<String>,
    pub instruction: Option<Instruction>,
    pub mode: Option<Mode>,
    pub route_options: Vec<RouteOption>,
    pub is_disrupted: Option<bool>,
    pub disruptions: Vec<Disruption>,
    pub departure_point: Option<Point>,
    pub arrival_point: Option<Point>,
    pub path: Option<Path>,
    #[serde(deserialize_with = "crate::tfl::lenient::list")]
    pub obstacles: Vec<Obstacle>,
}

/// The way a leg goes: only the stops it calls at are read.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct Path {
    #[serde(deserialize_with = "crate::tfl::lenient::list")]
    pub stop_points: Vec<PathStop>,
}

/// A stop of a leg's path (TfL's `Identifier`).
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PathStop {
    #[serde(default, deserialize_with = "crate::tfl::lenient::string")]
    pub name: Option<String>,
}

/// Something in the way of a step-free journey (TfL's `Obstacle`): stairs, an escalator or a
/// lift, going up or down, before or after the leg.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Obstacle {
    #[serde(
        default,
        rename = "type",
        deserialize_with = "crate::tfl::lenient::string"
    )]
    pub kind: Option<String>,
    #[serde(default, deserialize_with = "crate::tfl::lenient::string")]
    pub incline: Option<String>,
    #[serde(default, deserialize_with = "crate::tfl::lenient::string")]
    pub position: Option<String>,
}

/// Where a leg starts or ends (TfL's `StopPoint` or `Place`): only its name is read.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct Point {
    pub common_name: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct Instruction {
    pub summary: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct Mode {
    pub id: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct RouteOption {
    pub name: Option<String>,
    pub line_identifier: Option<LineIdentifier>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct LineIdentifier {
    pub name: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct Disruption {
    pub summary: Option<String>,
    pub description: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct Disambiguation {
    pub match_status: Option<String>,
    pub disambiguation_options: Vec<DisambiguationOption>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct DisambiguationOption {
    pub parameter_value: Option<String>,
    pub match_quality: Option<i64>,
    pub place: Option<Place>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct Place {
    pub common_name: Option<String>,
    pub place_type: Option<String>,
    /// A stop's NaPTAN id: how its lines are found when two places share a name.
    pub naptan_id: Option<String>,
    pub modes: Vec<String>,
}

impl Disambiguation {
    /// Options with a usable (non-blank) retry token.
    pub fn usable_options(&self) -> impl Iterator<Item = &DisambiguationOption> {
        self.disambiguation_options.iter().filter(|o| {
            o.parameter_value
                .as_deref()
                .is_some_and(|v| !v.trim().is_empty())
        })
    }

    /// TfL found nothing for this side.
    pub fn not_identified(&self) -> bool {
        self.match_status
            .as_deref()
            .is_some_and(|s| s.eq_ignore_ascii_case("notidentified"))
    }
}
