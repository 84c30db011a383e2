//! JSON schemas of tool inputs and outputs, generated from the contract types.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

/// A JSON object (a schema, or tool arguments).
pub type JsonObject = Map<String, Value>;

/// The input schema of `T`: draft 2020-12 "for deserialize", root `type: object`,
/// without the `$schema` key some MCP clients reject.
pub fn input_schema<T: JsonSchema>() -> JsonObject {
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
