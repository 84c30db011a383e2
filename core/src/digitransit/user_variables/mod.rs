//! `save_user_variable` and `get_user_variables`: saved places and preferences, kept in
//! SQLite so they survive restarts. Each caller has its own: a caller never reads,
//! lists, overwrites or resolves another's. `plan_trip` and `get_departures` resolve a saved
//! location by its key (`{"type": "label", "value": "home"}`).

pub(crate) mod store;
mod types;

pub use store::DATABASE_FILE;
pub use types::{
    GetUserVariablesRequest, GetUserVariablesResult, PreviousVariable, SaveUserVariableRequest,
    SaveUserVariableResult, SavedLocation, UserVariable, UserVariableType, UserVariableValue,
};

use super::place::{Coordinate, checked_text};
use super::response::{DigitransitResponse, Failure};
use super::time;
use crate::Toolpack;
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

/// Longest key, in characters.
pub const MAX_KEY_CHARS: usize = 50;
/// Longest text value, in characters.
pub const MAX_TEXT_CHARS: usize = 500;
/// Longest `label`, `name`, `address` or `stopId` of a saved location, in characters.
pub const MAX_LOCATION_FIELD_CHARS: usize = 200;

/// The `save_user_variable` tool.
#[derive(Debug, Clone, Copy)]
pub struct SaveUserVariable;

crate::tool::offline_bodies!(SaveUserVariableResult);

impl Tool for SaveUserVariable {
    type Input = SaveUserVariableRequest;
    type Output = DigitransitResponse<SaveUserVariableResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "save_user_variable",
        title: "Save a place or preference",
        description: "Remember a place (home, work, with an optional stop id) or a preference by name, \
across restarts: plan_trip and get_departures then take the name.",
        summary: "Saves a named place or preference (SQLite, survives restarts)",
        needs: "",
        toolset: Toolset::Digitransit,
        annotations: Annotations::REPLACES_LOCAL,
    };

    async fn run(toolpack: &Toolpack, input: Self::Input) -> Self::Output {
        DigitransitResponse::answer(|id| save(toolpack, input, id)).await
    }
}

async fn save(
    toolpack: &Toolpack,
    input: SaveUserVariableRequest,
    correlation_id: String,
) -> Result<SaveUserVariableResult, Failure> {
    let key = checked_text("key", &input.key, MAX_KEY_CHARS)?.to_owned();
    let value = checked_value(input.r#type, input.value)?;
    let now = time::now().strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string();
    let (variable, previous) = toolpack
        .digitransit()
        .store
        .save(
            toolpack.caller().id().to_owned(),
            key,
            input.r#type,
            value,
            now,
        )
        .await?;
    let kind = |kind: UserVariableType| match kind {
        UserVariableType::Location => "a location",
        UserVariableType::Preference => "a preference",
        UserVariableType::Other => "a value",
    };
    let message = match &previous {
        Some(before) if before.r#type != variable.r#type => format!(
            "Saved '{}' as {}, replacing {} saved under that key.",
            variable.key,
            kind(variable.r#type),
            kind(before.r#type)
        ),
        Some(_) => format!("Saved '{}', replacing its value.", variable.key),
        None => format!("Saved '{}' as {}.", variable.key, kind(variable.r#type)),
    };
    Ok(SaveUserVariableResult {
        message,
        variable,
        previous,
        correlation_id,
    })
}

/// Checks that the value fits the type, and trims its text.
fn checked_value(
    kind: UserVariableType,
    value: UserVariableValue,
) -> Result<UserVariableValue, Failure> {
    match (kind, value) {
        (UserVariableType::Location, UserVariableValue::Location(place)) => {
            Coordinate::new(place.lat, place.lon).validate("value")?;
            let field = |name: &str, text: Option<String>| -> Result<Option<String>, Failure> {
                text.map(|t| {
                    checked_text(&format!("value.{name}"), &t, MAX_LOCATION_FIELD_CHARS)
                        .map(str::to_owned)
                })
                .transpose()
            };
            Ok(UserVariableValue::Location(SavedLocation {
                lat: place.lat,
                lon: place.lon,
                label: field("label", place.label)?,
                name: field("name", place.name)?,
                address: field("address", place.address)?,
                stop_id: field("stopId", place.stop_id)?,
            }))
        }
        (UserVariableType::Location, UserVariableValue::Text(_)) => Err(Failure::validation(
            "A location value must be an object {lat, lon, label?, name?, address?, stopId?}.",
        )),
        (_, UserVariableValue::Text(text)) => Ok(UserVariableValue::Text(
            checked_text("value", &text, MAX_TEXT_CHARS)?.to_owned(),
        )),
        (kind, UserVariableValue::Location(_)) => Err(Failure::validation(format!(
            "A {} value must be text; use type 'location' for a place.",
            kind.as_str()
        ))),
    }
}

/// The `get_user_variables` tool.
#[derive(Debug, Clone, Copy)]
pub struct GetUserVariables;

crate::tool::offline_bodies!(GetUserVariablesResult);

impl Tool for GetUserVariables {
    type Input = GetUserVariablesRequest;
    type Output = DigitransitResponse<GetUserVariablesResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "get_user_variables",
        title: "List saved places",
        description: "The places and preferences saved so far (home, work, …) with their names, which plan_trip \
and get_departures take.",
        summary: "Lists the saved places and preferences",
        needs: "",
        toolset: Toolset::Digitransit,
        annotations: Annotations::READ_ONLY_LOCAL,
    };

    async fn run(toolpack: &Toolpack, input: Self::Input) -> Self::Output {
        DigitransitResponse::answer(|correlation_id| async move {
            let variables = toolpack
                .digitransit()
                .store
                .list(toolpack.caller().id().to_owned(), input.r#type)
                .await?;
            let keys: Vec<&str> = variables.iter().map(|v| v.key.as_str()).collect();
            let message = match keys.len() {
                0 => "Nothing is saved.".to_owned(),
                1 => format!("1 saved: {}.", keys[0]),
                n => format!("{n} saved: {}.", keys.join(", ")),
            };
            Ok(GetUserVariablesResult {
                message,
                variables,
                correlation_id,
            })
        })
        .await
    }
}

/// The saved location labelled `key`, for tools that accept `{type: 'label'}`.
pub(crate) async fn saved_location(
    toolpack: &Toolpack,
    field: &str,
    key: &str,
) -> Result<SavedLocation, Failure> {
    let key = checked_text(field, key, MAX_KEY_CHARS)?;
    let caller = toolpack.caller().id().to_owned();
    match toolpack
        .digitransit()
        .store
        .get(caller, key.to_owned())
        .await?
    {
        Some(UserVariable {
            value: UserVariableValue::Location(place),
            ..
        }) => Ok(place),
        Some(other) => Err(Failure::validation(format!(
            "The saved variable '{key}' is a {}, not a location.",
            other.r#type.as_str()
        ))),
        None => Err(
            Failure::validation(format!("No saved place is labelled '{key}'.")).hint(
                "Save it first with save_user_variable, or list them with get_user_variables.",
            ),
        ),
    }
}
