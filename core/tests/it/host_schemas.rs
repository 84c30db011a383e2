//! The input schemas model hosts receive: inlined on every surface, a strict form for
//! OpenAI strict mode where the input allows one, a Gemini form inside Gemini's subset,
//! and argument errors that name the field.

use serde_json::{Value, json};
use toolpack::schema::gemini::gemini_violations;
use toolpack::{Catalog, Config, Toolpack};

fn refs_in(value: &Value) -> usize {
    match value {
        Value::Object(map) => {
            usize::from(map.contains_key("$ref") || map.contains_key("$defs"))
                + map.values().map(refs_in).sum::<usize>()
        }
        Value::Array(items) => items.iter().map(refs_in).sum(),
        _ => 0,
    }
}

#[test]
fn served_input_schemas_have_no_references() {
    let catalog = Catalog::get().to_json();
    for tool in catalog.as_array().unwrap() {
        let name = &tool["name"];
        assert_eq!(
            refs_in(&tool["inputSchema"]),
            0,
            "{name}: $ref/$defs served"
        );
        assert_eq!(refs_in(&tool["geminiInputSchema"]), 0, "{name}");
        assert_eq!(refs_in(&tool["strictInputSchema"]), 0, "{name}");
    }
    // The type form keeps the names code generators use.
    let save = Catalog::get().find("save_user_variable").unwrap();
    assert!(save.input_type_schema.contains_key("$defs"));
}

#[test]
fn every_gemini_schema_fits_the_function_declaration_subset() {
    for entry in Catalog::get().entries() {
        let gemini = Value::Object((*entry.gemini_input_schema).clone());
        assert_eq!(
            gemini_violations(&gemini),
            Vec::<String>::new(),
            "{}",
            entry.spec.name
        );
        assert_eq!(gemini["type"], json!("object"), "{}", entry.spec.name);
    }
}

/// Every object in a strict schema is closed and lists every property as required.
fn assert_strict(schema: &Value, at: &str) {
    let Some(object) = schema.as_object() else {
        return;
    };
    if let Some(properties) = object.get("properties").and_then(Value::as_object) {
        assert_eq!(object["additionalProperties"], json!(false), "{at}");
        let required: Vec<&str> = object["required"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let names: Vec<&str> = properties.keys().map(String::as_str).collect();
        assert_eq!(required, names, "{at}");
    }
    for (key, child) in object {
        match child {
            Value::Array(items) => items
                .iter()
                .enumerate()
                .for_each(|(i, item)| assert_strict(item, &format!("{at}/{key}/{i}"))),
            _ => assert_strict(child, &format!("{at}/{key}")),
        }
    }
}

#[test]
fn strict_schemas_close_every_object_and_exist_for_every_tool_that_allows_one() {
    let mut without = Vec::new();
    for entry in Catalog::get().entries() {
        match &entry.strict_input_schema {
            Some(strict) => assert_strict(&Value::Object((**strict).clone()), entry.spec.name),
            None => without.push(entry.spec.name),
        }
    }
    // Every input of this catalog is a closed structure: all of them have a strict form.
    assert_eq!(without, Vec::<&str>::new());
}

fn toolpack() -> Toolpack {
    let dir = std::env::temp_dir().join(format!("toolpack-host-schemas-{}", std::process::id()));
    let config = Config::default()
        .to_builder()
        .set_pairs([("TOOLPACK_DATA_DIR", dir.to_str().unwrap())])
        .unwrap()
        .build();
    Toolpack::new(config).unwrap()
}

#[tokio::test]
async fn a_strict_call_with_nulls_for_optional_fields_means_the_plain_call() {
    let toolpack = toolpack();
    let strict = Catalog::get().find("stationToilets").unwrap();
    let strict = strict.strict_input_schema.as_ref().unwrap();
    // Every optional property, sent as null, as a strict-mode model does.
    let mut arguments = serde_json::Map::new();
    for name in strict["properties"].as_object().unwrap().keys() {
        arguments.insert(name.clone(), Value::Null);
    }
    arguments.insert("stationName".into(), json!("Kings Cross"));
    let strict_answer = toolpack
        .call_json("stationToilets", Value::Object(arguments))
        .await
        .unwrap();
    let plain = toolpack
        .call_json("stationToilets", json!({"stationName": "Kings Cross"}))
        .await
        .unwrap();
    assert!(!strict_answer.is_error(), "{}", strict_answer.body);
    assert_eq!(strict_answer.body, plain.body);
}

#[tokio::test]
async fn a_bad_argument_is_named_by_pointer_with_what_was_expected() {
    let toolpack = toolpack();
    let answer = toolpack
        .call_json(
            "save_user_variable",
            json!({"key": "home", "type": "location", "value": {"lat": 60.17}}),
        )
        .await
        .unwrap();
    assert_eq!(answer.error_code.as_deref(), Some("validation-error"));
    let message = answer.body["error"]["message"].as_str().unwrap();
    assert!(message.contains("`/value`"), "{message}");
    assert!(
        message.contains("Expected either an object with `lat`, `lon`"),
        "{message}"
    );
    assert!(!message.contains("untagged enum"), "{message}");
    let wrong_type = toolpack
        .call_json("stationToilets", json!({"stationName": 42}))
        .await
        .unwrap();
    assert_eq!(wrong_type.error_code.as_deref(), Some("VALIDATION_ERROR"));
    assert!(
        wrong_type.body["message"]
            .as_str()
            .unwrap()
            .contains("`/stationName`"),
        "{}",
        wrong_type.body
    );
}

/// `schema` with every `additionalProperties: false` left out.
fn opened(schema: &toolpack::schema::JsonObject) -> toolpack::schema::JsonObject {
    schema
        .iter()
        .filter(|(key, value)| !(key.as_str() == "additionalProperties" && **value == json!(false)))
        .map(|(key, value)| (key.clone(), opened_value(value)))
        .collect()
}

fn opened_value(value: &Value) -> Value {
    match value {
        Value::Object(object) => Value::Object(opened(object)),
        Value::Array(items) => Value::Array(items.iter().map(opened_value).collect()),
        other => other.clone(),
    }
}

/// Whether `schema` (read as JSON Schema) refuses `arguments`.
fn refuses(schema: &toolpack::schema::JsonObject, arguments: &Value) -> bool {
    let validator = jsonschema::validator_for(&Value::Object(schema.clone())).expect("a schema");
    !validator.is_valid(arguments)
}

#[test]
fn the_compact_forms_refuse_every_vector_argument_the_full_forms_refused() {
    use toolpack::schema::gemini::gemini_variant;
    use toolpack::schema::strict::strict_variant;
    let mut refused = 0;
    for case in toolpack_testkit::vectors::load_all() {
        let Some(entry) = Catalog::get().find(&case.tool) else {
            continue;
        };
        let arguments = &case.case.arguments;
        // Before: the inlined schema as it was served, and the forms made from it. The
        // served form leaves unknown fields to the core (the vectors check its refusal), so
        // it is held to what the full form refuses with its objects open.
        let full = toolpack::schema::inline_refs(entry.input_type_schema.as_ref().clone());
        let forms = [
            (
                Some(opened(&full)),
                Some(entry.input_schema.as_ref().clone()),
                "served",
            ),
            (
                strict_variant(&full),
                entry.strict_input_schema.as_deref().cloned(),
                "strict",
            ),
            (
                Some(gemini_variant(&full)),
                Some(entry.gemini_input_schema.as_ref().clone()),
                "gemini",
            ),
        ];
        for (before, now, form) in forms {
            let (Some(before), Some(now)) = (before, now) else {
                continue;
            };
            if refuses(&before, arguments) {
                refused += 1;
                assert!(
                    refuses(&now, arguments),
                    "{}: the {form} schema now takes {arguments}",
                    case.label()
                );
            }
        }
    }
    assert!(refused > 50, "the vectors hold bad arguments: {refused}");
}

/// Every property path of `schema` (through properties, items and unions), with its
/// enum (without `null`) where it has one.
fn fields(schema: &Value, at: &str, found: &mut Vec<(String, Option<Vec<Value>>)>) {
    let Some(object) = schema.as_object() else {
        return;
    };
    let enumerated = object.get("enum").and_then(Value::as_array).map(|values| {
        values
            .iter()
            .filter(|v| !v.is_null())
            .cloned()
            .collect::<Vec<_>>()
    });
    if enumerated.is_some() {
        found.push((at.to_owned(), enumerated));
    }
    if let Some(Value::Object(properties)) = object.get("properties") {
        for (name, sub) in properties {
            found.push((format!("{at}/{name}"), None));
            fields(sub, &format!("{at}/{name}"), found);
        }
    }
    for key in ["items", "anyOf", "oneOf"] {
        match object.get(key) {
            Some(Value::Array(branches)) => {
                for branch in branches {
                    fields(branch, at, found);
                }
            }
            Some(sub) => fields(sub, at, found),
            None => {}
        }
    }
    // A union of constants is served as an enum of them.
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = object.get(key) {
            let constants: Vec<Value> = branches
                .iter()
                .filter_map(|b| b.get("const").cloned())
                .collect();
            if !constants.is_empty()
                && constants.len()
                    == branches
                        .iter()
                        .filter(|b| b.get("type") != Some(&json!("null")))
                        .count()
            {
                found.push((at.to_owned(), Some(constants)));
            }
        }
    }
}

#[test]
fn every_tool_keeps_every_field_and_enum_value() {
    for entry in Catalog::get().entries() {
        let full = Value::Object(toolpack::schema::inline_refs(
            entry.input_type_schema.as_ref().clone(),
        ));
        let (mut before, mut after) = (Vec::new(), Vec::new());
        fields(&full, "", &mut before);
        fields(
            &Value::Object(entry.input_schema.as_ref().clone()),
            "",
            &mut after,
        );
        for field in &before {
            assert!(
                after.contains(field),
                "{}: {field:?} is not served",
                entry.spec.name
            );
        }
    }
}
