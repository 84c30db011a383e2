//! `$ref` inlining: a schema whose references are replaced by the definitions they name.
//! Several model APIs and MCP hosts reject `$ref`/`$defs` or flatten them badly; every
//! input schema toolpack serves is inlined.

use serde_json::Value;

use super::JsonObject;

/// `schema` with every local `$ref` (`#/$defs/Name`, `#/definitions/Name`) replaced by the
/// definition it names, the reference's own keywords (a `description`) kept on top, and
/// `$defs` dropped. A recursive definition cannot be inlined: its references stay, and so
/// do the definitions they need.
pub fn inline_refs(mut schema: JsonObject) -> JsonObject {
    let mut defs = JsonObject::new();
    for key in ["$defs", "definitions"] {
        if let Some(Value::Object(found)) = schema.remove(key) {
            defs.extend(found);
        }
    }
    if defs.is_empty() {
        return schema;
    }
    let mut root = Value::Object(schema);
    let mut kept = JsonObject::new();
    inline_value(&mut root, &defs, &mut Vec::new(), &mut kept);
    let Value::Object(mut schema) = root else {
        unreachable!("inlining keeps an object an object")
    };
    if !kept.is_empty() {
        schema.insert("$defs".into(), Value::Object(kept));
    }
    schema
}

/// Inlines the references inside `value`; `open` holds the definitions being inlined
/// (a reference to one of them is a cycle), `kept` collects the definitions left referenced.
fn inline_value(
    value: &mut Value,
    defs: &JsonObject,
    open: &mut Vec<String>,
    kept: &mut JsonObject,
) {
    match value {
        Value::Object(object) => {
            if let Some(name) = local_ref(object) {
                match defs.get(&name) {
                    Some(target) if !open.contains(&name) => {
                        let mut inlined = target.clone();
                        open.push(name);
                        inline_value(&mut inlined, defs, open, kept);
                        open.pop();
                        object.remove("$ref");
                        if let Value::Object(mut merged) = inlined {
                            // The reference's own keywords (its description) win.
                            merged.extend(std::mem::take(object));
                            *object = merged;
                        }
                        return;
                    }
                    Some(target) if !kept.contains_key(&name) => {
                        // A cycle: keep the definition, itself inlined but for its cycles.
                        kept.insert(name.clone(), target.clone());
                        let mut again = target.clone();
                        inline_value(&mut again, defs, &mut vec![name.clone()], kept);
                        kept.insert(name, again);
                    }
                    _ => {}
                }
            }
            for child in object.values_mut() {
                inline_value(child, defs, open, kept);
            }
        }
        Value::Array(items) => {
            for item in items {
                inline_value(item, defs, open, kept);
            }
        }
        _ => {}
    }
}

/// The definition name of a local `$ref` in `object`.
fn local_ref(object: &JsonObject) -> Option<String> {
    let reference = object.get("$ref")?.as_str()?;
    reference
        .strip_prefix("#/$defs/")
        .or_else(|| reference.strip_prefix("#/definitions/"))
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::inline_refs;
    use serde_json::{Value, json};

    fn object(value: Value) -> super::JsonObject {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn references_become_their_definitions_with_the_reference_keywords_on_top() {
        let schema = object(json!({
            "type": "object",
            "properties": {
                "kind": {"$ref": "#/$defs/Kind", "description": "What it is."},
                "where": {"anyOf": [{"$ref": "#/$defs/Point"}, {"type": "string"}]}
            },
            "$defs": {
                "Kind": {"type": "string", "enum": ["a", "b"], "description": "A kind."},
                "Point": {"type": "object", "properties": {"kind": {"$ref": "#/$defs/Kind"}}}
            }
        }));
        assert_eq!(
            Value::Object(inline_refs(schema)),
            json!({
                "type": "object",
                "properties": {
                    "kind": {"type": "string", "enum": ["a", "b"], "description": "What it is."},
                    "where": {"anyOf": [
                        {"type": "object", "properties": {
                            "kind": {"type": "string", "enum": ["a", "b"], "description": "A kind."}
                        }},
                        {"type": "string"}
                    ]}
                }
            })
        );
    }

    #[test]
    fn a_recursive_definition_keeps_its_reference() {
        let schema = object(json!({
            "type": "object",
            "properties": {"tree": {"$ref": "#/$defs/Tree"}},
            "$defs": {"Tree": {"type": "object", "properties": {
                "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}
            }}}
        }));
        let inlined = Value::Object(inline_refs(schema));
        assert_eq!(
            inlined["properties"]["tree"]["properties"]["children"]["items"],
            json!({"$ref": "#/$defs/Tree"})
        );
        assert!(inlined["$defs"]["Tree"].is_object());
    }
}
