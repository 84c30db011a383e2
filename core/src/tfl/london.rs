//! London's time zone, shared by the TfL tools that read or write London's clock.

use jiff::tz::TimeZone;

/// London's time zone, from the tz database built in (no system files needed), read once:
/// a lookup parses the zone's rules again.
pub(crate) fn london() -> TimeZone {
    static LONDON: std::sync::LazyLock<TimeZone> =
        std::sync::LazyLock::new(|| TimeZone::get("Europe/London").unwrap_or(TimeZone::UTC));
    LONDON.clone()
}

/// An instant as London's clock shows it, with its UTC offset
/// (`2026-04-23T14:02:31+01:00` in summer, `…+00:00` in winter): how every TfL answer
/// writes a time a person reads.
pub(crate) fn london_iso(at: jiff::Timestamp) -> String {
    at.to_zoned(london())
        .strftime("%Y-%m-%dT%H:%M:%S%:z")
        .to_string()
}

/// TfL's UTC time text (`2026-04-23T13:02:31Z`, fractions allowed) as [`london_iso`]; text
/// that is not a UTC time is kept as it is.
pub(crate) fn london_iso_of_utc(text: &str) -> String {
    text.parse::<jiff::Timestamp>()
        .map(london_iso)
        .unwrap_or_else(|_| text.to_owned())
}

/// TfL's London clock text without an offset (`2015-10-21T16:27:00`, as the journey
/// planner writes it) as [`london_iso`]: the offset of that moment in London (in the hour
/// the clocks go back, the earlier one). Text that is not such a time is kept as it is.
pub(crate) fn london_iso_of_local(text: &str) -> String {
    text.parse::<jiff::civil::DateTime>()
        .ok()
        .and_then(|local| local.to_zoned(london()).ok())
        .map_or_else(
            || text.to_owned(),
            |zoned| zoned.strftime("%Y-%m-%dT%H:%M:%S%:z").to_string(),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn london_time_carries_the_offset_of_its_season() {
        assert_eq!(
            london_iso_of_utc("2026-04-23T13:02:31Z"),
            "2026-04-23T14:02:31+01:00"
        );
        assert_eq!(
            london_iso_of_utc("2026-12-06T09:15:00.123Z"),
            "2026-12-06T09:15:00+00:00"
        );
        assert_eq!(london_iso_of_utc("soon"), "soon");
    }

    #[test]
    fn a_london_clock_time_gains_the_offset_of_its_season() {
        assert_eq!(
            london_iso_of_local("2015-10-21T16:27:00"),
            "2015-10-21T16:27:00+01:00",
            "BST"
        );
        assert_eq!(
            london_iso_of_local("2026-12-06T09:15:00"),
            "2026-12-06T09:15:00+00:00",
            "GMT"
        );
        assert_eq!(
            london_iso_of_local("2026-10-25T01:30:00"),
            "2026-10-25T01:30:00+01:00",
            "the hour the clocks go back: the first of the two"
        );
        assert_eq!(
            london_iso_of_local("2026-10-25T01:30:00+01:00"),
            "2026-10-25T01:30:00+01:00"
        );
    }
}
