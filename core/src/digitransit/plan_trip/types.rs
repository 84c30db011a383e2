//! `plan_trip` request and response types.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::choices::{BikeUse, ViaPoint};
use crate::digitransit::alerts::AlertSummary;
use crate::digitransit::departures::TransitStatus;
use crate::digitransit::place::{Coordinate, Language};
use crate::digitransit::response::Warning;
use crate::digitransit::transit_mode::TransitMode;
use crate::walking_speed::WalkingSpeed;

/// Coords or saved label.
///
/// An origin or destination: coordinates, a place's name or address, or the key of a saved
/// location.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum PlaceRef {
    /// `{type: 'coords', value: {lat, lon}}`.
    Coords {
        /// The point.
        value: Coordinate,
    },
    /// Saved key.
    ///
    /// `{type: 'label', value: 'home'}`: a location saved with `save_user_variable`.
    Label {
        /// The saved key.
        value: String,
    },
    /// A place's name or address, found with the geocoder; an unclear name is asked
    /// about, or answered with `disambiguation-required` and its candidates. A call writes
    /// it as a plain string (`"Kamppi"`), which keeps it out of the tagged objects the
    /// schema lists.
    #[serde(skip_deserializing)]
    Place {
        /// The name or address.
        value: String,
    },
}

/// An origin or destination as a call may write it: a place's name as a plain string, or
/// a [`PlaceRef`] object. The schema the tool shows; [`plain_or_tagged`] reads it.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub(crate) enum PlaceInput {
    // A place's name or address (its description is the field's: every word is paid in
    // every conversation).
    Plain(String),
    // Coordinates, or a saved place.
    Tagged(PlaceRef),
}

/// Reads a place written as a plain name or as a [`PlaceRef`] object.
fn plain_or_tagged<'de, D>(deserializer: D) -> Result<PlaceRef, D::Error>
where
    D: serde::Deserializer<'de>,
{
    crate::digitransit::place::plain_or_tagged(deserializer, |value| PlaceRef::Place { value })
}

/// Whether `time` is when to leave or when to arrive.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "lowercase")]
pub enum WhenType {
    /// Leave at or after `time` (default).
    #[default]
    Depart,
    /// Arrive by `time` (needs an explicit time).
    Arrive,
}

/// When to travel.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct TripTime {
    /// The type.
    ///
    /// `depart` (the default) or `arrive`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r#type: Option<WhenType>,
    /// ISO 8601 (no offset: Helsinki time) or `now`.
    ///
    /// `now` (the default; not allowed with `arrive`) or ISO 8601, e.g.
    /// `2024-06-13T14:30:00+03:00`; a time without an offset is Helsinki time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<String>,
}

/// What to optimise for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "snake_case")]
pub enum Optimize {
    /// A moderate transfer penalty (default).
    #[default]
    Balanced,
    /// A high transfer penalty.
    FewTransfers,
    /// No transfer penalty: the earliest arrival.
    ShortestTime,
}

/// Accessibility wishes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AccessibilityInput {
    /// Step-free (wheelchair) only.
    ///
    /// Step-free (wheelchair) routes only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_free: Option<bool>,
    /// Walk as little as can be.
    ///
    /// Walk as little as possible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub low_walking_distance: Option<bool>,
}

/// `constraints` of a `plan_trip` call.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlanConstraintsInput {
    /// Optimize.
    ///
    /// What to optimise for: `balanced` (the default), `few_transfers` or `shortest_time`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optimize: Option<Optimize>,
    /// Metres, 1..3000 (default 1500).
    ///
    /// Most walking in one itinerary, 1..3000 m (default 1500).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_walking_distance: Option<f64>,
    /// 0..8 (default 4).
    ///
    /// Most transfers, 0..8 (default 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_transfers: Option<i64>,
    /// Accessibility.
    ///
    /// Accessibility wishes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accessibility: Option<AccessibilityInput>,
    /// The language.
    ///
    /// Language of names and headsigns: `fi`, `sv` or `en` (default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<Language>,
    /// Modes.
    ///
    /// Only these transit modes, sent as `modes.transit.transit` (default: every mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modes: Option<Vec<TransitMode>>,
    /// Stop id, lat,lon or saved label.
    ///
    /// A stop or station id such as `HSL:1000003` (passed on board or changed at), a point
    /// `60.2,24.9` or a saved place's label (visited), sent as OTP's `via`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    /// Walking speed.
    ///
    /// How fast you walk: `slow` 0.97 m/s, `average` 1.2 m/s, `fast` 1.67 m/s (default:
    /// the router's own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub walking_speed: Option<WalkingSpeed>,
    /// Own bike, city bikes or bike and ride.
    ///
    /// `own` (your bike on board), `cityBike` (city bikes to, from or instead of transit) or
    /// `park` (ride to a bike park, then transit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bike: Option<BikeUse>,
}

/// `plan_trip` arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlanTripRequest {
    /// Name (Kamppi), coords or saved label.
    ///
    /// Where from: a place's name or address as a plain string (`"Kamppi"`), coordinates
    /// (`{type: 'coords'}`) or a saved place (`{type: 'label'}`).
    #[serde(deserialize_with = "plain_or_tagged")]
    #[schemars(with = "PlaceInput")]
    pub origin: PlaceRef,
    /// As origin.
    ///
    /// Where to, written as `origin` is.
    #[serde(deserialize_with = "plain_or_tagged")]
    #[schemars(with = "PlaceInput")]
    pub destination: PlaceRef,
    /// When.
    ///
    /// When to travel (default: leave now).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<TripTime>,
    /// Constraints.
    ///
    /// Routing constraints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constraints: Option<PlanConstraintsInput>,
    /// Itineraries, 1..3 (default 2).
    ///
    /// Most itineraries returned, 1..3 (default 2), after duplicates are removed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
    /// Also relaxed routes if a leg is cancelled or late.
    ///
    /// When a leg is cancelled or over 5 min late, search once more with relaxed
    /// constraints and add what it finds (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_disruption_alt: Option<bool>,
}

/// Where a location came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "kebab-case")]
pub enum RawSource {
    /// Coordinates given in the call.
    Input,
    /// A saved location.
    UserVariable,
    /// A geocoder lookup.
    Geocode,
}

/// A resolved origin or destination.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct LocationRef {
    /// The point routed from or to.
    pub coordinate: Coordinate,
    /// The saved key, for a saved location.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The place's name, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The place's address, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// `input`, `user-variable` or `geocode`.
    pub raw_source: RawSource,
}

/// The time the trip was planned for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct RequestedTime {
    /// `depart` or `arrive`.
    pub r#type: WhenType,
    /// ISO 8601 in Helsinki time (`now` resolved to the current time).
    pub time: String,
}

/// Accessibility wishes as applied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct Accessibility {
    /// Step-free routes asked for.
    pub step_free: bool,
    /// Less walking asked for.
    pub low_walking_distance: bool,
}

/// The constraints as applied, defaults filled in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct PlanConstraints {
    /// What was optimised for.
    pub optimize: Optimize,
    /// Most walking, metres.
    pub max_walking_distance: f64,
    /// Most transfers.
    pub max_transfers: u32,
    /// Accessibility wishes.
    pub accessibility: Accessibility,
    /// Language of names and headsigns.
    pub language: Language,
    /// The transit modes allowed, when limited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modes: Option<Vec<TransitMode>>,
    /// The place gone through, when asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<ViaPoint>,
    /// The walking speed asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub walking_speed: Option<WalkingSpeed>,
    /// How a bike comes along, when asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bike: Option<BikeUse>,
}

/// Whether realtime data backs an itinerary (or the whole answer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "lowercase")]
pub enum ScheduleType {
    /// Every transit leg has realtime data.
    Realtime,
    /// No transit leg has realtime data.
    Scheduled,
    /// Some transit legs do.
    Mixed,
}

/// One end of a leg.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct LegPlace {
    /// The place's name.
    pub name: String,
    /// Where it is (6 decimals, about 10 cm).
    pub coordinate: Coordinate,
    /// The OTP stop id, at a stop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_id: Option<String>,
    /// Platform or track, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
}

/// One leg of an itinerary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct Leg {
    /// WALK, BUS, TRAM, RAIL, METRO, FERRY, BIKE, …
    pub mode: String,
    /// Line, e.g. `10`, for transit legs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<String>,
    /// Where the vehicle is heading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headsign: Option<String>,
    /// Start of the leg: left out when it is where the leg before ended (the first leg
    /// always has it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<LegPlace>,
    /// End of the leg.
    pub to: LegPlace,
    /// Timetabled departure (ISO 8601 with offset).
    pub scheduled_departure: String,
    /// Expected departure from realtime data, when it is not the timetabled one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub realtime_departure: Option<String>,
    /// Timetabled arrival.
    pub scheduled_arrival: String,
    /// Expected arrival from realtime data, when it is not the timetabled one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub realtime_arrival: Option<String>,
    /// Realtime delay in seconds (negative when early; 0 when realtime data confirms the
    /// timetable).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub realtime_delay_seconds: Option<i64>,
    /// `on_time`, `delayed` (over 60 s late), `early` (over 60 s early), `cancelled` or
    /// `scheduled_only`.
    pub status: TransitStatus,
    /// Length, metres.
    pub distance_meters: f64,
    /// Service alerts on this leg, in brief, most severe first (`get_alerts` gives them in
    /// full); absent when there are none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alerts: Option<Vec<AlertSummary>>,
    /// `true` on a city bike (rented) leg.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rented_bike: Option<bool>,
    /// The tickets that cover this leg, as OTP prices them; absent when it gives none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fare_products: Option<Vec<LegFare>>,
}

/// A ticket that covers a leg.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct LegFare {
    /// The ticket, e.g. `HSL AB`.
    pub name: String,
    /// Its price, in `currency`, when OTP gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<f64>,
    /// ISO 4217 code, e.g. `EUR`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    /// The ticket's use: legs with the same `useId` share one ticket.
    pub use_id: String,
}

/// One way to make the trip.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct Itinerary {
    /// Departure (ISO 8601 with offset; realtime when known).
    pub start: String,
    /// Arrival.
    pub end: String,
    /// Door to door, seconds.
    pub duration_seconds: i64,
    /// Transfers between vehicles.
    pub number_of_transfers: u32,
    /// Walking, metres.
    pub walk_distance_meters: f64,
    /// The legs, in order.
    pub legs: Vec<Leg>,
    /// Whether realtime data backs its transit legs.
    pub schedule_type: ScheduleType,
    /// `sha1:…` of its legs and start time: equal fingerprints are the same trip.
    pub fingerprint: String,
    /// `true` when it came from the relaxed search run because of a disruption.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disruption_flag: Option<bool>,
    /// Grams of CO₂ per person, as OTP estimates them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub co2_grams_per_person: Option<f64>,
}

/// Extra facts about the answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct PlanMeta {
    /// How many itineraries there were before duplicates were removed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deduplicated_from: Option<u32>,
}

/// `plan_trip` success body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct PlanTripResult {
    /// The answer in words: the first itinerary to arrive, when it leaves and arrives, its
    /// rides and changes, and how many itineraries there are.
    pub message: String,
    /// Where from.
    pub origin: LocationRef,
    /// Where to.
    pub destination: LocationRef,
    /// When.
    pub requested: RequestedTime,
    /// The constraints applied.
    pub constraints: PlanConstraints,
    /// Itineraries: earliest arrival first, then fewer transfers, then shorter.
    pub itineraries: Vec<Itinerary>,
    /// Realtime coverage over every transit leg returned.
    pub realtime_used: ScheduleType,
    /// When the upstream data was fetched (ISO 8601 UTC): a cached answer keeps its
    /// fetch time, as `asOf` does.
    pub data_freshness: String,
    /// Notes (`truncated-results`, `preference-unmet`, `unsupported-accessibility-flag`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warnings: Option<Vec<Warning>>,
    /// The call's correlation id (UUID).
    pub correlation_id: String,
    /// Present when duplicates were removed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<PlanMeta>,
    /// When the upstream answer was fetched, and whether it is stale.
    #[serde(flatten)]
    pub served: Option<crate::http::ServedFields>,
}
