//! The served form of an input schema: what a model reads on every turn, with nothing it
//! never uses. The same arguments pass and fail as with the full schema: only annotations
//! go (`title`, numeric `format`s, the root's description, a description's paragraphs
//! after its first, the descriptions of a described union branch's own properties), a
//! union of constants becomes the `enum` it means, and an optional
//! property loses its `null` (the core reads a `null` optional property as not given,
//! [`crate::arguments`]).

use serde_json::Value;

use super::{JsonObject, required_of};

/// The `format`s schemars gives numbers: size hints a model never needs.
const NUMERIC_FORMATS: [&str; 12] = [
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "uint", "int",
    "float", "double",
];

/// `schema` (an inlined input schema) in its served form.
pub fn compact_input(schema: &JsonObject) -> JsonObject {
    let mut served = compact(schema);
    served.remove("description");
    served
}

/// `schema` (an output schema) as served beside a tool: every field, type, enum and code
/// kept, the prose dropped (`description`, `title`): the Rust docs and `docs/tools.md`
/// carry it, and no model reads an output schema to pick a tool.
pub fn compact_output(schema: &JsonObject) -> JsonObject {
    let mut out = JsonObject::new();
    for (key, value) in schema {
        match (key.as_str(), value) {
            ("description" | "title", Value::String(_)) => {}
            (
                "properties" | "$defs" | "definitions" | "patternProperties",
                Value::Object(named),
            ) => {
                let named = named
                    .iter()
                    .map(|(name, sub)| (name.clone(), output_value(sub)))
                    .collect();
                out.insert(key.clone(), Value::Object(named));
            }
            _ => {
                out.insert(key.clone(), output_value(value));
            }
        }
    }
    out
}

fn output_value(value: &Value) -> Value {
    match value {
        Value::Object(sub) => Value::Object(compact_output(sub)),
        Value::Array(items) => Value::Array(items.iter().map(output_value).collect()),
        other => other.clone(),
    }
}

/// One schema object, compacted throughout.
fn compact(schema: &JsonObject) -> JsonObject {
    let required: Vec<String> = required_of(schema).into_iter().map(str::to_owned).collect();
    let mut out = JsonObject::new();
    for (key, value) in schema {
        match (key.as_str(), value) {
            ("title", _) => {}
            ("format", Value::String(format)) if NUMERIC_FORMATS.contains(&format.as_str()) => {}
            ("description", Value::String(text)) => {
                let first = text.split("\n\n").next().unwrap_or_default();
                out.insert(key.clone(), Value::String(first.replace('\n', " ")));
            }
            ("properties" | "$defs" | "patternProperties", Value::Object(named)) => {
                let compacted = named
                    .iter()
                    .map(|(name, sub)| {
                        let sub = match sub {
                            Value::Object(sub) => {
                                let sub = compact(sub);
                                let optional = key == "properties" && !required.contains(name);
                                Value::Object(if optional { without_null(sub) } else { sub })
                            }
                            other => other.clone(),
                        };
                        (name.clone(), sub)
                    })
                    .collect();
                out.insert(key.clone(), Value::Object(compacted));
            }
            (_, Value::Object(sub)) => {
                out.insert(key.clone(), Value::Object(compact(sub)));
            }
            // A tagged union: two or more kinds of object, none of them `null` (an optional
            // value's `anyOf [X, null]` is not one: X's properties keep their words).
            ("oneOf", Value::Array(branches))
                if branches.len() > 1
                    && branches
                        .iter()
                        .all(|b| b.get("type") == Some(&Value::String("object".into()))) =>
            {
                let branches = branches
                    .iter()
                    .map(|branch| match branch {
                        Value::Object(sub) => Value::Object(without_repeated_prose(compact(sub))),
                        other => other.clone(),
                    })
                    .collect();
                out.insert(key.clone(), Value::Array(branches));
            }
            (_, Value::Array(items)) => {
                let items = items
                    .iter()
                    .map(|item| match item {
                        Value::Object(sub) => Value::Object(compact(sub)),
                        other => other.clone(),
                    })
                    .collect();
                out.insert(key.clone(), Value::Array(items));
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    constants_as_enum(out)
}

/// A union branch that says what it is (`{type: 'coords', value: {lat, lon}}`) without
/// the descriptions of its own properties, which only repeat it ("The point.").
fn without_repeated_prose(mut branch: JsonObject) -> JsonObject {
    if !branch.contains_key("description") {
        return branch;
    }
    if let Some(Value::Object(properties)) = branch.get_mut("properties") {
        for property in properties.values_mut() {
            if let Value::Object(property) = property {
                property.remove("description");
            }
        }
    }
    branch
}

/// A `oneOf`/`anyOf` whose branches are each one constant (with at most a type and a
/// description), as the `enum` of those constants.
fn constants_as_enum(mut schema: JsonObject) -> JsonObject {
    for key in ["oneOf", "anyOf"] {
        let Some(Value::Array(branches)) = schema.get(key) else {
            continue;
        };
        let constant = |branch: &Value| {
            branch.as_object().is_some_and(|b| {
                b.contains_key("const")
                    && b.keys()
                        .all(|k| ["const", "type", "description"].contains(&k.as_str()))
            })
        };
        if branches.is_empty() || !branches.iter().all(constant) {
            continue;
        }
        let values: Vec<Value> = branches
            .iter()
            .filter_map(|b| b.get("const").cloned())
            .collect();
        let mut types: Vec<&Value> = branches.iter().filter_map(|b| b.get("type")).collect();
        types.dedup();
        let typed = branches.iter().all(|b| b.get("type").is_some());
        let single_type = (types.len() == 1 && typed).then(|| types[0].clone());
        schema.remove(key);
        if let Some(kind) = single_type {
            schema.entry("type").or_insert(kind);
        }
        schema.insert("enum".into(), Value::Array(values));
    }
    schema
}

/// An optional property's schema without its `null`: from `type`, from `enum`, and as an
/// `anyOf` branch (the other branch taking its place when it is the only one).
fn without_null(mut schema: JsonObject) -> JsonObject {
    if let Some(Value::Array(types)) = schema.get_mut("type") {
        types.retain(|t| t != "null");
        if let [only] = types.as_slice() {
            let only = only.clone();
            schema.insert("type".into(), only);
        }
    }
    if let Some(Value::Array(values)) = schema.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    if let Some(Value::Array(branches)) = schema.get("anyOf") {
        let kept: Vec<&Value> = branches
            .iter()
            .filter(|b| {
                b.get("type") != Some(&Value::String("null".into()))
                    || b.as_object().is_some_and(|o| o.len() > 1)
            })
            .collect();
        if kept.len() == 1
            && kept.len() < branches.len()
            && let Some(Value::Object(other)) = kept.first().map(|v| (*v).clone())
        {
            schema.remove("anyOf");
            for (key, value) in other {
                // The property's own description wins over its branch's.
                schema.entry(key).or_insert(value);
            }
            return without_null(schema);
        }
    }
    schema
}

#[cfg(test)]
mod tests {
    use super::compact_input;
    use serde_json::{Value, json};

    #[test]
    fn annotations_go_and_unions_of_constants_become_enums() {
        let schema = json!({
            "type": "object", "title": "Request", "description": "`tool` arguments.",
            "additionalProperties": false,
            "properties": {
                "limit": {"type": ["integer", "null"], "format": "uint32", "minimum": 0,
                          "description": "Most results (default 5).\n\nMore for Rust readers."},
                "title": {"type": "string", "title": "Title"},
                "language": {"anyOf": [
                    {"oneOf": [{"type": "string", "const": "fi", "description": "Finnish."},
                               {"type": "string", "const": "en"}]},
                    {"type": "null"}], "description": "Language."}
            },
            "required": ["title"]
        });
        let served = compact_input(schema.as_object().unwrap());
        assert_eq!(
            Value::Object(served),
            json!({
                "type": "object", "additionalProperties": false,
                "properties": {
                    "limit": {"type": "integer", "minimum": 0, "description": "Most results (default 5)."},
                    "title": {"type": "string"},
                    "language": {"type": "string", "enum": ["fi", "en"], "description": "Language."}
                },
                "required": ["title"]
            })
        );
    }

    #[test]
    fn an_output_schema_keeps_its_fields_and_codes_but_not_its_prose() {
        let schema = json!({"type": "object", "title": "Answer", "description": "An answer.",
            "properties": {
                "title": {"type": "string", "description": "A property called title."},
                "code": {"type": "string", "enum": ["OK", "NOT_FOUND"], "description": "The code."}
            }, "required": ["code"]});
        let served = super::compact_output(schema.as_object().unwrap());
        assert_eq!(
            Value::Object(served),
            json!({"type": "object", "properties": {
                "title": {"type": "string"},
                "code": {"type": "string", "enum": ["OK", "NOT_FOUND"]}
            }, "required": ["code"]})
        );
    }

    #[test]
    fn a_described_union_branch_does_not_describe_its_properties_again() {
        let schema = json!({"type": "object", "properties": {"at": {"oneOf": [
            {"type": "object", "description": "A saved place: `{type: 'label', value}`.",
             "properties": {"type": {"const": "label"}, "value": {"type": "string", "description": "The key."}}},
            {"type": "object", "properties": {"value": {"type": "string", "description": "Kept."}}}
        ]}}, "required": ["at"]});
        let served = compact_input(schema.as_object().unwrap());
        let branches = &served["properties"]["at"]["oneOf"];
        assert_eq!(
            branches[0]["properties"]["value"],
            json!({"type": "string"})
        );
        assert_eq!(branches[1]["properties"]["value"]["description"], "Kept.");
    }

    #[test]
    fn a_required_property_keeps_its_null() {
        let schema = json!({"type": "object", "properties": {
            "at": {"type": ["string", "null"]}}, "required": ["at"]});
        let served = compact_input(schema.as_object().unwrap());
        assert_eq!(
            served["properties"]["at"]["type"],
            json!(["string", "null"])
        );
    }
}
