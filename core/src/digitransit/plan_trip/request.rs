//! `plan_trip` arguments → a checked [`Plan`], and a plan → OTP `planConnection`
//! variables (the constraint mapping of the notes, with its constants pinned here).

use super::types::{
    Accessibility, LocationRef, Optimize, PlaceRef, PlanConstraints, PlanTripRequest, RawSource,
    RequestedTime, WhenType,
};
use super::variables::{
    self, DateTime, Enabled, Location, PointLocation, Preferences, Street, Timetable, Transfer,
    Transit, Variables, Walk,
};
use super::{named, wishes};
use crate::Toolpack;
use crate::digitransit::place::{Coordinate, Language, checked_range};
use crate::digitransit::response::Failure;
use crate::digitransit::time::{helsinki_iso, now, parse_time_argument};
use crate::digitransit::transit_mode::checked_modes;
use crate::digitransit::user_variables::saved_location;

/// Default `maxWalkingDistance`, metres.
pub const DEFAULT_MAX_WALK: f64 = 1500.0;
/// Largest `maxWalkingDistance`, metres (also the cap of the relaxed search).
pub const MAX_WALK: f64 = 3000.0;
/// The relaxed search walks this much further.
pub const RELAXED_WALK_FACTOR: f64 = 1.25;
/// Itineraries asked of OTP (more than `limit`, which applies after dedupe).
pub const FIRST: u32 = 5;
/// Walk reluctance at the default walking distance.
pub const BASE_WALK_RELUCTANCE: f64 = 2.0;
/// `lowWalkingDistance` caps the walking post-filter at this many metres.
pub const LOW_WALK_LIMIT: f64 = 500.0;
/// Origin and destination closer than this are the same place.
pub const SAME_PLACE_METRES: f64 = 1.0;

/// Transfer cost and walk board cost (OTP seconds-equivalent) per `optimize`, as in
/// digitransit-ui's `transferPenalty` / `walkBoardCost`.
pub fn optimize_costs(optimize: Optimize) -> (u32, u32) {
    match optimize {
        Optimize::ShortestTime => (0, 120),
        Optimize::Balanced => (300, 300),
        Optimize::FewTransfers => (1200, 600),
    }
}

/// A checked `plan_trip` call.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    pub origin: LocationRef,
    pub destination: LocationRef,
    pub requested: RequestedTime,
    pub constraints: PlanConstraints,
    pub limit: usize,
    pub include_disruption_alt: bool,
}

impl Plan {
    /// Checks every rule of the contract, resolving saved labels.
    pub async fn check(toolpack: &Toolpack, input: PlanTripRequest) -> Result<Self, Failure> {
        let limit = checked_range("limit", input.limit, 1..=3, 2)? as usize;
        let c = input.constraints.unwrap_or_default();
        let max_walking_distance = c.max_walking_distance.unwrap_or(DEFAULT_MAX_WALK);
        if !(1.0..=MAX_WALK).contains(&max_walking_distance) {
            return Err(Failure::validation(
                "constraints.maxWalkingDistance must be between 1 and 3000.",
            ));
        }
        let max_transfers = checked_range("constraints.maxTransfers", c.max_transfers, 0..=8, 4)?;
        let accessibility = c.accessibility.unwrap_or_default();
        let when = input.when.unwrap_or_default();
        let requested = requested_time(when.r#type.unwrap_or_default(), when.time.as_deref())?;
        let modes = checked_modes("constraints.modes", c.modes)?;
        let language = c.language.unwrap_or_default();
        let origin = resolve(toolpack, "origin", input.origin, language).await?;
        let destination = resolve(toolpack, "destination", input.destination, language).await?;
        if origin.coordinate.distance_m(&destination.coordinate) <= SAME_PLACE_METRES {
            return Err(Failure::validation("origin and destination must differ"));
        }
        let via = wishes::resolve_via(toolpack, c.via).await?;
        Ok(Self {
            origin,
            destination,
            requested,
            constraints: PlanConstraints {
                optimize: c.optimize.unwrap_or_default(),
                max_walking_distance,
                max_transfers: max_transfers as u32,
                accessibility: Accessibility {
                    step_free: accessibility.step_free.unwrap_or(false),
                    low_walking_distance: accessibility.low_walking_distance.unwrap_or(false),
                },
                language,
                modes,
                via,
                walking_speed: c.walking_speed,
                bike: c.bike,
            },
            limit,
            include_disruption_alt: input.include_disruption_alt.unwrap_or(true),
        })
    }

    /// The constraints of the one relaxed second search: `balanced`, walking × 1.25
    /// (at most 3000 m); `None` when that changes nothing.
    pub fn relaxed(&self) -> Option<PlanConstraints> {
        let mut relaxed = self.constraints.clone();
        relaxed.optimize = Optimize::Balanced;
        relaxed.max_walking_distance =
            (relaxed.max_walking_distance * RELAXED_WALK_FACTOR).min(MAX_WALK);
        (relaxed != self.constraints).then_some(relaxed)
    }

    /// The walking limit itineraries are filtered by.
    pub fn walk_limit(&self) -> f64 {
        let limit = self.constraints.max_walking_distance;
        if self.constraints.accessibility.low_walking_distance {
            limit.min(LOW_WALK_LIMIT)
        } else {
            limit
        }
    }

    /// The `planConnection` variables for `constraints`.
    pub fn variables<'a>(&'a self, constraints: &'a PlanConstraints) -> Variables<'a> {
        let (transfer_cost, board_cost) = optimize_costs(constraints.optimize);
        let time = self.requested.time.as_str();
        Variables {
            origin: otp_location(&self.origin),
            destination: otp_location(&self.destination),
            date_time: match self.requested.r#type {
                WhenType::Depart => DateTime::EarliestDeparture(time),
                WhenType::Arrive => DateTime::LatestArrival(time),
            },
            first: FIRST,
            preferences: Preferences {
                accessibility: variables::Accessibility {
                    wheelchair: Enabled {
                        enabled: constraints.accessibility.step_free,
                    },
                },
                street: Street {
                    walk: Walk {
                        reluctance: walk_reluctance(constraints),
                        board_cost,
                        speed: constraints.walking_speed.map(|s| s.metres_per_second()),
                    },
                },
                transit: Transit {
                    transfer: Transfer {
                        maximum_transfers: constraints.max_transfers,
                        cost: transfer_cost,
                    },
                    timetable: Timetable {
                        include_real_time_cancellations: true,
                    },
                },
            },
            modes: wishes::modes_variable(constraints),
            via: constraints.via.as_ref().map(wishes::via_variable),
        }
    }
}

/// Walk reluctance: `BASE_WALK_RELUCTANCE` (2) at 1500 m, higher for shorter limits (at most
/// 10), doubled by `lowWalkingDistance`; rounded to 2 decimals.
pub fn walk_reluctance(constraints: &PlanConstraints) -> f64 {
    let scaled = BASE_WALK_RELUCTANCE * DEFAULT_MAX_WALK / constraints.max_walking_distance;
    let factor = if constraints.accessibility.low_walking_distance {
        2.0
    } else {
        1.0
    };
    ((scaled * factor).clamp(1.0, 10.0) * 100.0).round() / 100.0
}

fn otp_location(place: &LocationRef) -> Location<'_> {
    Location {
        location: PointLocation {
            coordinate: place.coordinate.into(),
        },
        label: place.name.as_deref().or(place.label.as_deref()),
    }
}

fn requested_time(kind: WhenType, time: Option<&str>) -> Result<RequestedTime, Failure> {
    let time = time
        .map(str::trim)
        .filter(|t| !t.eq_ignore_ascii_case("now"));
    let instant = match (kind, time) {
        (WhenType::Arrive, None) => {
            return Err(Failure::validation(
                "when.type 'arrive' needs an explicit when.time (ISO 8601), not 'now'.",
            ));
        }
        (_, None) => now(),
        (_, Some(text)) => parse_time_argument(text).ok_or_else(|| {
            Failure::validation(format!(
                "when.time must be 'now' or ISO 8601 such as 2024-06-13T14:30:00+03:00; got '{text}'."
            ))
        })?,
    };
    Ok(RequestedTime {
        r#type: kind,
        time: helsinki_iso(instant),
    })
}

async fn resolve(
    toolpack: &Toolpack,
    field: &str,
    place: PlaceRef,
    language: Language,
) -> Result<LocationRef, Failure> {
    match place {
        PlaceRef::Coords { value } => {
            value.validate(field)?;
            Ok(LocationRef {
                coordinate: value,
                label: None,
                name: None,
                address: None,
                raw_source: RawSource::Input,
            })
        }
        PlaceRef::Label { value } => {
            let saved = saved_location(toolpack, &format!("{field}.value"), &value).await?;
            Ok(LocationRef {
                coordinate: Coordinate::new(saved.lat, saved.lon),
                label: Some(value.trim().to_owned()),
                name: saved.name.or(saved.label),
                address: saved.address,
                raw_source: RawSource::UserVariable,
            })
        }
        PlaceRef::Place { value } => named::by_name(toolpack, field, &value, language).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn constraints(max_walk: f64, low: bool) -> PlanConstraints {
        PlanConstraints {
            optimize: Optimize::Balanced,
            max_walking_distance: max_walk,
            max_transfers: 4,
            accessibility: Accessibility {
                step_free: false,
                low_walking_distance: low,
            },
            language: Language::En,
            modes: None,
            via: None,
            walking_speed: None,
            bike: None,
        }
    }

    #[test]
    fn reluctance_grows_as_the_walking_limit_shrinks() {
        assert_eq!(walk_reluctance(&constraints(1500.0, false)), 2.0);
        assert_eq!(walk_reluctance(&constraints(500.0, false)), 6.0);
        assert_eq!(walk_reluctance(&constraints(500.0, true)), 10.0);
        assert_eq!(walk_reluctance(&constraints(3000.0, false)), 1.0);
    }

    #[test]
    fn arrive_needs_a_time_and_times_are_helsinki() {
        assert!(requested_time(WhenType::Arrive, None).is_err());
        assert!(requested_time(WhenType::Arrive, Some("now")).is_err());
        assert!(requested_time(WhenType::Depart, Some("soon")).is_err());
        let t = requested_time(WhenType::Arrive, Some("2024-06-13T11:30:00Z")).unwrap();
        assert_eq!(t.time, "2024-06-13T14:30:00+03:00");
    }
}
