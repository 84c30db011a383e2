//! JSON schemas of tool inputs and outputs, generated from the contract types, and the
//! forms of an input schema that model hosts accept: inlined (no `$ref`, every surface
//! serves it), OpenAI strict ([`strict`]) and Gemini function declarations ([`gemini`]).

mod compact;
pub mod gemini;
mod inline;
pub mod strict;

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

pub use compact::{compact_input, compact_output, served_input};
pub use inline::inline_refs;

/// A JSON object (a schema, or tool arguments).
pub type JsonObject = Map<String, Value>;

/// The input schema of `T` with its named definitions (`$defs`): draft 2020-12 "for
/// deserialize", root `type: object`, without the `$schema` key some MCP clients reject.
/// Code generators read this form to name the types they write; every surface serves it
/// through [`inline_refs`] (the catalog keeps both).
pub fn input_type_schema<T: JsonSchema>() -> JsonObject {
    generate::<T>(SchemaSettings::draft2020_12().for_deserialize())
}

/// The output schema of `T`: draft 2020-12 "for serialize", without `$schema`.
pub fn output_schema<T: JsonSchema>() -> JsonObject {
    generate::<T>(SchemaSettings::draft2020_12().for_serialize())
}

fn generate<T: JsonSchema>(settings: SchemaSettings) -> JsonObject {
    let schema = settings.into_generator().into_root_schema_for::<T>();
    let mut object = match schema.to_value() {
        Value::Object(map) => map,
        // A boolean schema: describe it as an object schema that accepts anything.
        _ => Map::new(),
    };
    object.remove("$schema");
    object
        .entry("type")
        .or_insert_with(|| Value::String("object".into()));
    object
}

/// The JSON types `schema` admits (`type` as a string or a list; empty when it names none).
pub(crate) fn types_of(schema: &JsonObject) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(kind)) => vec![kind.as_str()],
        Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// The names `schema` lists as `required`.
pub(crate) fn required_of(schema: &JsonObject) -> Vec<&str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Whether `schema` admits `null` (a `null` type, or a `null` branch of `anyOf`/`oneOf`).
pub(crate) fn admits_null(schema: &JsonObject) -> bool {
    types_of(schema).contains(&"null")
        || schema.get("const") == Some(&Value::Null)
        || ["anyOf", "oneOf"].iter().any(|key| {
            schema
                .get(*key)
                .and_then(Value::as_array)
                .is_some_and(|branches| {
                    branches
                        .iter()
                        .filter_map(Value::as_object)
                        .any(admits_null)
                })
        })
}
