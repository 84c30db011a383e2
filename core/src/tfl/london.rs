//! London's time zone, shared by the TfL tools that read or write London's clock.

use jiff::tz::TimeZone;

/// London's time zone, from the tz database built in (no system files needed), read once:
/// a lookup parses the zone's rules again.
pub(crate) fn london() -> TimeZone {
    static LONDON: std::sync::LazyLock<TimeZone> =
        std::sync::LazyLock::new(|| TimeZone::get("Europe/London").unwrap_or(TimeZone::UTC));
    LONDON.clone()
}
