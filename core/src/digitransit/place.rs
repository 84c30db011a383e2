//! Types every Digitransit tool shares: coordinates (with range checks and distances)
//! and the answer language.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::response::{Failure, Warning, WarningCode};

/// A WGS 84 point.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct Coordinate {
    /// Latitude.
    ///
    /// Latitude, -90..90.
    pub lat: f64,
    /// Longitude.
    ///
    /// Longitude, -180..180.
    pub lon: f64,
}

impl Coordinate {
    /// A point at `lat`, `lon`.
    pub fn new(lat: f64, lon: f64) -> Self {
        Self { lat, lon }
    }

    /// Checks the ranges; `field` names the argument in the error.
    pub(crate) fn validate(&self, field: &str) -> Result<(), Failure> {
        if !(self.lat.is_finite() && (-90.0..=90.0).contains(&self.lat)) {
            return Err(Failure::validation(format!(
                "{field}.lat must be between -90 and 90."
            )));
        }
        if !(self.lon.is_finite() && (-180.0..=180.0).contains(&self.lon)) {
            return Err(Failure::validation(format!(
                "{field}.lon must be between -180 and 180."
            )));
        }
        Ok(())
    }

    /// Great-circle distance to `other` in metres (haversine, mean Earth radius).
    pub fn distance_m(&self, other: &Coordinate) -> f64 {
        crate::geo::distance_m((self.lat, self.lon), (other.lat, other.lon))
    }
}

/// The language of names, labels and headsigns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// Finnish.
    Fi,
    /// Swedish.
    Sv,
    /// English (the default).
    #[default]
    En,
}

impl Language {
    /// The language code, as Pelias `lang` and OTP `Accept-Language` take it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Fi => "fi",
            Self::Sv => "sv",
            Self::En => "en",
        }
    }
}

/// Reads an argument written as a plain string (made into a value by `plain`) or as its
/// tagged object: a stop as `"HSL:1040129"`, a place as `"Kamppi"`. The argument's schema
/// says both forms (`StopInput`, `PlaceInput`).
pub(crate) fn plain_or_tagged<'de, D, T>(
    deserializer: D,
    plain: impl FnOnce(String) -> T,
) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    use serde::de::Error;
    match serde_json::Value::deserialize(deserializer)? {
        serde_json::Value::String(value) => Ok(plain(value)),
        other => T::deserialize(other).map_err(D::Error::custom),
    }
}

/// Checks that a free-text field is 1..=`max` characters after trimming, without control
/// characters; returns the trimmed text.
pub(crate) fn checked_text<'a>(field: &str, text: &'a str, max: usize) -> Result<&'a str, Failure> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(Failure::validation(format!("{field} must not be empty.")));
    }
    if trimmed.chars().count() > max {
        return Err(Failure::validation(format!(
            "{field} must be at most {max} characters."
        )));
    }
    if trimmed.chars().any(char::is_control) {
        return Err(Failure::validation(format!(
            "{field} must not contain control characters."
        )));
    }
    Ok(trimmed)
}

/// Checks that an optional integer argument is within `range`; returns it or `default`.
pub(crate) fn checked_range(
    field: &str,
    value: Option<i64>,
    range: std::ops::RangeInclusive<i64>,
    default: i64,
) -> Result<i64, Failure> {
    let value = value.unwrap_or(default);
    if range.contains(&value) {
        Ok(value)
    } else {
        Err(Failure::validation(format!(
            "{field} must be between {} and {}.",
            range.start(),
            range.end()
        )))
    }
}

/// A checked `maxResults`: the number asked for, at least 1, and the most a tool returns.
pub(crate) struct MaxResults {
    asked: i64,
    max: i64,
}

impl MaxResults {
    /// Checks `asked` (default `default`): below 1 is a `validation-error`.
    pub fn checked(asked: Option<i64>, default: i64, max: i64) -> Result<Self, Failure> {
        let asked = asked.unwrap_or(default);
        if asked < 1 {
            return Err(Failure::validation(format!(
                "maxResults must be at least 1 (at most {max} are returned)."
            )));
        }
        Ok(Self { asked, max })
    }

    /// How many are returned: the number asked for, capped at the most.
    pub fn limit(&self) -> usize {
        self.asked.min(self.max) as usize
    }

    /// The `truncated-results` warning when more were asked for than are ever returned.
    pub fn capped(&self) -> Option<Warning> {
        (self.asked > self.max).then(|| {
            Warning::new(
                WarningCode::TruncatedResults,
                format!("maxResults {} was capped at {}.", self.asked, self.max),
            )
        })
    }
}

/// An OTP `Route` as the routing queries select it.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OtpRoute {
    pub short_name: Option<String>,
    pub long_name: Option<String>,
    pub mode: Option<String>,
}

impl OtpRoute {
    /// The line as riders know it: the short name, else the long name.
    pub fn line(&self) -> Option<String> {
        self.short_name.clone().or_else(|| self.long_name.clone())
    }
}

/// Maps an OTP mode to the contracts' names: SUBWAY → METRO, BICYCLE → BIKE,
/// COACH / TROLLEYBUS → BUS; the rest pass through.
pub(crate) fn contract_mode(otp_mode: &str) -> String {
    match otp_mode {
        "SUBWAY" => "METRO",
        "BICYCLE" => "BIKE",
        "COACH" | "TROLLEYBUS" => "BUS",
        other => other,
    }
    .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_are_haversine_metres() {
        let kamppi = Coordinate::new(60.169018, 24.932362);
        let rautatientori = Coordinate::new(60.170384, 24.939846);
        let d = kamppi.distance_m(&rautatientori);
        assert!((d - 438.0).abs() < 5.0, "{d}");
        assert_eq!(kamppi.distance_m(&kamppi), 0.0);
    }

    #[test]
    fn ranges_and_text_are_checked() {
        assert!(Coordinate::new(90.0, -180.0).validate("x").is_ok());
        assert!(Coordinate::new(90.1, 0.0).validate("x").is_err());
        assert!(Coordinate::new(0.0, f64::NAN).validate("x").is_err());
        assert_eq!(checked_text("text", "  a b ", 3).unwrap(), "a b");
        assert!(checked_text("text", "   ", 3).is_err());
        assert!(checked_text("text", "abcd", 3).is_err());
        assert!(checked_text("text", "a\u{1}", 3).is_err());
        assert_eq!(checked_range("n", None, 1..=3, 2).unwrap(), 2);
        assert!(checked_range("n", Some(0), 1..=3, 2).is_err());
        assert_eq!(contract_mode("SUBWAY"), "METRO");
        assert_eq!(contract_mode("TRAM"), "TRAM");
    }
}
