//! A crowding answer from TfL's figures: the live figure against the typical one for the
//! same day and quarter hour, the typical day asked for with its quietest quarter hours, and
//! all of it in words.

use super::types::{
    Busyness, CrowdingResponse, CrowdingStation, LiveCrowding, TimeBand, TypicalDay, Weekday,
};
use super::wire::{Day, LiveBody, Week};
use crate::tfl::TflCode;
use crate::tfl::london::london_iso_of_utc;

/// A live figure this much above or below the usual one is `busier` or `quieter`.
const USUAL_WITHIN: f64 = 0.15;
/// Where there is usually no crowd, a live figure above this is `busier`.
const NO_CROWD: f64 = 0.05;
/// The quietest quarter hours are looked for from this minute of the day…
const QUIET_FROM: u32 = 6 * 60;
/// …to this one: the hours people travel in.
const QUIET_UNTIL: u32 = 22 * 60;
/// How many quietest quarter hours are given.
const QUIETEST: usize = 3;

/// The answer for `station`: `live` (when TfL answered it), the typical `week`, and the day
/// asked for (else the live figure's day, else `today`).
pub(super) fn answer(
    station: CrowdingStation,
    live: Option<&LiveBody>,
    week: &Week,
    asked: Option<Weekday>,
    quarter_hours: bool,
    today: Weekday,
) -> CrowdingResponse {
    let measured = live
        .filter(|l| l.data_available == Some(true))
        .and_then(|l| Some((l, l.percentage_of_baseline?)));
    let moment = measured.and_then(|(l, _)| london_moment(l.time_local.as_deref()?));
    let day = asked.or(moment.map(|(day, _)| day)).unwrap_or(today);
    let typical = week
        .days
        .iter()
        .find(|d| d.day == day)
        .map(|d| typical(d, week, quarter_hours));
    let now = moment.and_then(|(live_day, minute)| {
        let band = week
            .days
            .iter()
            .find(|d| d.day == live_day)?
            .bands
            .iter()
            .find(|b| band_start(&b.time_band) == Some(minute - minute % 15))?;
        Some((live_day, band))
    });
    let live = LiveCrowding {
        data_available: measured.is_some(),
        percentage_of_baseline: measured.map(|(_, value)| value),
        time: measured.and_then(|(l, _)| l.time_utc.as_deref().map(london_iso_of_utc)),
        time_band: now.map(|(_, band)| band.time_band.clone()),
        usual: now.map(|(_, band)| band.percentage_of_baseline),
        compared_with_usual: now
            .zip(measured)
            .map(|((_, band), (_, value))| compare(value, band.percentage_of_baseline)),
    };
    let message = words(
        &station.name,
        &live,
        moment.map(|(_, minute)| minute),
        now.map(|(d, _)| d),
        typical.as_ref(),
        week,
    );
    CrowdingResponse {
        served: None,
        success: true,
        code: TflCode::Ok,
        message,
        station: Some(station),
        live: Some(live),
        typical_day: typical,
        stop_disambiguation: None,
    }
}

/// The typical `day` by hour (and by quarter hour when asked), with its quietest times.
fn typical(day: &Day, week: &Week, quarter_hours: bool) -> TypicalDay {
    TypicalDay {
        day: day.day,
        am_peak_time_band: day.am_peak.clone(),
        pm_peak_time_band: day.pm_peak.clone(),
        is_always_quiet: week.always_quiet,
        time_bands: quarter_hours.then(|| day.bands.clone()),
        hourly: hourly(&day.bands),
        quietest: joined(&quietest(&day.bands)),
    }
}

/// The mean figure of each hour's quarter hours, from 00:00, to 2 decimals (0 for an hour
/// TfL gives no quarter hour of).
fn hourly(bands: &[TimeBand]) -> Vec<f64> {
    let mut sums = [(0.0_f64, 0_u32); 24];
    for band in bands {
        if let Some(start) = band_start(&band.time_band).filter(|s| *s < 24 * 60) {
            let hour = &mut sums[(start / 60) as usize];
            hour.0 += band.percentage_of_baseline;
            hour.1 += 1;
        }
    }
    sums.iter()
        .map(|(sum, count)| match count {
            0 => 0.0,
            n => (sum / f64::from(*n) * 100.0).round() / 100.0,
        })
        .collect()
}

/// Quarter hours (`HH:MM-HH:MM`, in the day's order) with each run of adjacent ones joined
/// into one range: `06:00-06:15`, `06:15-06:30` → `06:00-06:30`.
fn joined(bands: &[String]) -> Vec<String> {
    let mut ranges: Vec<String> = Vec::new();
    for band in bands {
        let Some((start, end)) = band.split_once('-') else {
            ranges.push(band.clone());
            continue;
        };
        match ranges.last_mut() {
            Some(last) if last.ends_with(&format!("-{start}")) => {
                let from = last.split_once('-').map_or("", |(from, _)| from).to_owned();
                *last = format!("{from}-{end}");
            }
            _ => ranges.push(band.clone()),
        }
    }
    ranges
}

/// The [`QUIETEST`] quietest quarter hours between [`QUIET_FROM`] and [`QUIET_UNTIL`]: the
/// lowest figures, the earlier first among equals, then in the day's order.
fn quietest(bands: &[TimeBand]) -> Vec<String> {
    let mut open: Vec<(u32, &TimeBand)> = bands
        .iter()
        .filter_map(|b| Some((band_start(&b.time_band)?, b)))
        .filter(|(start, _)| (QUIET_FROM..QUIET_UNTIL).contains(start))
        .collect();
    open.sort_by(|(sa, a), (sb, b)| {
        a.percentage_of_baseline
            .total_cmp(&b.percentage_of_baseline)
            .then(sa.cmp(sb))
    });
    open.truncate(QUIETEST);
    open.sort_by_key(|(start, _)| *start);
    open.into_iter().map(|(_, b)| b.time_band.clone()).collect()
}

/// The live figure against the usual one.
fn compare(live: f64, usual: f64) -> Busyness {
    if usual <= 0.0 {
        return if live > NO_CROWD {
            Busyness::Busier
        } else {
            Busyness::Usual
        };
    }
    let ratio = live / usual;
    if ratio > 1.0 + USUAL_WITHIN {
        Busyness::Busier
    } else if ratio < 1.0 - USUAL_WITHIN {
        Busyness::Quieter
    } else {
        Busyness::Usual
    }
}

/// The minute of the day a quarter hour (`HH:MM-HH:MM`) starts at.
fn band_start(band: &str) -> Option<u32> {
    let (hours, minutes) = band.get(..5)?.split_once(':')?;
    Some(hours.parse::<u32>().ok()? * 60 + minutes.parse::<u32>().ok()?)
}

/// The day of the week and the minute of the day of TfL's `timeLocal`
/// (`2026-10-06 22:01:00`, London's clock).
fn london_moment(local: &str) -> Option<(Weekday, u32)> {
    let at: jiff::civil::DateTime = local.trim().replacen(' ', "T", 1).parse().ok()?;
    let minute = u32::try_from(i32::from(at.hour()) * 60 + i32::from(at.minute())).ok()?;
    Some((weekday_of(at.date().weekday()), minute))
}

/// jiff's weekday as the contract's.
pub(super) fn weekday_of(day: jiff::civil::Weekday) -> Weekday {
    use jiff::civil::Weekday as J;
    match day {
        J::Monday => Weekday::Mon,
        J::Tuesday => Weekday::Tue,
        J::Wednesday => Weekday::Wed,
        J::Thursday => Weekday::Thu,
        J::Friday => Weekday::Fri,
        J::Saturday => Weekday::Sat,
        J::Sunday => Weekday::Sun,
    }
}

fn day_name(day: Weekday) -> &'static str {
    match day {
        Weekday::Mon => "Monday",
        Weekday::Tue => "Tuesday",
        Weekday::Wed => "Wednesday",
        Weekday::Thu => "Thursday",
        Weekday::Fri => "Friday",
        Weekday::Sat => "Saturday",
        Weekday::Sun => "Sunday",
    }
}

fn percent(value: f64) -> String {
    format!("{:.0} %", value * 100.0)
}

/// The answer in words: "King's Cross St. Pancras now (22:01): 21 % of its baseline, busier
/// than usual for a Tuesday at 22:00 (usually 14 %). …".
fn words(
    name: &str,
    live: &LiveCrowding,
    live_minute: Option<u32>,
    live_day: Option<Weekday>,
    typical: Option<&TypicalDay>,
    week: &Week,
) -> String {
    let mut said = Vec::new();
    match (live.percentage_of_baseline, live_day) {
        (Some(value), Some(day)) => {
            let clock = live_minute
                .map(|m| format!("{:02}:{:02}", m / 60, m % 60))
                .unwrap_or_default();
            let band = live
                .time_band
                .as_deref()
                .and_then(|b| b.get(..5))
                .unwrap_or("");
            let usual = live.usual.unwrap_or_default();
            let against = match live.compared_with_usual {
                Some(Busyness::Busier) => "busier than usual",
                Some(Busyness::Quieter) => "quieter than usual",
                _ => "about as busy as usual",
            };
            said.push(format!(
                "{name} now ({clock}): {} of its baseline, {against} for a {} at {band} \
(usually {}).",
                percent(value),
                day_name(day),
                percent(usual)
            ));
        }
        (Some(value), None) => {
            said.push(format!("{name} now: {} of its baseline.", percent(value)))
        }
        (None, _) => said.push(format!("TfL has no live figure for {name} now.")),
    }
    if week.always_quiet {
        said.push(format!("TfL says {name} is always quiet."));
    }
    if let Some(day) = typical {
        let peaks: Vec<&str> = [&day.am_peak_time_band, &day.pm_peak_time_band]
            .into_iter()
            .flatten()
            .map(String::as_str)
            .collect();
        if !peaks.is_empty() {
            said.push(format!(
                "A typical {} is busiest {}.",
                day_name(day.day),
                peaks.join(" and ")
            ));
        }
        if !day.quietest.is_empty() {
            said.push(format!(
                "Quietest on a {} between 06:00 and 22:00: {}.",
                day_name(day.day),
                day.quietest.join(", ")
            ));
        }
    } else {
        said.push("TfL has no typical profile for the day asked.".into());
    }
    said.push(
        "The figures compare the station with its own baseline (TfL's measure of its usual \
level), not with other stations, and are not head counts."
            .into(),
    );
    said.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn band(time_band: &str, value: f64) -> TimeBand {
        TimeBand {
            time_band: time_band.into(),
            percentage_of_baseline: value,
        }
    }

    #[test]
    fn busier_quieter_and_usual_are_within_fifteen_percent() {
        assert_eq!(compare(0.21, 0.14), Busyness::Busier);
        assert_eq!(compare(0.10, 0.14), Busyness::Quieter);
        assert_eq!(compare(0.15, 0.14), Busyness::Usual);
        assert_eq!(compare(0.2, 0.0), Busyness::Busier);
        assert_eq!(compare(0.01, 0.0), Busyness::Usual);
    }

    #[test]
    fn the_quietest_are_the_lowest_in_travel_hours_in_the_days_order() {
        let bands = [
            band("03:00-03:15", 0.0),
            band("06:00-06:15", 0.2),
            band("07:00-07:15", 0.1),
            band("12:00-12:15", 0.1),
            band("13:00-13:15", 0.3),
            band("21:45-22:00", 0.05),
            band("22:00-22:15", 0.0),
        ];
        assert_eq!(
            quietest(&bands),
            ["07:00-07:15", "12:00-12:15", "21:45-22:00"]
        );
    }

    #[test]
    fn adjacent_quarter_hours_are_one_range() {
        let bands: Vec<String> = ["06:00-06:15", "06:15-06:30", "06:30-06:45", "21:45-22:00"]
            .map(String::from)
            .to_vec();
        assert_eq!(joined(&bands), ["06:00-06:45", "21:45-22:00"]);
        assert_eq!(joined(&["23:45-00:00".to_owned()]), ["23:45-00:00"]);
    }

    #[test]
    fn an_hour_is_the_mean_of_its_quarter_hours() {
        let bands = [
            band("07:00-07:15", 0.1),
            band("07:15-07:30", 0.2),
            band("07:30-07:45", 0.3),
            band("07:45-08:00", 0.4),
            band("08:00-08:15", 0.123),
        ];
        let hours = hourly(&bands);
        assert_eq!(hours.len(), 24);
        assert_eq!(hours[7], 0.25);
        assert_eq!(hours[8], 0.12);
        assert_eq!(hours[0], 0.0);
    }

    #[test]
    fn tfls_local_time_is_a_day_and_a_minute() {
        assert_eq!(
            london_moment("2026-10-06 22:01:00"),
            Some((Weekday::Tue, 1321))
        );
        assert_eq!(london_moment("yesterday"), None);
        assert_eq!(band_start("22:00-22:15"), Some(1320));
    }
}
