//! The OpenAI strict-mode form of an input schema: every object closed
//! (`additionalProperties: false`) with every property required, and the optional ones
//! made nullable, so a model can leave them out by sending `null`. The core reads a
//! `null` for an optional property as "not given" (`crate::arguments`), so a strict call
//! means the same as the plain one.
//!
//! Strict mode has no way to say "any keys" or "any value": a tool whose input has a
//! free-form object or an unconstrained value has no strict form (`None`).

use serde_json::{Value, json};

use super::{JsonObject, admits_null, required_of, types_of};

/// The keywords strict mode accepts besides the structural ones this module writes;
/// others (`default`, `minLength`, `uniqueItems`, …) are dropped: the core still checks
/// the arguments against the full schema.
const KEPT: &[&str] = &[
    "type",
    "description",
    "title",
    "enum",
    "const",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
];

/// The string formats strict mode accepts; others (`double`, `uint32`) are dropped.
const FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// The strict form of the inlined input `schema`, or `None` when the input cannot be
/// written strictly (a free-form object or value somewhere in it).
pub fn strict_variant(schema: &JsonObject) -> Option<JsonObject> {
    match strict_node(&Value::Object(schema.clone()))? {
        Value::Object(object) if types_of(&object) == ["object"] => Some(object),
        _ => None,
    }
}

fn strict_node(node: &Value) -> Option<Value> {
    let schema = node.as_object()?;
    if schema.contains_key("$ref") {
        return None;
    }
    let mut out = JsonObject::new();
    for (key, value) in schema {
        let format_kept = key == "format" && value.as_str().is_some_and(|f| FORMATS.contains(&f));
        if KEPT.contains(&key.as_str()) || format_kept {
            out.insert(key.clone(), value.clone());
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(branches) = schema.get(key).and_then(Value::as_array) {
            let branches = branches
                .iter()
                .map(strict_node)
                .collect::<Option<Vec<_>>>()?;
            out.insert("anyOf".into(), Value::Array(branches));
        }
    }
    let kinds = types_of(schema);
    if kinds.contains(&"object") || schema.contains_key("properties") {
        let properties = schema.get("properties").and_then(Value::as_object)?;
        if properties.is_empty()
            || schema
                .get("additionalProperties")
                .is_some_and(|a| a != &Value::Bool(false))
        {
            return None;
        }
        let required = required_of(schema);
        let mut strict_properties = JsonObject::new();
        for (name, sub) in properties {
            let mut strict = strict_node(sub)?;
            let optional = !required.contains(&name.as_str());
            if optional && !sub.as_object().is_some_and(admits_null) {
                strict = nullable(strict);
            }
            strict_properties.insert(name.clone(), strict);
        }
        let names: Vec<Value> = properties.keys().cloned().map(Value::String).collect();
        out.insert("properties".into(), Value::Object(strict_properties));
        out.insert("required".into(), Value::Array(names));
        out.insert("additionalProperties".into(), Value::Bool(false));
    }
    if kinds.contains(&"array") {
        let items = strict_node(schema.get("items")?)?;
        out.insert("items".into(), items);
    }
    let constrained = !kinds.is_empty()
        || out.contains_key("anyOf")
        || out.contains_key("enum")
        || out.contains_key("const");
    constrained.then_some(Value::Object(out))
}

/// `schema` that also admits `null`.
fn nullable(schema: Value) -> Value {
    let Value::Object(mut object) = schema else {
        return schema;
    };
    if let Some(Value::Array(values)) = object.get_mut("enum") {
        values.push(Value::Null);
    }
    if let Some(Value::Array(branches)) = object.get_mut("anyOf") {
        branches.push(json!({"type": "null"}));
        return Value::Object(object);
    }
    match object.get("type").cloned() {
        Some(Value::String(kind)) => {
            object.insert("type".into(), json!([kind, "null"]));
            Value::Object(object)
        }
        Some(Value::Array(mut kinds)) => {
            kinds.push(Value::String("null".into()));
            object.insert("type".into(), Value::Array(kinds));
            Value::Object(object)
        }
        _ => {
            let description = object.remove("description");
            let mut wrapped = JsonObject::new();
            wrapped.insert("anyOf".into(), json!([object, {"type": "null"}]));
            if let Some(description) = description {
                wrapped.insert("description".into(), description);
            }
            Value::Object(wrapped)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::strict_variant;
    use serde_json::{Value, json};

    fn strict(schema: Value) -> Option<Value> {
        strict_variant(schema.as_object().unwrap()).map(Value::Object)
    }

    #[test]
    fn optional_properties_become_required_and_nullable_in_closed_objects() {
        let schema = json!({
            "type": "object",
            "properties": {
                "from": {"type": "string", "minLength": 1},
                "limit": {"type": "integer", "format": "uint32", "default": 5},
                "mode": {"type": "string", "enum": ["BUS", "TRAM"]},
                "at": {"type": "object", "properties": {"lat": {"type": "number"}}, "required": ["lat"]},
                "note": {"type": ["string", "null"]}
            },
            "required": ["from"]
        });
        assert_eq!(
            strict(schema),
            Some(json!({
                "type": "object",
                "properties": {
                    "from": {"type": "string"},
                    "limit": {"type": ["integer", "null"]},
                    "mode": {"type": ["string", "null"], "enum": ["BUS", "TRAM", null]},
                    "at": {
                        "type": ["object", "null"],
                        "properties": {"lat": {"type": "number"}},
                        "required": ["lat"],
                        "additionalProperties": false
                    },
                    "note": {"type": ["string", "null"]}
                },
                "required": ["from", "limit", "mode", "at", "note"],
                "additionalProperties": false
            }))
        );
    }

    #[test]
    fn free_form_objects_and_values_have_no_strict_form() {
        for free in [
            json!({"type": "object", "additionalProperties": {"type": "string"}}),
            json!({"type": "object"}),
            json!(true),
            json!({"description": "anything"}),
        ] {
            let schema = json!({"type": "object", "properties": {"x": free}});
            assert_eq!(strict(schema), None);
        }
    }

    #[test]
    fn unions_become_any_of_with_a_null_branch_when_optional() {
        let schema = json!({
            "type": "object",
            "properties": {"value": {"oneOf": [{"type": "string"}, {"type": "number"}], "description": "v"}}
        });
        assert_eq!(
            strict(schema).unwrap()["properties"]["value"],
            json!({"description": "v", "anyOf": [{"type": "string"}, {"type": "number"}, {"type": "null"}]})
        );
    }
}
