//! The output schemas of live tools gain the fields of [`ServedFields`] (`asOf`, `stale`)
//! in their success body: the catalog adds them to every answer that came from the
//! upstream layer.

use serde_json::Value;

use super::{JsonObject, output_schema};
use crate::http::ServedFields;

/// `schema` (an output or success schema) with `asOf` and `stale` among the properties of
/// its success body: the root's own properties (TfL's one shape, a success schema), or
/// the first branch of an `anyOf` (an `Answer`: success or error envelope).
pub fn with_served_fields(mut schema: JsonObject) -> JsonObject {
    let fields = output_schema::<ServedFields>();
    let Some(Value::Object(added)) = fields.get("properties") else {
        return schema;
    };
    if let Some(success) = success_body(&mut schema)
        && let Some(Value::Object(properties)) = success.get_mut("properties")
    {
        for (name, field) in added {
            properties.insert(name.clone(), field.clone());
        }
    }
    schema
}

fn success_body(schema: &mut JsonObject) -> Option<&mut JsonObject> {
    if schema.contains_key("properties") {
        return Some(schema);
    }
    let first = schema.get("anyOf")?.get(0)?;
    match first.get("$ref").and_then(Value::as_str) {
        Some(reference) => {
            let name = reference.strip_prefix("#/$defs/")?.to_owned();
            schema.get_mut("$defs")?.get_mut(&name)?.as_object_mut()
        }
        None => schema.get_mut("anyOf")?.get_mut(0)?.as_object_mut(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(value: Value) -> JsonObject {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn the_fields_join_the_success_body_of_each_shape_and_nothing_else() {
        let one_shape = with_served_fields(object(json!({"properties": {"code": {}}})));
        assert!(one_shape["properties"]["asOf"]["description"].is_string());
        assert_eq!(one_shape["properties"]["stale"]["type"], "boolean");
        let answer = with_served_fields(object(json!({
            "anyOf": [{"$ref": "#/$defs/Ok"}, {"$ref": "#/$defs/Err"}],
            "$defs": {"Ok": {"properties": {}}, "Err": {"properties": {}}}
        })));
        assert!(answer["$defs"]["Ok"]["properties"]["asOf"].is_object());
        assert_eq!(answer["$defs"]["Err"]["properties"], json!({}));
        assert!(answer.get("properties").is_none());
    }
}
