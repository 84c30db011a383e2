//! TfL's crowding bodies as they come (not in TfL's Swagger file; recorded bodies in
//! `tests/fixtures/tfl/crowding/`): `/crowding/{naptan}/Live` (`percentageOfBaseline`, a
//! lower-case l) and `/crowding/{naptan}`, the typical week (`percentageOfBaseLine`, a capital
//! L), read leniently. The week is digested once per upstream answer: its days by name, each
//! quarter hour once.

use serde::Deserialize;

use super::types::{TimeBand, Weekday};
use crate::tfl::lenient;

/// `/crowding/{naptan}/Live`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct LiveBody {
    #[serde(default, deserialize_with = "lenient::boolean")]
    pub(super) data_available: Option<bool>,
    #[serde(default, deserialize_with = "lenient::float")]
    pub(super) percentage_of_baseline: Option<f64>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub(super) time_utc: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub(super) time_local: Option<String>,
}

/// `/crowding/{naptan}` as the tool reads it.
#[derive(Debug, Deserialize)]
#[serde(from = "WeekBody")]
pub(super) struct Week {
    /// TfL knows the station.
    pub(super) found: bool,
    pub(super) always_quiet: bool,
    pub(super) days: Vec<Day>,
}

/// One day of the typical week.
#[derive(Debug)]
pub(super) struct Day {
    pub(super) day: Weekday,
    pub(super) am_peak: Option<String>,
    pub(super) pm_peak: Option<String>,
    /// Each quarter hour once, in the day's order; a quarter hour TfL lists twice (it does,
    /// at some stations) has the mean of its figures.
    pub(super) bands: Vec<TimeBand>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct WeekBody {
    #[serde(default, deserialize_with = "lenient::list")]
    days_of_week: Vec<DayBody>,
    #[serde(default, deserialize_with = "lenient::boolean")]
    is_found: Option<bool>,
    #[serde(default, deserialize_with = "lenient::boolean")]
    is_always_quiet: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DayBody {
    #[serde(default, deserialize_with = "lenient::string")]
    day_of_week: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    am_peak_time_band: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pm_peak_time_band: Option<String>,
    #[serde(default, deserialize_with = "lenient::list")]
    time_bands: Vec<BandBody>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct BandBody {
    #[serde(default, deserialize_with = "lenient::string")]
    time_band: Option<String>,
    #[serde(
        default,
        rename = "percentageOfBaseLine",
        deserialize_with = "lenient::float"
    )]
    percentage_of_base_line: Option<f64>,
}

impl From<WeekBody> for Week {
    fn from(body: WeekBody) -> Self {
        let days: Vec<Day> = body
            .days_of_week
            .into_iter()
            .filter_map(|day| {
                Some(Day {
                    day: weekday(day.day_of_week.as_deref()?)?,
                    am_peak: day.am_peak_time_band,
                    pm_peak: day.pm_peak_time_band,
                    bands: once_each(day.time_bands),
                })
            })
            .collect();
        Self {
            found: body.is_found.unwrap_or(!days.is_empty()) && !days.is_empty(),
            always_quiet: body.is_always_quiet.unwrap_or(false),
            days,
        }
    }
}

/// TfL's day name (`TUE`, any case) as a [`Weekday`].
pub(super) fn weekday(name: &str) -> Option<Weekday> {
    Some(match name.trim().to_ascii_uppercase().as_str() {
        "MON" => Weekday::Mon,
        "TUE" => Weekday::Tue,
        "WED" => Weekday::Wed,
        "THU" => Weekday::Thu,
        "FRI" => Weekday::Fri,
        "SAT" => Weekday::Sat,
        "SUN" => Weekday::Sun,
        _ => return None,
    })
}

/// Each quarter hour once, in its first order: the figures of one listed twice averaged
/// (rounded to 2 places, as TfL gives them).
fn once_each(bands: Vec<BandBody>) -> Vec<TimeBand> {
    let mut kept: Vec<(String, f64, u32)> = Vec::with_capacity(bands.len());
    for band in bands {
        let (Some(name), Some(value)) = (band.time_band, band.percentage_of_base_line) else {
            continue;
        };
        match kept.iter_mut().find(|(n, _, _)| *n == name) {
            Some((_, sum, count)) => {
                *sum += value;
                *count += 1;
            }
            None => kept.push((name, value, 1)),
        }
    }
    kept.into_iter()
        .map(|(time_band, sum, count)| TimeBand {
            time_band,
            percentage_of_baseline: (sum / f64::from(count) * 100.0).round() / 100.0,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quarter_hour_listed_twice_is_kept_once_with_the_mean() {
        let week: Week = serde_json::from_str(
            r#"{"daysOfWeek":[{"dayOfWeek":"SAT","timeBands":[
                {"timeBand":"00:00-00:15","percentageOfBaseLine":0.06},
                {"timeBand":"00:00-00:15","percentageOfBaseLine":0.08},
                {"timeBand":"00:15-00:30","percentageOfBaseLine":0}]}],
                "isFound":true,"isAlwaysQuiet":false}"#,
        )
        .unwrap();
        let bands = &week.days[0].bands;
        assert_eq!(bands.len(), 2);
        assert_eq!(bands[0].percentage_of_baseline, 0.07);
        assert_eq!(bands[1].percentage_of_baseline, 0.0);
        assert!(week.found);
    }

    #[test]
    fn an_unknown_station_is_not_found_and_a_day_of_no_name_is_left_out() {
        let week: Week = serde_json::from_str(
            r#"{"naptan":"940GZZLUMMT","daysOfWeek":[],"isFound":false,"isAlwaysQuiet":false}"#,
        )
        .unwrap();
        assert!(!week.found);
        let week: Week =
            serde_json::from_str(r#"{"daysOfWeek":[{"dayOfWeek":"someday"}],"isFound":true}"#)
                .unwrap();
        assert!(week.days.is_empty() && !week.found);
    }
}
