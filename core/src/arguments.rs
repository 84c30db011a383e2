//! Tool arguments from JSON: what a `null` means, and messages an agent can act on.
//!
//! - A `null` for a property the schema does not require (and that does not itself admit
//!   `null`) means "not given". Model hosts in strict mode ([`crate::schema::strict`])
//!   send every optional property, as `null` when they have no value.
//! - When arguments do not fit, the message names the field by JSON pointer and says what
//!   was expected, from a check against the served input schema (`jsonschema`). The check
//!   runs only when deserialising fails, so a good call pays nothing for it.

use std::sync::{Arc, OnceLock};

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::schema::{JsonObject, admits_null, required_of, types_of};

/// An input schema with its compiled validator (built on the first bad call).
#[derive(Debug)]
pub(crate) struct ArgumentSchema {
    schema: Arc<JsonObject>,
    validator: OnceLock<Option<jsonschema::Validator>>,
}

impl ArgumentSchema {
    /// The arguments checker of the (inlined) input `schema`, shared with the catalog entry.
    pub(crate) fn new(schema: Arc<JsonObject>) -> Self {
        Self {
            schema,
            validator: OnceLock::new(),
        }
    }

    /// `arguments` as `T`, or the message of the contract's validation error.
    /// `null` as a whole counts as `{}` (MCP allows leaving arguments out).
    pub(crate) fn parse<T: DeserializeOwned>(&self, arguments: Value) -> Result<T, String> {
        let mut arguments = match arguments {
            Value::Null => Value::Object(Default::default()),
            Value::Object(map) => Value::Object(map),
            other => {
                return Err(format!(
                    "Arguments must be a JSON object, got {}.",
                    json_kind(&other)
                ));
            }
        };
        if has_null(&arguments) {
            drop_optional_nulls(&mut arguments, &self.schema);
        }
        match T::deserialize(&arguments) {
            Ok(parsed) => Ok(parsed),
            Err(error) => Err(self
                .explain(&arguments)
                .unwrap_or_else(|| format!("Invalid arguments: {error}."))),
        }
    }

    /// What the schema says is wrong with `arguments`: the first breach, by pointer.
    fn explain(&self, arguments: &Value) -> Option<String> {
        let validator = self
            .validator
            .get_or_init(|| jsonschema::validator_for(&Value::Object((*self.schema).clone())).ok())
            .as_ref()?;
        let error = validator.iter_errors(arguments).next()?;
        let pointer = error.instance_path().as_str().to_owned();
        let at = if pointer.is_empty() { "/" } else { &pointer };
        let expected = schema_at(&self.schema, &pointer)
            .map(|schema| format!(" Expected {}.", describe(schema)))
            .unwrap_or_default();
        Some(format!(
            "Invalid arguments at `{at}`: {}.{expected}",
            error.masked_with("the value")
        ))
    }
}

/// Whether `value` holds a `null` anywhere.
fn has_null(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Object(map) => map.values().any(has_null),
        Value::Array(items) => items.iter().any(has_null),
        _ => false,
    }
}

/// Removes, throughout `value`, each `null` property that `schema` does not require and
/// whose own schema does not admit `null`.
fn drop_optional_nulls(value: &mut Value, schema: &JsonObject) {
    for branch in ["anyOf", "oneOf"]
        .iter()
        .filter_map(|key| schema.get(*key).and_then(Value::as_array))
        .flatten()
        .filter_map(Value::as_object)
    {
        drop_optional_nulls(value, branch);
    }
    match value {
        Value::Object(map) => {
            let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
                return;
            };
            let required = required_of(schema);
            map.retain(|name, value| {
                !value.is_null()
                    || required.contains(&name.as_str())
                    || properties
                        .get(name)
                        .and_then(Value::as_object)
                        .is_none_or(admits_null)
            });
            for (name, value) in map.iter_mut() {
                if let Some(sub) = properties.get(name).and_then(Value::as_object) {
                    drop_optional_nulls(value, sub);
                }
            }
        }
        Value::Array(items) => {
            if let Some(sub) = schema.get("items").and_then(Value::as_object) {
                for item in items {
                    drop_optional_nulls(item, sub);
                }
            }
        }
        _ => {}
    }
}

/// The schema that applies at instance `pointer` (through `properties` and `items`).
fn schema_at<'s>(schema: &'s JsonObject, pointer: &str) -> Option<&'s JsonObject> {
    let mut here = schema;
    for segment in pointer.split('/').skip(1) {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        here = match here.get("properties").and_then(|p| p.get(&segment)) {
            Some(sub) => sub.as_object()?,
            None => here.get("items")?.as_object()?,
        };
    }
    Some(here)
}

/// What each branch of `schema`'s `anyOf` or `oneOf` accepts, nested branches flattened
/// (an untagged choice of a string or a tagged choice of objects is three alternatives).
fn alternatives(schema: &JsonObject) -> Vec<String> {
    let branches = ["anyOf", "oneOf"]
        .iter()
        .find_map(|key| schema.get(*key).and_then(Value::as_array));
    match branches {
        Some(branches) => branches
            .iter()
            .filter_map(Value::as_object)
            .flat_map(alternatives)
            .collect(),
        None => vec![describe(schema)],
    }
}

/// A short description of what `schema` accepts, for an error message.
fn describe(schema: &JsonObject) -> String {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        let listed: Vec<String> = values.iter().map(Value::to_string).collect();
        return format!("one of {}", listed.join(", "));
    }
    if let Some(value) = schema.get("const") {
        return format!("exactly {value}");
    }
    if schema.contains_key("anyOf") || schema.contains_key("oneOf") {
        let mut each: Vec<String> = Vec::new();
        for alternative in alternatives(schema) {
            if !each.contains(&alternative) {
                each.push(alternative);
            }
        }
        return match each.as_slice() {
            [one] => one.clone(),
            _ => format!("either {}", each.join(", or ")),
        };
    }
    let kinds = types_of(schema);
    let mut words: Vec<String> = kinds
        .iter()
        .filter(|kind| **kind != "object")
        .map(|kind| article(kind))
        .collect();
    if kinds.contains(&"object") || schema.contains_key("properties") {
        words.push(describe_object(schema));
    }
    if words.is_empty() {
        "a value".to_owned()
    } else {
        words.join(" or ")
    }
}

fn describe_object(schema: &JsonObject) -> String {
    let required = required_of(schema);
    let optional: Vec<&str> = schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|p| p.keys())
        .map(String::as_str)
        .filter(|name| !required.contains(name))
        .collect();
    let mut text = "an object".to_owned();
    if !required.is_empty() {
        text += &format!(" with {}", quoted(&required));
    }
    if !optional.is_empty() {
        let joint = if required.is_empty() { " with" } else { " and" };
        text += &format!("{joint} optionally {}", quoted(&optional));
    }
    text
}

fn quoted(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    quoted.join(", ")
}

fn article(kind: &str) -> String {
    match kind {
        "integer" => "an integer".to_owned(),
        "array" => "an array".to_owned(),
        "null" => "null".to_owned(),
        other => format!("a {other}"),
    }
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::ArgumentSchema;
    use serde::Deserialize;
    use serde_json::{Value, json};
    use std::sync::Arc;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Request {
        key: String,
        #[serde(default)]
        limit: u32,
        place: Option<Place>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(untagged)]
    enum Place {
        Point { lat: f64, lon: f64 },
        Text(String),
    }

    fn schema() -> ArgumentSchema {
        let schema = json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "key": {"type": "string"},
                "limit": {"type": "integer", "minimum": 0},
                "place": {"anyOf": [
                    {"type": "object", "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}},
                     "required": ["lat", "lon"]},
                    {"type": "string"},
                    {"type": "null"}
                ]}
            },
            "required": ["key"]
        });
        ArgumentSchema::new(Arc::new(schema.as_object().cloned().unwrap()))
    }

    #[test]
    fn a_null_optional_property_means_not_given() {
        let parsed: Request = schema()
            .parse(json!({"key": "home", "limit": null, "place": null}))
            .unwrap();
        assert_eq!(
            parsed,
            Request {
                key: "home".into(),
                limit: 0,
                place: None
            }
        );
    }

    #[test]
    fn a_null_required_property_is_still_an_error() {
        let error = schema().parse::<Request>(json!({"key": null})).unwrap_err();
        assert!(error.contains("`/key`"), "{error}");
        assert!(error.contains("Expected a string."), "{error}");
    }

    #[test]
    fn a_bad_union_value_names_its_field_and_what_was_expected() {
        let error = schema()
            .parse::<Request>(json!({"key": "home", "place": {"lat": 60.1}}))
            .unwrap_err();
        assert!(
            error.starts_with("Invalid arguments at `/place`:"),
            "{error}"
        );
        assert!(
            error.contains("Expected either an object with `lat`, `lon`, or a string, or null."),
            "{error}"
        );
        assert!(!error.contains("60.1"), "values are not echoed: {error}");
    }

    #[test]
    fn unknown_and_missing_fields_are_named() {
        let unknown = schema()
            .parse::<Request>(json!({"key": "k", "colour": 1}))
            .unwrap_err();
        assert!(
            unknown.contains("`/`") && unknown.contains("colour"),
            "{unknown}"
        );
        let missing = schema().parse::<Request>(json!({})).unwrap_err();
        assert!(
            missing.contains("\"key\" is a required property"),
            "{missing}"
        );
        let not_object = schema().parse::<Request>(Value::from(3)).unwrap_err();
        assert_eq!(not_object, "Arguments must be a JSON object, got a number.");
    }
}
