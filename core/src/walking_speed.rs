//! How fast a traveller walks: one choice that every journey planner takes (TfL's
//! `walkingSpeed`, OTP's `preferences.street.walk.speed`), defined once so each surface
//! has one type for it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How fast the traveller walks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
pub enum WalkingSpeed {
    Slow,
    Average,
    Fast,
}

impl WalkingSpeed {
    /// Metres a second, as digitransit-ui offers them around its 1.2 m/s default:
    /// 3.5 km/h, 4.3 km/h and 6 km/h.
    pub fn metres_per_second(self) -> f64 {
        match self {
            Self::Slow => 0.97,
            Self::Average => 1.2,
            Self::Fast => 1.67,
        }
    }
}
