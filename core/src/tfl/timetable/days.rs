//! Which of a timetable's kinds of day a call asks for: TfL names its schedules in words
//! ("Monday - Friday", "Saturdays and Public Holidays", "Friday Night"), and a traveller
//! asks about a day ("today", "saturday").

use jiff::civil::Weekday;

use crate::tfl::london::london;

/// The days of the week as TfL's schedule names write them, and their three-letter forms.
const WEEKDAYS: [(&str, Weekday); 7] = [
    ("monday", Weekday::Monday),
    ("tuesday", Weekday::Tuesday),
    ("wednesday", Weekday::Wednesday),
    ("thursday", Weekday::Thursday),
    ("friday", Weekday::Friday),
    ("saturday", Weekday::Saturday),
    ("sunday", Weekday::Sunday),
];

/// Hours after midnight that still belong to the day before: TfL's service day starts at
/// 04:00, so at 00:30 on a Saturday the last trains are Friday's.
const SERVICE_DAY_STARTS_HOUR: i64 = 4;

/// The day a call asks about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Day {
    /// One day: its weekday, and its date when the call said today or tomorrow.
    One(Weekday, Option<jiff::civil::Date>),
    /// Every kind of day TfL has.
    All,
}

impl Day {
    /// The day `text` names (`today`, `tomorrow`, a weekday or its first three letters,
    /// `all`; absent is today, London's service day), or why it names none.
    pub(super) fn of(text: Option<&str>) -> Result<Self, String> {
        let service_day = || {
            jiff::Zoned::now()
                .with_time_zone(london())
                .saturating_sub(jiff::SignedDuration::from_hours(SERVICE_DAY_STARTS_HOUR))
                .date()
        };
        let wanted = text.map(|t| t.trim().to_lowercase());
        match wanted.as_deref() {
            None | Some("today") => {
                let date = service_day();
                Ok(Self::One(date.weekday(), Some(date)))
            }
            Some("tomorrow") => {
                let date = service_day().tomorrow().map_err(|e| e.to_string())?;
                Ok(Self::One(date.weekday(), Some(date)))
            }
            Some("all") => Ok(Self::All),
            Some(other) => WEEKDAYS
                .iter()
                .find(|(name, _)| other.len() >= 3 && name.starts_with(other))
                .map(|(_, weekday)| Self::One(*weekday, None))
                .ok_or_else(|| {
                    format!(
                        "Field 'day' must be today, tomorrow, a day of the week or all, not \
\"{}\".",
                        crate::tfl::upstream::clip(other, 40)
                    )
                }),
        }
    }

    /// How the answer names the day: "Sunday 2026-12-06", "Saturday"; `None` for all.
    pub(super) fn said(self) -> Option<String> {
        match self {
            Self::One(weekday, Some(date)) => Some(format!("{} {date}", english(weekday))),
            Self::One(weekday, None) => Some(english(weekday).to_owned()),
            Self::All => None,
        }
    }

    /// Whether TfL's schedule `name` runs on this day. A name that mentions no day of the
    /// week ("Daily", a name TfL has not used before) runs on every day.
    pub(super) fn runs(self, name: &str) -> bool {
        let Self::One(weekday, _) = self else {
            return true;
        };
        let covered = weekdays_of(name);
        covered.is_empty() || covered.contains(&weekday)
    }
}

/// The weekday's English name.
fn english(weekday: Weekday) -> &'static str {
    [
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    ][usize::from(weekday.to_monday_zero_offset().unsigned_abs())]
}

/// The days of the week TfL's schedule name covers: each day it names ("Saturdays",
/// "Sun"), and every day of a range ("Monday - Friday", "Mon to Thu").
fn weekdays_of(name: &str) -> Vec<Weekday> {
    let lower = name.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .collect();
    let weekday = |word: &str| {
        WEEKDAYS
            .iter()
            .find(|(full, _)| {
                word.len() >= 3 && (full.starts_with(word) || word.trim_end_matches('s') == *full)
            })
            .map(|(_, day)| *day)
    };
    let mut days = Vec::new();
    let mut index = 0;
    while index < words.len() {
        let Some(day) = weekday(words[index]) else {
            index += 1;
            continue;
        };
        let range_end = match words.get(index + 1) {
            Some(&"to" | &"until") => words.get(index + 2).and_then(|w| weekday(w)),
            _ if lower.contains(" - ") || lower.contains('-') => {
                words.get(index + 1).and_then(|w| weekday(w))
            }
            _ => None,
        };
        match range_end {
            Some(end) => {
                let mut at = day;
                loop {
                    days.push(at);
                    if at == end {
                        break;
                    }
                    at = at.next();
                }
                index += if matches!(words.get(index + 1), Some(&"to" | &"until")) {
                    3
                } else {
                    2
                };
            }
            None => {
                days.push(day);
                index += 1;
            }
        }
    }
    days
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tfls_schedule_names_cover_their_days() {
        use Weekday::*;
        assert_eq!(
            weekdays_of("Monday - Friday"),
            [Monday, Tuesday, Wednesday, Thursday, Friday]
        );
        assert_eq!(weekdays_of("Saturdays and Public Holidays"), [Saturday]);
        assert_eq!(weekdays_of("Sunday"), [Sunday]);
        assert_eq!(
            weekdays_of("Mon to Thu"),
            [Monday, Tuesday, Wednesday, Thursday]
        );
        assert_eq!(weekdays_of("Friday Night"), [Friday]);
        assert_eq!(weekdays_of("Saturday & Sunday"), [Saturday, Sunday]);
        assert!(weekdays_of("Daily").is_empty());
    }

    #[test]
    fn a_day_is_a_weekday_today_tomorrow_or_all() {
        let saturday = Day::of(Some(" Sat ")).unwrap();
        assert_eq!(saturday, Day::One(Weekday::Saturday, None));
        assert!(saturday.runs("Saturdays and Public Holidays"));
        assert!(!saturday.runs("Monday - Friday"));
        assert!(saturday.runs("Daily"));
        assert_eq!(saturday.said().as_deref(), Some("Saturday"));
        assert!(Day::All.runs("Monday - Friday") && Day::All.said().is_none());
        let Day::One(today, Some(date)) = Day::of(None).unwrap() else {
            panic!("today has a date");
        };
        assert_eq!(date.weekday(), today);
        let Day::One(_, Some(next)) = Day::of(Some("tomorrow")).unwrap() else {
            panic!("tomorrow has a date");
        };
        assert_eq!(next, date.tomorrow().unwrap());
        assert!(
            Day::of(Some("someday"))
                .unwrap_err()
                .contains("Field 'day' must be")
        );
        assert!(Day::of(Some("su")).is_err(), "two letters name no day");
    }
}
