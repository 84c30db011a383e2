//! The values `planJourney`'s planning wishes take, as TfL names them
//! (`/Journey/Meta/Modes`, `accessibilityPreference`, `walkingSpeed`, `journeyPreference`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Whether `time` is when to leave or when to be there.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "lowercase")]
pub enum TimeIs {
    /// Leave at `time` (the default).
    #[default]
    Departing,
    /// Be there by `time`.
    Arriving,
}

/// A TfL mode a journey may use (`/Journey/Meta/Modes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "kebab-case")]
#[allow(missing_docs)]
pub enum JourneyMode {
    Tube,
    Bus,
    Dlr,
    Overground,
    ElizabethLine,
    NationalRail,
    Tram,
    RiverBus,
    CableCar,
    Coach,
    Walking,
    Cycle,
}

/// A step-free wish, as TfL's `accessibilityPreference` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "camelCase")]
pub enum AccessibilityWish {
    /// No fixed stairs.
    NoSolidStairs,
    /// No escalators.
    NoEscalators,
    /// No lifts.
    NoElevators,
    /// Step-free from street to vehicle.
    StepFreeToVehicle,
    /// Step-free from street to platform.
    StepFreeToPlatform,
}

pub use crate::walking_speed::WalkingSpeed;

/// What the planner puts first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "camelCase")]
pub enum JourneyPreference {
    /// The fastest.
    LeastTime,
    /// The fewest changes.
    LeastInterchange,
    /// The least walking.
    LeastWalking,
}

/// Most minutes of walking a journey may ask for.
pub const MAX_WALKING_MINUTES: u32 = 120;
