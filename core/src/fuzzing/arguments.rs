//! `call_json` with structure-aware arguments: the fuzzer's bytes pick a tool and drive a
//! generator that follows the tool's input schema (types, enums, required and optional
//! fields, bounds), stepping off it now and then, so calls reach past argument checking.
//! A loko tool's project is mostly the example project (a fresh copy when the tool
//! writes), its upstreams the loopback server, its `d2` and Chromium missing.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use arbitrary::{Result, Unstructured};
use serde_json::{Map, Number, Value, json};

use super::harness::{check_answer, scratch, within_budget};
use super::upstream::{serve, toolpack};
use crate::catalog::Catalog;

/// How deep generated values nest.
const MAX_DEPTH: usize = 6;

/// One generated call of one catalog tool.
pub fn call_json(data: &[u8]) {
    let mut input = Unstructured::new(data);
    let entries = Catalog::get().entries();
    let Ok(index) = input.choose_index(entries.len()) else {
        return;
    };
    let entry = &entries[index];
    let schema = Value::Object((*entry.input_schema).clone());
    let mut arguments = if input.ratio(1, 10).unwrap_or(false) {
        any_value(&mut input, 0).unwrap_or(Value::Null)
    } else {
        from_schema(&mut input, &schema, 0).unwrap_or(Value::Null)
    };
    if let Value::Object(map) = &mut arguments
        && map.contains_key("project_path")
        && input.ratio(3, 4).unwrap_or(false)
    {
        let project = if entry.spec.annotations.read_only {
            shared_example().to_owned()
        } else {
            fresh_example()
        };
        map.insert("project_path".into(), json!(project));
    }
    serve(404, b"{\"message\":\"fuzz\"}");
    let tool = entry.spec.name;
    let answer =
        within_budget(tool, toolpack().call_json(tool, arguments.clone())).expect("a catalog tool");
    check_answer(tool, &arguments, &answer);
}

/// A value of `schema`'s shape, mostly.
fn from_schema(input: &mut Unstructured, schema: &Value, depth: usize) -> Result<Value> {
    if depth > MAX_DEPTH || input.ratio(1, 40)? {
        return any_value(input, depth);
    }
    if let Some(value) = schema.get("const") {
        return Ok(value.clone());
    }
    if let Some(Value::Array(choices)) = schema.get("enum")
        && !choices.is_empty()
    {
        return Ok(input.choose(choices)?.clone());
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(Value::Array(options)) = schema.get(key)
            && !options.is_empty()
        {
            // A branch means itself and what its parent says beside it (the served form
            // says a `type` or `required` all branches share once, beside the `oneOf`).
            let mut option = input.choose(options)?.clone();
            if let (Value::Object(branch), Some(parent)) = (&mut option, schema.as_object()) {
                for (name, value) in parent.iter().filter(|(name, _)| *name != key) {
                    branch.entry(name.clone()).or_insert_with(|| value.clone());
                }
            }
            return from_schema(input, &option, depth + 1);
        }
    }
    let kind = match schema.get("type") {
        Some(Value::String(kind)) => kind.clone(),
        Some(Value::Array(kinds)) if !kinds.is_empty() => {
            input.choose(kinds)?.as_str().unwrap_or("null").to_owned()
        }
        _ if schema.get("properties").is_some() => "object".to_owned(),
        _ => return any_value(input, depth),
    };
    Ok(match kind.as_str() {
        "object" => {
            let mut map = Map::new();
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if let Some(Value::Object(properties)) = schema.get("properties") {
                for (name, property) in properties {
                    if required.contains(&name.as_str()) || input.arbitrary::<bool>()? {
                        map.insert(name.clone(), from_schema(input, property, depth + 1)?);
                    }
                }
            }
            if input.ratio(1, 20)? {
                map.insert(text(input, 12)?, any_value(input, depth + 1)?);
            }
            Value::Object(map)
        }
        "array" => {
            let items = schema.get("items").cloned().unwrap_or(Value::Bool(true));
            let count = input.int_in_range(0..=4)?;
            let mut list = Vec::with_capacity(count);
            for _ in 0..count {
                list.push(from_schema(input, &items, depth + 1)?);
            }
            Value::Array(list)
        }
        "string" => Value::String(text(input, 80)?),
        "integer" => {
            let low = schema
                .get("minimum")
                .and_then(Value::as_i64)
                .unwrap_or(-1_000);
            let high = schema
                .get("maximum")
                .and_then(Value::as_i64)
                .unwrap_or(100_000);
            if input.ratio(1, 8)? || low > high {
                json!(input.arbitrary::<i64>()?)
            } else {
                json!(input.int_in_range(low..=high)?)
            }
        }
        "number" => {
            let low = schema
                .get("minimum")
                .and_then(Value::as_f64)
                .unwrap_or(-180.0);
            let high = schema
                .get("maximum")
                .and_then(Value::as_f64)
                .unwrap_or(180.0);
            let unit = f64::from(input.arbitrary::<u16>()?) / f64::from(u16::MAX);
            Number::from_f64(low + (high - low) * unit).map_or(Value::Null, Value::Number)
        }
        "boolean" => Value::Bool(input.arbitrary()?),
        _ => Value::Null,
    })
}

/// Any JSON value, schema or not.
fn any_value(input: &mut Unstructured, depth: usize) -> Result<Value> {
    let kind = if depth >= MAX_DEPTH {
        input.int_in_range(0..=3)?
    } else {
        input.int_in_range(0..=5)?
    };
    Ok(match kind {
        0 => Value::Null,
        1 => Value::Bool(input.arbitrary()?),
        2 => json!(input.arbitrary::<i64>()?),
        3 => Value::String(text(input, 200)?),
        4 => {
            let count = input.int_in_range(0..=4)?;
            let mut list = Vec::with_capacity(count);
            for _ in 0..count {
                list.push(any_value(input, depth + 1)?);
            }
            Value::Array(list)
        }
        _ => {
            let count = input.int_in_range(0..=4)?;
            let mut map = Map::new();
            for _ in 0..count {
                map.insert(text(input, 16)?, any_value(input, depth + 1)?);
            }
            Value::Object(map)
        }
    })
}

/// A string of at most `max` characters.
fn text(input: &mut Unstructured, max: usize) -> Result<String> {
    let text: String = input.arbitrary()?;
    Ok(text.chars().take(max).collect())
}

/// Where the calls' copies of the example project are.
fn projects() -> PathBuf {
    let dir = scratch().join("projects");
    std::fs::create_dir_all(&dir).expect("the projects directory");
    dir
}

/// The example project, copied once, for tools that only read.
fn shared_example() -> &'static str {
    static SHARED: OnceLock<String> = OnceLock::new();
    SHARED.get_or_init(|| {
        let copy = projects().join("shared");
        copy_dir(&example(), &copy);
        copy.to_string_lossy().into_owned()
    })
}

/// A fresh copy of the example project, for a tool that writes.
fn fresh_example() -> String {
    let copy = projects().join("written");
    let _ = std::fs::remove_dir_all(&copy);
    copy_dir(&example(), &copy);
    copy.to_string_lossy().into_owned()
}

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/loko/shop")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a project copy");
    for entry in std::fs::read_dir(from)
        .expect("the example project")
        .flatten()
    {
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        if source.is_dir() {
            copy_dir(&source, &target);
        } else {
            std::fs::copy(&source, &target).expect("a project file copied");
        }
    }
}
