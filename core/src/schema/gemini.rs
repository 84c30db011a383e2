//! The Gemini function-declaration form of an input schema, and a checker of that subset.
//!
//! Gemini's function declarations take an OpenAPI 3.0 `Schema` subset: one `type` per
//! schema (no type lists, no `null` type: `nullable: true` instead), no `$ref`/`$defs`, no
//! `additionalProperties`, `const`, `oneOf` or `allOf`, `enum` only on strings, and
//! `format` only `float`/`double` (numbers), `int32`/`int64` (integers) or
//! `enum`/`date-time` (strings). [`gemini_variant`] rewrites an inlined input schema into
//! that subset; [`gemini_violations`] checks a schema against it.

use serde_json::{Value, json};

use super::{JsonObject, types_of};

/// The keywords a Gemini schema may carry.
const ALLOWED: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "anyOf",
    "propertyOrdering",
    "items",
    "minimum",
    "maximum",
];

/// Keywords copied as they are (when present) from the input schema.
const COPIED: &[&str] = &[
    "title",
    "description",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
];

/// The types Gemini knows.
const TYPES: &[&str] = &["string", "number", "integer", "boolean", "array", "object"];

/// The formats Gemini accepts for a type.
fn formats_of(kind: &str) -> &'static [&'static str] {
    match kind {
        "number" => &["float", "double"],
        "integer" => &["int32", "int64"],
        "string" => &["enum", "date-time"],
        _ => &[],
    }
}

/// The Gemini form of the inlined input `schema`.
pub fn gemini_variant(schema: &JsonObject) -> JsonObject {
    match gemini_node(&Value::Object(schema.clone())) {
        Value::Object(object) => object,
        _ => JsonObject::new(),
    }
}

fn gemini_node(node: &Value) -> Value {
    let Some(schema) = node.as_object() else {
        return json!({});
    };
    let mut out = JsonObject::new();
    for key in COPIED {
        if let Some(value) = schema.get(*key) {
            out.insert((*key).into(), value.clone());
        }
    }
    let mut nullable = false;
    let mut kinds: Vec<&str> = Vec::new();
    for kind in types_of(schema) {
        match kind {
            "null" => nullable = true,
            other if TYPES.contains(&other) => kinds.push(other),
            _ => {}
        }
    }
    let mut values: Vec<Value> = match (schema.get("enum"), schema.get("const")) {
        (Some(Value::Array(values)), _) => values.clone(),
        (None, Some(value)) => vec![value.clone()],
        _ => Vec::new(),
    };
    if values.contains(&Value::Null) {
        nullable = true;
        values.retain(|v| !v.is_null());
    }
    if !values.is_empty() && values.iter().all(Value::is_string) {
        kinds = vec!["string"];
        out.insert("enum".into(), Value::Array(values));
    }
    let mut branches: Vec<Value> = Vec::new();
    for key in ["anyOf", "oneOf"] {
        for branch in schema
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let converted = gemini_node(branch);
            if branch.get("type") == Some(&json!("null"))
                || branch.get("const") == Some(&Value::Null)
            {
                nullable = true;
            } else {
                if converted.get("nullable") == Some(&Value::Bool(true)) {
                    nullable = true;
                }
                branches.push(converted);
            }
        }
    }
    match branches.len() {
        0 => {}
        1 => {
            if let Value::Object(single) = branches.remove(0) {
                for (key, value) in single {
                    out.entry(key).or_insert(value);
                }
            }
        }
        _ => {
            out.insert("anyOf".into(), Value::Array(branches));
        }
    }
    match kinds.as_slice() {
        [] => {}
        [kind] => {
            out.insert("type".into(), json!(kind));
            if let Some(format) = schema.get("format").and_then(Value::as_str)
                && formats_of(kind).contains(&format)
            {
                out.insert("format".into(), json!(format));
            }
        }
        several => {
            let each = several.iter().map(|kind| json!({"type": kind})).collect();
            out.insert("anyOf".into(), Value::Array(each));
        }
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        let converted: JsonObject = properties
            .iter()
            .map(|(name, sub)| (name.clone(), gemini_node(sub)))
            .collect();
        let required: Vec<Value> = super::required_of(schema)
            .into_iter()
            .filter(|name| properties.contains_key(*name))
            .map(|name| json!(name))
            .collect();
        out.insert("properties".into(), Value::Object(converted));
        if !required.is_empty() {
            out.insert("required".into(), Value::Array(required));
        }
    }
    if let Some(items) = schema.get("items") {
        out.insert("items".into(), gemini_node(items));
    }
    if nullable {
        out.insert("nullable".into(), Value::Bool(true));
    }
    Value::Object(out)
}

/// Where `schema` leaves Gemini's function-declaration subset: one message per breach,
/// each starting with the JSON pointer of the schema at fault. Empty when it fits.
pub fn gemini_violations(schema: &Value) -> Vec<String> {
    let mut found = Vec::new();
    check(schema, "", &mut found);
    found
}

fn check(node: &Value, at: &str, found: &mut Vec<String>) {
    let Some(schema) = node.as_object() else {
        found.push(format!("{at}: a schema must be an object, not {node}"));
        return;
    };
    for key in schema.keys() {
        if !ALLOWED.contains(&key.as_str()) {
            found.push(format!(
                "{at}: `{key}` is not part of Gemini's schema subset"
            ));
        }
    }
    let kind = match schema.get("type") {
        None => None,
        Some(Value::String(kind)) if TYPES.contains(&kind.as_str()) => Some(kind.as_str()),
        Some(other) => {
            found.push(format!(
                "{at}: `type` must be one of {TYPES:?}, not {other}"
            ));
            None
        }
    };
    if let Some(format) = schema.get("format") {
        let fits =
            kind.is_some_and(|k| format.as_str().is_some_and(|f| formats_of(k).contains(&f)));
        if !fits {
            found.push(format!(
                "{at}: format {format} is not allowed for type {kind:?}"
            ));
        }
    }
    if let Some(values) = schema.get("enum") {
        let strings = values
            .as_array()
            .is_some_and(|v| v.iter().all(Value::is_string));
        if kind != Some("string") || !strings {
            found.push(format!("{at}: `enum` must list strings on a string type"));
        }
    }
    if schema.get("nullable").is_some_and(|n| !n.is_boolean()) {
        found.push(format!("{at}: `nullable` must be a boolean"));
    }
    if let Some(properties) = schema.get("properties") {
        match properties.as_object() {
            Some(properties) => {
                for (name, sub) in properties {
                    check(sub, &format!("{at}/properties/{name}"), found);
                }
                for name in super::required_of(schema) {
                    if !properties.contains_key(name) {
                        found.push(format!("{at}: required `{name}` is not a property"));
                    }
                }
            }
            None => found.push(format!("{at}: `properties` must be an object")),
        }
    }
    if let Some(items) = schema.get("items") {
        check(items, &format!("{at}/items"), found);
    }
    if let Some(branches) = schema.get("anyOf") {
        match branches.as_array() {
            Some(branches) => {
                for (i, branch) in branches.iter().enumerate() {
                    check(branch, &format!("{at}/anyOf/{i}"), found);
                }
            }
            None => found.push(format!("{at}: `anyOf` must be a list")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{gemini_variant, gemini_violations};
    use serde_json::{Value, json};

    #[test]
    fn nullable_types_unions_and_constants_are_written_the_gemini_way() {
        let schema = json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "limit": {"type": ["integer", "null"], "format": "uint32", "default": 5},
                "mode": {"enum": ["BUS", "TRAM", null]},
                "kind": {"const": "location"},
                "at": {"anyOf": [{"type": "object", "properties": {"lat": {"type": "number", "format": "double"}}}, {"type": "null"}]},
                "value": {"anyOf": [{"type": "string"}, {"type": "object", "properties": {"x": {"type": "number"}}}]}
            },
            "required": ["kind"]
        });
        let gemini = Value::Object(gemini_variant(schema.as_object().unwrap()));
        assert_eq!(gemini_violations(&gemini), Vec::<String>::new());
        assert_eq!(
            gemini["properties"]["limit"],
            json!({"type": "integer", "nullable": true})
        );
        assert_eq!(
            gemini["properties"]["mode"],
            json!({"type": "string", "enum": ["BUS", "TRAM"], "nullable": true})
        );
        assert_eq!(
            gemini["properties"]["kind"],
            json!({"type": "string", "enum": ["location"]})
        );
        assert_eq!(
            gemini["properties"]["at"],
            json!({"type": "object", "properties": {"lat": {"type": "number", "format": "double"}}, "nullable": true})
        );
        assert_eq!(
            gemini["properties"]["value"]["anyOf"]
                .as_array()
                .map(Vec::len),
            Some(2)
        );
    }

    #[test]
    fn the_checker_names_each_breach_by_pointer() {
        let schema = json!({
            "type": "object",
            "$defs": {},
            "properties": {
                "a": {"type": ["string", "null"]},
                "b": {"type": "integer", "enum": [1, 2]},
                "c": {"type": "object", "additionalProperties": true},
                "d": {"type": "string", "format": "uint32"}
            },
            "required": ["e"]
        });
        let found = gemini_violations(&schema);
        for expected in [
            "`$defs` is not part",
            "/properties/a: `type`",
            "/properties/b: `enum`",
            "/properties/c: `additionalProperties`",
            "/properties/d: format",
            ": required `e`",
        ] {
            assert!(
                found.iter().any(|f| f.contains(expected)),
                "{expected} not in {found:#?}"
            );
        }
    }
}
