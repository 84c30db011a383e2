//! Time in Finland: instants as ISO 8601 with the Europe/Helsinki offset, OTP's ISO
//! durations (`PT10M`, `-PT1M30S`), and the clock.

use jiff::tz::TimeZone;
use jiff::{Timestamp, Zoned};

/// Europe/Helsinki (bundled tz data: no system tzdata needed).
pub(crate) fn helsinki() -> TimeZone {
    TimeZone::get("Europe/Helsinki").unwrap_or(TimeZone::UTC)
}

/// `ts` as ISO 8601 in Helsinki time with its offset, e.g. `2021-06-29T17:13:00+03:00`.
pub(crate) fn helsinki_iso(ts: Timestamp) -> String {
    ts.to_zoned(helsinki())
        .strftime("%Y-%m-%dT%H:%M:%S%:z")
        .to_string()
}

/// Parses a time argument: ISO 8601 with an offset (`2024-06-13T14:30:00+03:00`,
/// `…Z`), or a local time without one, read as Helsinki time.
pub(crate) fn parse_time_argument(text: &str) -> Option<Timestamp> {
    let text = text.trim();
    if let Ok(ts) = text.parse::<Timestamp>() {
        return Some(ts);
    }
    let civil = text.parse::<jiff::civil::DateTime>().ok()?;
    civil
        .to_zoned(helsinki())
        .ok()
        .map(|z: Zoned| z.timestamp())
}

/// Parses an OTP OffsetDateTime (`2021-06-29T17:13:00+03:00`).
pub(crate) fn parse_offset_time(text: &str) -> Option<Timestamp> {
    text.parse::<Timestamp>().ok()
}

/// Seconds of an ISO 8601 duration as OTP writes a delay: `PT10M`, `-PT1M30S`, `PT0S`.
pub(crate) fn duration_seconds(text: &str) -> Option<i64> {
    let span: jiff::Span = text.trim().parse().ok()?;
    let total = span
        .total(jiff::SpanTotal::from(jiff::Unit::Second).days_are_24_hours())
        .ok()?;
    Some(total.round() as i64)
}

/// The current instant.
pub(crate) fn now() -> Timestamp {
    Timestamp::now()
}

/// When the upstream answers the current call used were fetched (the oldest of them: a
/// cached answer keeps the time it was fetched), or now when it used none.
pub(crate) fn fetched_at() -> Timestamp {
    crate::http::oldest_fetch()
        .and_then(|at| Timestamp::try_from(at).ok())
        .unwrap_or_else(now)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_keep_their_sign() {
        assert_eq!(duration_seconds("PT10M"), Some(600));
        assert_eq!(duration_seconds("-PT1M30S"), Some(-90));
        assert_eq!(duration_seconds("PT0S"), Some(0));
        assert_eq!(duration_seconds("PT6M"), Some(360));
        assert_eq!(duration_seconds("soon"), None);
    }

    #[test]
    fn helsinki_offsets_follow_the_season() {
        let summer = parse_offset_time("2021-06-29T17:13:00+03:00").unwrap();
        assert_eq!(helsinki_iso(summer), "2021-06-29T17:13:00+03:00");
        let winter = parse_time_argument("2024-01-10T08:00:00").unwrap();
        assert_eq!(helsinki_iso(winter), "2024-01-10T08:00:00+02:00");
        assert_eq!(
            helsinki_iso(parse_time_argument("2024-01-10T06:00:00Z").unwrap()),
            "2024-01-10T08:00:00+02:00"
        );
        assert!(parse_time_argument("tomorrow").is_none());
    }
}
