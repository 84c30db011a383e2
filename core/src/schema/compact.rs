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

/// `schema` (a compacted input schema, [`compact_input`]) as every surface serves it: without
/// `additionalProperties: false` (the core refuses an unknown field itself, naming it),
/// without the `type` beside an `enum` or `const` whose values all have it, and with what
/// every branch of a `oneOf` says alike said once beside it. The strict and Gemini forms are
/// made from the compact form, which keeps all three.
pub fn served_input(schema: &JsonObject) -> JsonObject {
    shared_keywords_hoisted(lean(schema))
}

/// The keywords a `oneOf`'s branches must all say alike for [`shared_keywords_hoisted`].
const HOISTED: [&str; 2] = ["type", "required"];

/// `schema` with each of [`HOISTED`] that every branch of its `oneOf` says alike moved out
/// of the branches: `A and exactly one of (B, C)` is `exactly one of (A and B, A and C)`.
fn shared_keywords_hoisted(mut schema: JsonObject) -> JsonObject {
    for value in schema.values_mut() {
        match value {
            Value::Object(sub) => *sub = shared_keywords_hoisted(std::mem::take(sub)),
            Value::Array(items) => {
                for item in items.iter_mut() {
                    if let Value::Object(sub) = item {
                        *sub = shared_keywords_hoisted(std::mem::take(sub));
                    }
                }
            }
            _ => {}
        }
    }
    let Some(Value::Array(branches)) = schema.get("oneOf") else {
        return schema;
    };
    let mut hoisted = JsonObject::new();
    for key in HOISTED {
        let first = branches.first().and_then(|b| b.get(key));
        if branches.len() > 1
            && !schema.contains_key(key)
            && first.is_some()
            && branches.iter().all(|b| b.get(key) == first)
        {
            hoisted.insert(key.to_owned(), first.cloned().unwrap_or_default());
        }
    }
    if let Some(Value::Array(branches)) = schema.get_mut("oneOf") {
        for branch in branches.iter_mut() {
            if let Value::Object(branch) = branch {
                branch.retain(|key, _| !hoisted.contains_key(key));
            }
        }
    }
    schema.extend(hoisted);
    schema
}

/// `items` with `schema` applied to each object among them, the rest as they are.
fn each_object(items: &[Value], schema: impl Fn(&JsonObject) -> JsonObject) -> Vec<Value> {
    items
        .iter()
        .map(|item| match item {
            Value::Object(sub) => Value::Object(schema(sub)),
            other => other.clone(),
        })
        .collect()
}

/// [`served_input`] before the hoisting.
fn lean(schema: &JsonObject) -> JsonObject {
    let mut served = JsonObject::new();
    for (key, value) in schema {
        match (key.as_str(), value) {
            ("additionalProperties", Value::Bool(false)) => {}
            ("type", Value::String(kind)) if typed_by_values(schema, kind) => {}
            (_, Value::Object(sub)) => {
                served.insert(key.clone(), Value::Object(lean(sub)));
            }
            (_, Value::Array(items)) => {
                served.insert(key.clone(), Value::Array(each_object(items, lean)));
            }
            _ => {
                served.insert(key.clone(), value.clone());
            }
        }
    }
    served
}

/// Whether `schema`'s `enum` or `const` already says its values are all of JSON type `kind`.
fn typed_by_values(schema: &JsonObject, kind: &str) -> bool {
    let of_kind = |value: &Value| match kind {
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "integer" => value.is_i64() || value.is_u64(),
        _ => false,
    };
    match (schema.get("enum"), schema.get("const")) {
        (Some(Value::Array(values)), _) => !values.is_empty() && values.iter().all(of_kind),
        (None, Some(value)) => of_kind(value),
        _ => false,
    }
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
                                let mut sub = if optional { without_null(sub) } else { sub };
                                if key == "properties" {
                                    drop_empty_descriptions(&mut sub, name);
                                    drop_choice_descriptions(&mut sub);
                                }
                                Value::Object(sub)
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
                out.insert(key.clone(), Value::Array(each_object(items, compact)));
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    constants_as_enum(out)
}

/// A described property that is a choice of forms (`anyOf` a plain string or an object,
/// with no `null` among them) without the descriptions of the forms: the property's own
/// words say what it takes ("Stop id (HSL:1040129) or {type: label}."), and a host shows
/// them once.
fn drop_choice_descriptions(property: &mut JsonObject) {
    if !property.contains_key("description") {
        return;
    }
    let Some(Value::Array(forms)) = property.get_mut("anyOf") else {
        return;
    };
    if forms
        .iter()
        .any(|f| f.get("type") == Some(&Value::String("null".into())))
    {
        return;
    }
    for form in forms.iter_mut() {
        if let Value::Object(form) = form {
            form.remove("description");
        }
    }
}

/// A union branch that says what it is (`{type: 'coords', value: {lat, lon}}`) without
/// the descriptions of its own properties, which only repeat it ("The point."), and
/// without its own description when that is only its shape in code, which its schema says.
fn without_repeated_prose(mut branch: JsonObject) -> JsonObject {
    let Some(Value::String(description)) = branch.get("description") else {
        return branch;
    };
    if is_only_code(description) {
        branch.remove("description");
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

/// Whether `text` is one code span and nothing else ("`{type: 'coords'}`.").
fn is_only_code(text: &str) -> bool {
    let text = text.trim().trim_end_matches('.');
    text.len() > 2 && text.starts_with('`') && text.ends_with('`') && text.matches('`').count() == 2
}

/// Words a description may add to a property's name and still say nothing more.
const EMPTY_WORDS: [&str; 8] = ["a", "an", "the", "its", "this", "of", "or", "and"];

/// The short names a property goes by, with the word each stands for.
const SHORT_NAMES: [(&str, &str); 2] = [("lat", "latitude"), ("lon", "longitude")];

/// The property `name`'s schema without the descriptions that say nothing its schema does
/// not: one that only restates the name ("Tags." on `tags`, "Its technology." on
/// `technology`, "The container." on `container_name`), one that only lists its `enum`
/// ("`inbound` or `outbound`."), and its items' when they restate the name ("A component."
/// on `components`) or are constants, whose values say what they are.
fn drop_empty_descriptions(schema: &mut JsonObject, name: &str) {
    let mut said = words(&split_camel(name));
    for (short, long) in SHORT_NAMES {
        if said.iter().any(|word| word == short) {
            said.push(long.to_owned());
        }
    }
    let items_enum = schema.get("items").and_then(|items| items.get("enum"));
    for values in [schema.get("enum"), items_enum].into_iter().flatten() {
        for value in values
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            said.extend(words(value));
        }
    }
    if says_nothing_more(schema, &said) {
        schema.remove("description");
    }
    if let Some(Value::Object(items)) = schema.get_mut("items")
        && (items.contains_key("enum") || says_nothing_more(items, &said))
    {
        items.remove("description");
    }
}

/// Whether `schema`'s description uses only the words `said` and [`EMPTY_WORDS`].
fn says_nothing_more(schema: &JsonObject, said: &[String]) -> bool {
    let Some(Value::String(description)) = schema.get("description") else {
        return false;
    };
    let words = words(description);
    !words.is_empty()
        && words
            .iter()
            .all(|word| EMPTY_WORDS.contains(&word.as_str()) || said.contains(word))
}

/// `name` with a space before each capital (`maxResults` → `max Results`).
fn split_camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_uppercase() {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// The lower-case words of `text`, each without a plural `s`.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(|word| {
            let word = word.to_lowercase();
            match word.strip_suffix('s') {
                Some(stem) if stem.len() > 2 => stem.to_owned(),
                _ => word,
            }
        })
        .collect()
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
    fn a_described_choice_of_forms_says_it_once() {
        let schema = json!({
            "type": "object",
            "properties": {
                "stop": {"description": "Stop id or {type: label}.", "anyOf": [
                    {"type": "string", "description": "A stop id."},
                    {"type": "object", "description": "By id or saved label.",
                     "properties": {"type": {"const": "label"}}}]},
                "via": {"anyOf": [
                    {"type": "string", "description": "A stop id."},
                    {"type": "null"}], "description": "Through a stop."}
            },
            "required": ["stop"]
        });
        let served = compact_input(schema.as_object().unwrap());
        let stop = &served["properties"]["stop"];
        assert_eq!(stop["description"], "Stop id or {type: label}.");
        assert!(stop["anyOf"][0].get("description").is_none());
        assert!(stop["anyOf"][1].get("description").is_none());
        assert_eq!(
            served["properties"]["via"]["description"], "Through a stop.",
            "an optional value's own words stay"
        );
    }

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
                    {"type": "null"}], "description": "Of the names (default en)."}
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
                    "language": {"type": "string", "enum": ["fi", "en"], "description": "Of the names (default en)."}
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
    fn the_served_form_leaves_out_closed_objects_types_its_values_give_and_repeats() {
        let schema = json!({"type": "object", "additionalProperties": false, "properties": {
            "mode": {"type": "string", "enum": ["bus", "tram"]},
            "kind": {"type": "string", "const": "coords"},
            "mixed": {"type": "string", "enum": ["a", 1]},
            "open": {"type": "object", "additionalProperties": {"type": "string"}},
            "at": {"oneOf": [{"type": "object", "additionalProperties": false,
                              "properties": {"lat": {"type": "number"}}}]},
            "place": {"oneOf": [
                {"type": "object", "required": ["kind"], "properties": {"kind": {"const": "a"}}},
                {"type": "object", "required": ["kind"], "properties": {"kind": {"const": "b"}}}
            ]},
            "mixed_union": {"oneOf": [{"type": "string"}, {"type": "object"}]}
        }});
        let served = super::served_input(schema.as_object().unwrap());
        assert_eq!(
            Value::Object(served),
            json!({"type": "object", "properties": {
                "mode": {"enum": ["bus", "tram"]},
                "kind": {"const": "coords"},
                "mixed": {"type": "string", "enum": ["a", 1]},
                "open": {"type": "object", "additionalProperties": {"type": "string"}},
                "at": {"oneOf": [{"type": "object", "properties": {"lat": {"type": "number"}}}]},
                "place": {"type": "object", "required": ["kind"], "oneOf": [
                    {"properties": {"kind": {"const": "a"}}},
                    {"properties": {"kind": {"const": "b"}}}
                ]},
                "mixed_union": {"oneOf": [{"type": "string"}, {"type": "object"}]}
            }})
        );
    }

    #[test]
    fn a_description_that_only_restates_its_name_or_shape_goes() {
        let schema = json!({"type": "object", "properties": {
            "tags": {"type": "array", "description": "Tags."},
            "technology": {"type": "string", "description": "Its technology."},
            "container_name": {"type": "string", "description": "The container."},
            "maxResults": {"type": "integer", "description": "Max results."},
            "label": {"type": "string", "description": "Display label."},
            "lat": {"type": "number", "description": "Latitude."},
            "direction": {"enum": ["inbound", "outbound"], "description": "`inbound` or `outbound`."},
            "level": {"enum": ["system", "container"], "description": "`system` (default) or `container`."},
            "components": {"type": "array", "items": {"type": "object", "description": "A component."}},
            "modes": {"type": "array", "items": {"enum": ["bus"], "description": "A mode a journey may use."}},
            "speed": {"anyOf": [{"enum": ["slow"], "description": "How fast one walks."}, {"type": "null"}],
                      "description": "The speed."},
            "at": {"oneOf": [
                {"type": "object", "description": "`{type: 'coords', value}`.",
                 "properties": {"value": {"type": "string", "description": "The point."}}},
                {"type": "object", "description": "`{type: 'label'}`: a saved place.",
                 "properties": {"value": {"type": "string"}}}
            ]}
        }});
        let served = compact_input(schema.as_object().unwrap());
        let properties = &served["properties"];
        for name in [
            "tags",
            "technology",
            "container_name",
            "maxResults",
            "lat",
            "direction",
        ] {
            assert_eq!(properties[name].get("description"), None, "{name}");
        }
        assert_eq!(properties["components"]["items"].get("description"), None);
        assert_eq!(properties["modes"]["items"].get("description"), None);
        // The type's own words do not take the place of a description that said nothing.
        assert_eq!(properties["speed"], json!({"enum": ["slow"]}));
        assert_eq!(
            properties["level"]["description"],
            "`system` (default) or `container`."
        );
        assert_eq!(properties["label"]["description"], "Display label.");
        let branches = &properties["at"]["oneOf"];
        assert_eq!(branches[0].get("description"), None);
        assert_eq!(branches[0]["properties"]["value"].get("description"), None);
        assert_eq!(
            branches[1]["description"],
            "`{type: 'label'}`: a saved place."
        );
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
