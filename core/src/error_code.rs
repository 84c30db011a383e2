//! [`ErrorCode`]: the error codes a tool may answer, read from its error schema (the
//! enum at the contract's code field), each with its [`ErrorKind`].

use serde::Serialize;
use serde_json::Value;

use crate::error_kind::ErrorKind;
use crate::schema::JsonObject;

/// One error code a tool may answer, as the contract's error schema lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ErrorCode {
    /// The contract's exact code, e.g. `STATION_NOT_FOUND` or `geocode-no-results`.
    pub code: String,
    /// Its [`ErrorKind`] name, e.g. `not_found`.
    pub kind: &'static str,
    /// What the code means, from the contract type's doc comment.
    pub description: String,
}

/// The error codes in `error_schema` at the JSON pointer `at` (`/code`, `/error/code`):
/// the string constants of the enum found there, minus `success_code`. A code whose
/// description starts with backticked tool names and a colon (`` `plan_trip`: … ``)
/// belongs to those tools only, and is left out for `tool`.
pub fn error_codes(
    error_schema: &JsonObject,
    at: &str,
    success_code: Option<&str>,
    tool: &str,
) -> Vec<ErrorCode> {
    let empty = JsonObject::new();
    let defs = error_schema
        .get("$defs")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let mut node = Some(error_schema);
    for property in at.split('/').filter(|segment| !segment.is_empty()) {
        node = node
            .map(|n| resolve(n, defs))
            .and_then(|n| n.get("properties"))
            .and_then(|p| p.get(property))
            .and_then(Value::as_object);
    }
    let Some(node) = node.map(|n| resolve(n, defs)) else {
        return Vec::new();
    };
    enum_values(node)
        .into_iter()
        .filter(|(code, _)| Some(code.as_str()) != success_code)
        .filter(|(_, description)| applies_to(description, tool))
        .map(|(code, description)| ErrorCode {
            kind: ErrorKind::of(&code).as_str(),
            code,
            description,
        })
        .collect()
}

/// `schema`, or the definition its `$ref` names.
fn resolve<'a>(schema: &'a JsonObject, defs: &'a JsonObject) -> &'a JsonObject {
    schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.rsplit('/').next())
        .and_then(|name| defs.get(name))
        .and_then(Value::as_object)
        .map_or(schema, |target| resolve(target, defs))
}

/// The string values (with their descriptions) of a `oneOf`-of-consts or `enum` schema.
fn enum_values(schema: &JsonObject) -> Vec<(String, String)> {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return values
            .iter()
            .filter_map(Value::as_str)
            .map(|v| (v.to_owned(), String::new()))
            .collect();
    }
    let branches = schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(Value::as_array);
    branches
        .into_iter()
        .flatten()
        .filter_map(|branch| {
            let code = branch.get("const")?.as_str()?.to_owned();
            let description = branch
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            Some((code, description))
        })
        .collect()
}

/// Whether a code described by `description` applies to `tool`: yes, unless the
/// description opens with a list of backticked tool names that lacks it.
fn applies_to(description: &str, tool: &str) -> bool {
    let Some((head, _)) = description.split_once(": ") else {
        return true;
    };
    let names: Option<Vec<&str>> = head
        .split(',')
        .map(|name| name.trim().strip_prefix('`')?.strip_suffix('`'))
        .collect();
    match names {
        Some(names) if !names.is_empty() => names.contains(&tool),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::applies_to;

    #[test]
    fn a_code_named_for_some_tools_applies_to_those_only() {
        assert!(applies_to(
            "Digitransit did not answer: a timeout.",
            "plan_trip"
        ));
        assert!(applies_to("`plan_trip`: no itinerary.", "plan_trip"));
        assert!(!applies_to("`plan_trip`: no itinerary.", "find_stops"));
        assert!(applies_to(
            "`plan_trip`, `get_departures`: x.",
            "get_departures"
        ));
        assert!(applies_to("No tools: here `x` is prose.", "find_stops"));
    }
}
