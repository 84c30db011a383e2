//! [`JsonValue`]: any JSON value inside a contract type (frontmatter keys loko does not
//! name are kept this way). Kotlin and Swift see it as JSON text.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};

/// Any JSON value; in the uniffi bindings, its JSON text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct JsonValue(pub serde_json::Value);

impl JsonSchema for JsonValue {
    fn schema_name() -> Cow<'static, str> {
        "JsonValue".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "description": "Any JSON value (kept as written)." })
    }
}

#[cfg(feature = "uniffi")]
uniffi::custom_type!(JsonValue, String, {
    lower: |value| value.0.to_string(),
    try_lift: |text| Ok(JsonValue(serde_json::from_str(&text)?)),
});
