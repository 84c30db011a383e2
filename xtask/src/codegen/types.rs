//! The one JSON-schema walker behind the Python and TypeScript type emitters: it turns a
//! schema into a type expression, naming every object (and every named definition) once.
//! What differs per language (spelling of primitives, unions, arrays, object and alias
//! definitions) is a [`Language`].

use std::collections::BTreeMap;

use anyhow::{Result, bail};
use serde_json::{Map, Value};

/// One property of an object type, as a language writes it.
pub struct Field {
    /// The property's JSON name.
    pub name: String,
    /// Its type expression.
    pub ty: String,
    /// Whether the object always has it.
    pub required: bool,
    /// Its description (may be empty).
    pub description: String,
}

/// How one language spells types.
pub trait Language {
    /// Whether a type's definition comes before the types it uses (TypeScript) rather
    /// than after them (Python, where a name must exist before it is used at runtime).
    const PARENTS_FIRST: bool;
    /// The type of anything.
    fn any(&self) -> &'static str;
    /// The type of an object with no known properties.
    fn open_object(&self) -> &'static str;
    /// The primitive `string`, `integer`, `number`, `boolean` or `null`.
    fn primitive(&self, kind: &str) -> Option<&'static str>;
    /// One literal value.
    fn literal(&self, value: &Value) -> String;
    /// The union of distinct `parts` (each a type expression).
    fn union(&self, parts: Vec<String>) -> String;
    /// The type of an array of `item`.
    fn array(&self, item: String) -> String;
    /// The definition of object type `name`.
    fn object(&self, name: &str, description: &str, fields: &[Field]) -> String;
    /// The definition of `name` as another name for `target`.
    fn alias(&self, name: &str, description: Option<&str>, target: &str) -> String;
}

/// Names and defines the types of a set of schemas in one language.
pub struct Types<L: Language> {
    lang: L,
    schemas: BTreeMap<String, Value>,
    sources: BTreeMap<String, String>,
    reserved: Vec<String>,
    finished: Vec<String>,
}

impl<L: Language> Types<L> {
    /// No types yet.
    pub fn new(lang: L) -> Self {
        Self {
            lang,
            schemas: BTreeMap::new(),
            sources: BTreeMap::new(),
            reserved: Vec::new(),
            finished: Vec::new(),
        }
    }

    /// Every definition, in the language's order.
    pub fn definitions(&self) -> Vec<&str> {
        let order = if L::PARENTS_FIRST {
            &self.reserved
        } else {
            &self.finished
        };
        order
            .iter()
            .map(|name| self.sources[name].as_str())
            .collect()
    }

    /// The type expression of `schema`; `defs` resolves its `$ref`s and `hint` names
    /// an object that has no title.
    pub fn type_of(
        &mut self,
        schema: &Value,
        defs: &Map<String, Value>,
        hint: &str,
    ) -> Result<String> {
        let Some(object) = schema.as_object().filter(|o| !o.is_empty()) else {
            return Ok(self.lang.any().to_owned());
        };
        if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
            let name = reference.rsplit('/').next().unwrap_or(reference);
            let Some(target) = defs.get(name) else {
                bail!("codegen: unknown reference {reference}");
            };
            return self.named(name, target, defs);
        }
        if let Some(value) = object.get("const") {
            return Ok(self.lang.literal(value));
        }
        if let Some(values) = object.get("enum").and_then(Value::as_array) {
            let parts = values.iter().map(|v| self.lang.literal(v)).collect();
            return Ok(self.lang.union(parts));
        }
        for combination in ["oneOf", "anyOf"] {
            if let Some(branches) = object.get(combination).and_then(Value::as_array) {
                let mut parts = Vec::new();
                for (i, branch) in branches.iter().enumerate() {
                    parts.push(self.type_of(branch, defs, &format!("{hint}{i}"))?);
                }
                return Ok(self.lang.union(parts));
            }
        }
        match object.get("type") {
            Some(Value::Array(kinds)) => {
                let mut parts = Vec::new();
                for kind in kinds {
                    let mut single = object.clone();
                    single.insert("type".into(), kind.clone());
                    parts.push(self.type_of(&Value::Object(single), defs, hint)?);
                }
                Ok(self.lang.union(parts))
            }
            Some(Value::String(kind)) if kind == "array" => {
                let items = object.get("items").cloned().unwrap_or(Value::Bool(true));
                let item = self.type_of(&items, defs, &format!("{hint}Item"))?;
                Ok(self.lang.array(item))
            }
            Some(Value::String(kind)) if self.lang.primitive(kind).is_some() => {
                Ok(self.lang.primitive(kind).unwrap_or_default().to_owned())
            }
            _ if is_object(object) => {
                let has_properties = object
                    .get("properties")
                    .and_then(Value::as_object)
                    .is_some_and(|p| !p.is_empty());
                if !has_properties {
                    return Ok(self.lang.open_object().to_owned());
                }
                let title = object.get("title").and_then(Value::as_str).unwrap_or(hint);
                let title = title.to_owned();
                self.named(&title, schema, defs)
            }
            _ => Ok(self.lang.any().to_owned()),
        }
    }

    /// The type expression of a root schema (one with its own `$defs`): a titled root
    /// that is not an object (a union of answers) is named after its title too.
    pub fn root_type_of(&mut self, schema: &Value, hint: &str) -> Result<String> {
        let (root, defs) = split_defs(schema);
        match root.get("title").and_then(Value::as_str) {
            Some(title) if !root.as_object().is_some_and(is_object) => {
                let title = title.to_owned();
                self.named(&title, &root, &defs)
            }
            _ => self.type_of(&root, &defs, hint),
        }
    }

    /// The name of `schema` as type `name` (PascalCase), defining it on first use.
    fn named(&mut self, name: &str, schema: &Value, defs: &Map<String, Value>) -> Result<String> {
        let name = pascal(name);
        if let Some(known) = self.schemas.get(&name) {
            if known != schema {
                bail!("codegen: two different types are both named {name}; rename one in core");
            }
            return Ok(name);
        }
        self.schemas.insert(name.clone(), schema.clone());
        self.sources.insert(name.clone(), String::new());
        self.reserved.push(name.clone());
        let object = schema.as_object().cloned().unwrap_or_default();
        let description = object.get("description").and_then(Value::as_str);
        let source = if is_object(&object) {
            let mut fields = Vec::new();
            let required: Vec<&str> = object
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            for (property, sub) in object
                .get("properties")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
            {
                fields.push(Field {
                    ty: self.type_of(sub, defs, &format!("{name}{}", pascal(property)))?,
                    required: required.contains(&property.as_str()),
                    description: sub
                        .get("description")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned(),
                    name: property.clone(),
                });
            }
            let fallback = format!("The `{name}` object.");
            self.lang
                .object(&name, description.unwrap_or(&fallback), &fields)
        } else {
            let mut rest = object.clone();
            rest.remove("title");
            let target = self.type_of(&Value::Object(rest), defs, &name)?;
            self.lang.alias(&name, description, &target)
        };
        self.sources.insert(name.clone(), source);
        self.finished.push(name.clone());
        Ok(name)
    }
}

/// Whether `schema` is one object type (not a union of them, whatever its `type` says).
fn is_object(schema: &Map<String, Value>) -> bool {
    let union = schema.contains_key("anyOf") || schema.contains_key("oneOf");
    !union
        && (schema.get("type").and_then(Value::as_str) == Some("object")
            || schema.contains_key("properties"))
}

/// `snake_case`, `kebab-case` or `words` as `PascalCase`.
pub fn pascal(name: &str) -> String {
    name.split(['_', '-', ' ', '\t', '\n'])
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map(|first| first.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

/// `schema` without its `$defs`, and those `$defs`: a root schema split for [`Types::type_of`].
pub fn split_defs(schema: &Value) -> (Value, Map<String, Value>) {
    let mut root = schema.as_object().cloned().unwrap_or_default();
    let defs = match root.remove("$defs") {
        Some(Value::Object(defs)) => defs,
        _ => Map::new(),
    };
    (Value::Object(root), defs)
}
