//! Times of a timetable's service day: TfL counts a day's departures from about 04:00 to
//! about 04:00 the next morning, the hours after midnight as 24, 25, … (`27:05`). A time
//! the caller gives (`HH:MM`) earlier than 04:00 means after midnight too.

/// Minutes in a day.
const DAY: u32 = 24 * 60;
/// Where a service day starts: a window's time before it is the next morning's.
const SERVICE_DAY_STARTS: u32 = 4 * 60;

/// The departures a call lists: service-day minutes from `after` to `before`, both in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Window {
    pub(super) after: u32,
    pub(super) before: u32,
}

impl Window {
    /// The window of `after` and `before` (`HH:MM`, either absent), `None` when both are, or
    /// which field is not a time.
    pub(super) fn of(after: Option<&str>, before: Option<&str>) -> Result<Option<Self>, String> {
        let after = after.map(|t| service_minutes("after", t)).transpose()?;
        let before = before.map(|t| service_minutes("before", t)).transpose()?;
        Ok(match (after, before) {
            (None, None) => None,
            (Some(after), None) => Some(Self {
                after,
                before: u32::MAX,
            }),
            (None, Some(before)) => Some(Self { after: 0, before }),
            (Some(after), Some(before)) => Some(Self {
                after,
                before: if before < after { before + DAY } else { before },
            }),
        })
    }

    /// Whether a departure at service-day minute `at` is inside.
    pub(super) fn holds(self, at: u32) -> bool {
        (self.after..=self.before).contains(&at)
    }
}

/// `text` (`HH:MM`, or `H:MM`) as minutes of the service day, or the error naming `field`.
fn service_minutes(field: &str, text: &str) -> Result<u32, String> {
    let invalid = || {
        format!(
            "Field '{field}' must be a London time as HH:MM (e.g. 23:30), not \"{}\".",
            crate::tfl::upstream::clip(text, 40)
        )
    };
    let (hours, minutes) = text.trim().split_once(':').ok_or_else(invalid)?;
    let digits = |s: &str, len: std::ops::RangeInclusive<usize>| {
        (len.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u32>().ok())
            .flatten()
    };
    let (Some(hours), Some(minutes)) = (digits(hours, 1..=2), digits(minutes, 2..=2)) else {
        return Err(invalid());
    };
    if hours > 23 || minutes > 59 {
        return Err(invalid());
    }
    let at = hours * 60 + minutes;
    Ok(if at < SERVICE_DAY_STARTS {
        at + DAY
    } else {
        at
    })
}

/// A service-day minute as the clock shows it (`HH:MM`), and whether it is the next day.
pub(super) fn clock(at: u32) -> (String, bool) {
    let next_day = at >= DAY;
    let at = at % DAY;
    (format!("{:02}:{:02}", at / 60, at % 60), next_day)
}

#[cfg(test)]
mod tests {
    use super::{Window, clock};

    #[test]
    fn hours_of_24_and_more_are_the_next_mornings_clock() {
        assert_eq!(clock(27 * 60 + 5), ("03:05".to_owned(), true));
        assert_eq!(clock(24 * 60), ("00:00".to_owned(), true));
        assert_eq!(clock(5 * 60 + 28), ("05:28".to_owned(), false));
    }

    #[test]
    fn a_window_past_midnight_runs_into_the_next_morning() {
        let window = Window::of(Some("23:00"), Some("01:00")).unwrap().unwrap();
        assert_eq!((window.after, window.before), (23 * 60, 25 * 60));
        assert!(window.holds(24 * 60 + 30));
        assert!(!window.holds(22 * 60 + 59));
        let early = Window::of(Some("00:15"), None).unwrap().unwrap();
        assert_eq!(early.after, 24 * 60 + 15);
        assert!(!early.holds(23 * 60));
        let evening = Window::of(Some("18:00"), Some("17:00")).unwrap().unwrap();
        assert_eq!(evening.before, 17 * 60 + 24 * 60);
    }

    #[test]
    fn a_time_that_is_not_hh_mm_names_its_field() {
        for bad in ["9", "24:00", "12:60", "ab:cd", "12:5", "123:00", "+1:00"] {
            let error = Window::of(None, Some(bad)).unwrap_err();
            assert!(
                error.starts_with("Field 'before' must be"),
                "{bad}: {error}"
            );
        }
        assert_eq!(Window::of(None, None), Ok(None));
    }
}
