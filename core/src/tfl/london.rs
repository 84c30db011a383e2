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
}
