//! Saved places and preferences: request and response types of `save_user_variable` and
//! `get_user_variables`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What a saved variable holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "lowercase")]
pub enum UserVariableType {
    /// A place (`value` is a location object); `plan_trip` and `get_departures` resolve it
    /// by its key.
    Location,
    /// A preference (`value` is text), e.g. `preferred_mode` = `TRAM`.
    Preference,
    /// Anything else worth remembering (`value` is text).
    Other,
}

impl UserVariableType {
    /// The type as stored and shown: `location`, `preference`, `other`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Location => "location",
            Self::Preference => "preference",
            Self::Other => "other",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Self> {
        [Self::Location, Self::Preference, Self::Other]
            .into_iter()
            .find(|t| t.as_str() == text)
    }
}

/// A saved place.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SavedLocation {
    /// Latitude.
    ///
    /// Latitude, -90..90.
    pub lat: f64,
    /// Longitude.
    ///
    /// Longitude, -180..180.
    pub lon: f64,
    /// The label.
    ///
    /// A short display label, e.g. "Home".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Its name.
    ///
    /// The place's name, e.g. "Kamppi".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Address.
    ///
    /// A one-line address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// The stop for departures here, e.g. `HSL:1040129`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_id: Option<String>,
}

/// A saved value: a location object, or text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(untagged)]
pub enum UserVariableValue {
    /// For `location`.
    Location(SavedLocation),
    /// Text, 1..500 characters.
    ///
    /// Text (for `type: preference` or `other`), 1..500 characters.
    Text(String),
}

/// `save_user_variable` arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct SaveUserVariableRequest {
    /// 1..50 characters, case-sensitive (`home`); saving again replaces it.
    ///
    /// The name to save under: 1..50 characters, case-sensitive, e.g. `home`. Saving an
    /// existing key replaces its value (the answer's `previous` says what it was).
    pub key: String,
    /// The type.
    ///
    /// What the value is.
    pub r#type: UserVariableType,
    /// The value.
    ///
    /// A place for `location`; text otherwise.
    ///
    /// A location object `{lat, lon, label?, name?, address?, stopId?}` for
    /// `type: location`; text for `preference` and `other`.
    pub value: UserVariableValue,
}

/// A saved variable.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct UserVariable {
    /// Its key.
    pub key: String,
    /// What its value is.
    pub r#type: UserVariableType,
    /// The value.
    pub value: UserVariableValue,
    /// When it was first saved (ISO 8601 UTC).
    pub created_at: String,
    /// When it was last saved (ISO 8601 UTC).
    pub updated_at: String,
}

/// What a key held before it was replaced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct PreviousVariable {
    /// The key.
    pub key: String,
    /// Its type before.
    pub r#type: UserVariableType,
}

/// `save_user_variable` success body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct SaveUserVariableResult {
    /// The answer in words: what was saved under which key, and what it replaced.
    pub message: String,
    /// The variable as saved.
    pub variable: UserVariable,
    /// Present when the key existed before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous: Option<PreviousVariable>,
    /// The call's correlation id (UUID).
    pub correlation_id: String,
}

/// `get_user_variables` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct GetUserVariablesRequest {
    /// Only this type.
    ///
    /// Only variables of this type (all when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r#type: Option<UserVariableType>,
}

/// `get_user_variables` success body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct GetUserVariablesResult {
    /// The answer in words: how many are saved, and their keys.
    pub message: String,
    /// Every saved variable (of the type asked for), by key.
    pub variables: Vec<UserVariable>,
    /// The call's correlation id (UUID).
    pub correlation_id: String,
}
