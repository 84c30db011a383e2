//! The transit modes a traveller picks from (OTP's `TransitMode`, the ones Finland runs):
//! `plan_trip` routes on them, `get_departures` keeps the departures of them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::response::Failure;

/// A transit mode a traveller may pick (OTP's `TransitMode`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "UPPERCASE")]
#[allow(missing_docs)]
pub enum TransitMode {
    Bus,
    Tram,
    Rail,
    // The metro: `METRO`, the name the answers give it, is read as `SUBWAY` too.
    #[serde(alias = "METRO")]
    Subway,
    Ferry,
}

impl TransitMode {
    /// OTP's name of the mode.
    pub fn otp_name(self) -> &'static str {
        match self {
            Self::Bus => "BUS",
            Self::Tram => "TRAM",
            Self::Rail => "RAIL",
            Self::Subway => "SUBWAY",
            Self::Ferry => "FERRY",
        }
    }

    /// Whether a departure or leg of this contract `mode` (`contract_mode`'s names: METRO for
    /// SUBWAY, BUS for a coach or trolleybus) is of this mode.
    pub fn serves(self, mode: &str) -> bool {
        match self {
            Self::Subway => mode == "METRO",
            other => mode == other.otp_name(),
        }
    }
}

/// The modes asked for, once each in a fixed order (so equal wishes share an upstream
/// answer); an empty list is refused.
pub(crate) fn checked_modes(
    field: &str,
    modes: Option<Vec<TransitMode>>,
) -> Result<Option<Vec<TransitMode>>, Failure> {
    let Some(mut modes) = modes else {
        return Ok(None);
    };
    if modes.is_empty() {
        return Err(Failure::validation(format!(
            "{field} must name at least one of BUS, TRAM, RAIL, SUBWAY, FERRY (or leave it out \
             for every mode)."
        )));
    }
    modes.sort_unstable();
    modes.dedup();
    Ok(Some(modes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_are_kept_once_in_order_and_an_empty_list_is_refused() {
        use TransitMode::*;
        let modes = checked_modes("m", Some(vec![Ferry, Bus, Ferry])).unwrap();
        assert_eq!(modes, Some(vec![Bus, Ferry]));
        assert_eq!(checked_modes("m", None).unwrap(), None);
        let refused = checked_modes("constraints.modes", Some(vec![])).unwrap_err();
        assert!(
            refused.message.contains("constraints.modes"),
            "{}",
            refused.message
        );
    }

    #[test]
    fn the_metro_is_served_by_subway_and_coaches_run_as_buses() {
        assert!(TransitMode::Subway.serves("METRO"));
        assert!(TransitMode::Bus.serves("BUS"));
        assert!(!TransitMode::Bus.serves("TRAM"));
    }
}
