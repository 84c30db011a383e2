//! `planJourney`'s optional wishes (when, by what, how step-free, via where, how far and
//! how fast on foot), the Journey Planner query each becomes, and what was asked, said
//! back so a person reads "arriving by 09:00 (GMT)".
//!
//! TfL wants each list comma-joined in one parameter (`mode=tube,dlr`): repeated
//! parameters answer HTTP 400 (radiosilence/tfl-mcp PR #12). A time is London time: one
//! with an offset (or `Z`) is converted to it, GMT or BST, before TfL's `date` (yyyyMMdd)
//! and `time` (HHmm) are written.

use jiff::civil::DateTime;
use jiff::tz::AmbiguousOffset;
use jiff::{Timestamp, Zoned};
use serde::Serialize;

use super::choices::{AccessibilityWish, JourneyMode, MAX_WALKING_MINUTES, TimeIs};
use super::types::{JourneyPlanRequest, JourneyRequested};
use crate::tfl::london::london;

/// The wishes of one request, checked: the query they become and what to say back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Wishes {
    /// When, in London.
    when: Option<Zoned>,
    /// What is said back.
    pub(crate) requested: JourneyRequested,
}

impl Wishes {
    /// The wishes of `input`, or why they cannot be asked (the message names the field).
    pub(crate) fn of(input: &JourneyPlanRequest) -> Result<Self, String> {
        let when = input.time.as_deref().map(london_time).transpose()?;
        let time_is = input.time_is.unwrap_or_default();
        if when.is_none() && time_is == TimeIs::Arriving {
            return Err("Field 'timeIs' arriving needs a 'time' to arrive by.".into());
        }
        if let Some(minutes) = input.max_walking_minutes
            && minutes > MAX_WALKING_MINUTES
        {
            return Err(format!(
                "Field 'maxWalkingMinutes' must be 0..{MAX_WALKING_MINUTES}."
            ));
        }
        let via = match input.via.as_deref().map(str::trim) {
            Some("") => return Err("Field 'via' must not be blank.".into()),
            Some(via) => {
                super::check_place("via", via)?;
                Some(via.to_owned())
            }
            None => None,
        };
        let flag = (input.need_accessible_route == Some(true))
            .then_some(AccessibilityWish::StepFreeToVehicle);
        let accessibility = distinct(input.accessibility.iter().flatten().copied().chain(flag));
        let modes: Vec<JourneyMode> = distinct(input.modes.iter().flatten().copied());
        Ok(Self {
            requested: JourneyRequested {
                time: when
                    .as_ref()
                    .map(|z| z.strftime("%Y-%m-%dT%H:%M:%S%:z").to_string()),
                time_zone: when.as_ref().map(|z| z.strftime("%Z").to_string()),
                time_is,
                modes,
                accessibility,
                via,
                walking_speed: input.walking_speed,
                max_walking_minutes: input.max_walking_minutes,
                journey_preference: input.journey_preference,
            },
            when,
        })
    }

    /// The Journey Planner query parameters these wishes become, in a fixed order.
    pub(crate) fn query(&self) -> Vec<(&'static str, String)> {
        let asked = &self.requested;
        let mut query = Vec::new();
        if let Some(when) = &self.when {
            query.push(("date", when.strftime("%Y%m%d").to_string()));
            query.push(("time", when.strftime("%H%M").to_string()));
            query.push(("timeIs", pascal(asked.time_is)));
        }
        if !asked.modes.is_empty() {
            query.push(("mode", joined(&asked.modes, |m| json_name(*m))));
        }
        if !asked.accessibility.is_empty() {
            query.push((
                "accessibilityPreference",
                joined(&asked.accessibility, |w| pascal(*w)),
            ));
        }
        if let Some(via) = &asked.via {
            query.push(("via", via.clone()));
        }
        if let Some(speed) = asked.walking_speed {
            query.push(("walkingSpeed", pascal(speed)));
        }
        if let Some(minutes) = asked.max_walking_minutes {
            query.push(("maxWalkingMinutes", minutes.to_string()));
        }
        if let Some(preference) = asked.journey_preference {
            query.push(("journeyPreference", pascal(preference)));
        }
        query
    }

    /// These wishes going through `via` instead (a picked `parameterValue`).
    pub(crate) fn via(mut self, via: Option<String>) -> Self {
        self.requested.via = via;
        self
    }
}

/// `text` (ISO 8601) as a London time: converted when it has an offset, read as London's
/// clock when it has none. A clock time London skips (the spring change) is refused; one
/// it has twice (the autumn change) is the first, BST.
fn london_time(text: &str) -> Result<Zoned, String> {
    let text = text.trim();
    let london = london();
    if let Ok(instant) = text.parse::<Timestamp>() {
        return Ok(instant.to_zoned(london));
    }
    let civil: DateTime = text.parse().map_err(|_| {
        format!(
            "Field 'time' must be an ISO 8601 time, e.g. 2026-12-05T09:00 (London time) or \
2026-12-05T09:00:00Z, not \"{text}\"."
        )
    })?;
    let ambiguous = london.to_ambiguous_zoned(civil);
    if let AmbiguousOffset::Gap { .. } = ambiguous.offset() {
        return Err(format!(
            "Field 'time': {text} does not exist in London: the clocks go forward an hour \
(GMT to BST) that night. Give a time after the change, or one with an offset."
        ));
    }
    ambiguous
        .earlier()
        .map_err(|error| format!("Field 'time': {error}"))
}

/// `values` in their first order, each once.
fn distinct<T: PartialEq>(values: impl Iterator<Item = T>) -> Vec<T> {
    let mut kept = Vec::new();
    for value in values {
        if !kept.contains(&value) {
            kept.push(value);
        }
    }
    kept
}

/// `value`'s JSON name (`stepFreeToVehicle`), as TfL writes it (`StepFreeToVehicle`).
fn pascal(value: impl Serialize) -> String {
    let name = json_name(value);
    let mut chars = name.chars();
    chars
        .next()
        .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// `value`'s JSON name (`elizabeth-line`).
fn json_name(value: impl Serialize) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// `items` as `name`s, comma-joined.
fn joined<T>(items: &[T], name: impl Fn(&T) -> String) -> String {
    items.iter().map(name).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tfl::plan_journey::choices::{JourneyPreference, WalkingSpeed};

    fn wishes(input: JourneyPlanRequest) -> Result<Wishes, String> {
        Wishes::of(&input)
    }

    fn at(time: &str) -> JourneyPlanRequest {
        JourneyPlanRequest {
            time: Some(time.into()),
            ..JourneyPlanRequest::new("Bank", "Angel")
        }
    }

    #[test]
    fn a_time_with_an_offset_is_london_time_on_both_sides_of_the_clock_change() {
        let summer = wishes(at("2026-07-01T08:00:00Z")).unwrap();
        assert_eq!(
            summer.query()[..2],
            [("date", "20260701".into()), ("time", "0900".into())]
        );
        assert_eq!(
            summer.requested.time.as_deref(),
            Some("2026-07-01T09:00:00+01:00")
        );
        assert_eq!(summer.requested.time_zone.as_deref(), Some("BST"));
        let winter = wishes(at("2026-12-05T09:00:00Z")).unwrap();
        assert_eq!(
            winter.query()[..3],
            [
                ("date", "20261205".into()),
                ("time", "0900".into()),
                ("timeIs", "Departing".into())
            ]
        );
        assert_eq!(winter.requested.time_zone.as_deref(), Some("GMT"));
        let paris = wishes(at("2026-07-01T10:00:00+02:00")).unwrap();
        assert_eq!(paris.query()[1], ("time", "0900".into()));
    }

    #[test]
    fn a_time_without_an_offset_is_read_on_londons_clock() {
        let local = wishes(at("2026-07-01T09:00")).unwrap();
        assert_eq!(local.query()[1], ("time", "0900".into()));
        let gap = wishes(at("2026-03-29T01:30")).unwrap_err();
        assert!(gap.contains("does not exist in London"), "{gap}");
        let twice = wishes(at("2026-10-25T01:30")).unwrap();
        assert_eq!(
            twice.requested.time.as_deref(),
            Some("2026-10-25T01:30:00+01:00")
        );
        let nonsense = wishes(at("nine tomorrow")).unwrap_err();
        assert!(nonsense.starts_with("Field 'time' must be an ISO 8601 time"));
    }

    #[test]
    fn lists_are_comma_joined_once_and_the_flag_joins_the_wishes() {
        let input = JourneyPlanRequest {
            modes: Some(vec![
                JourneyMode::Tube,
                JourneyMode::ElizabethLine,
                JourneyMode::Tube,
            ]),
            accessibility: Some(vec![AccessibilityWish::NoSolidStairs]),
            need_accessible_route: Some(true),
            walking_speed: Some(WalkingSpeed::Slow),
            max_walking_minutes: Some(10),
            journey_preference: Some(JourneyPreference::LeastWalking),
            via: Some(" Angel ".into()),
            ..JourneyPlanRequest::new("Bank", "Euston")
        };
        let query = wishes(input).unwrap().query();
        assert_eq!(
            query,
            [
                ("mode", "tube,elizabeth-line".into()),
                (
                    "accessibilityPreference",
                    "NoSolidStairs,StepFreeToVehicle".into()
                ),
                ("via", "Angel".into()),
                ("walkingSpeed", "Slow".into()),
                ("maxWalkingMinutes", "10".into()),
                ("journeyPreference", "LeastWalking".into()),
            ]
        );
        let flag_only = wishes(JourneyPlanRequest::new("a", "b").accessible(true)).unwrap();
        assert_eq!(
            flag_only.query(),
            [("accessibilityPreference", "StepFreeToVehicle".into())]
        );
        assert!(
            wishes(JourneyPlanRequest::new("a", "b"))
                .unwrap()
                .query()
                .is_empty()
        );
    }

    #[test]
    fn wishes_that_cannot_be_asked_name_their_field() {
        let arriving_now = JourneyPlanRequest {
            time_is: Some(TimeIs::Arriving),
            ..JourneyPlanRequest::new("a", "b")
        };
        assert!(wishes(arriving_now).unwrap_err().contains("'timeIs'"));
        let long_walk = JourneyPlanRequest {
            max_walking_minutes: Some(121),
            ..JourneyPlanRequest::new("a", "b")
        };
        assert_eq!(
            wishes(long_walk).unwrap_err(),
            "Field 'maxWalkingMinutes' must be 0..120."
        );
        let blank_via = JourneyPlanRequest {
            via: Some("  ".into()),
            ..JourneyPlanRequest::new("a", "b")
        };
        assert_eq!(
            wishes(blank_via).unwrap_err(),
            "Field 'via' must not be blank."
        );
    }
}
