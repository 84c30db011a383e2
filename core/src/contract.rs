//! The catalog as the whole contract: what [`Catalog::contract_json`] exports for the
//! code generators and the docs. Besides each tool's MCP fields it states each tool's
//! success schema, error schema and error codes ([`crate::error_code`], read from the
//! error schema, so no generator guesses which branch is the error), and every
//! [`ErrorKind`] with its codes and its name in each language.

use std::collections::BTreeSet;

use serde::Serialize;
use serde_json::Value;

use crate::catalog::{Catalog, ToolEntry, entry_json};
use crate::error_kind::ErrorKind;

/// The language names of an error kind: what each binding raises for it.
#[derive(Debug, Clone, Serialize)]
struct ErrorKindJson {
    name: &'static str,
    variant: &'static str,
    description: &'static str,
    /// The codes of this kind that some tool of this build may answer.
    codes: Vec<String>,
    /// The Python exception class (`toolpack.NotFoundError`).
    python: String,
    /// The `kind` of Node's `ToolpackError`.
    typescript: &'static str,
    /// The Kotlin exception (`ToolpackException.NotFound`).
    kotlin: String,
    /// The Swift error case (`ToolpackError.notFound`).
    swift: String,
}

impl ErrorKindJson {
    fn of(kind: ErrorKind, catalog: &Catalog) -> Self {
        let codes: BTreeSet<String> = catalog
            .entries()
            .iter()
            .flat_map(|entry| entry.error_codes.iter())
            .filter(|code| code.kind == kind.as_str())
            .map(|code| code.code.clone())
            .collect();
        let variant = kind.variant_name();
        Self {
            name: kind.as_str(),
            variant,
            description: kind.description(),
            codes: codes.into_iter().collect(),
            python: python_exception(kind),
            typescript: kind.as_str(),
            kotlin: format!("ToolpackException.{variant}"),
            swift: format!("ToolpackError.{}", lower_first(variant)),
        }
    }
}

/// The Python exception class of `kind`: `<Variant>Error`, the base class for `Other`.
pub fn python_exception(kind: ErrorKind) -> String {
    match kind {
        ErrorKind::Other => "ToolpackError".to_owned(),
        _ => format!("{}Error", kind.variant_name()),
    }
}

fn lower_first(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map(|first| first.to_lowercase().chain(chars).collect())
        .unwrap_or_default()
}

/// One tool's contract: its MCP fields plus success schema, error schema and codes.
fn tool_contract_json(entry: &ToolEntry) -> Value {
    let mut json = entry_json(entry);
    if let Value::Object(map) = &mut json {
        map.insert("summary".into(), entry.spec.summary.into());
        map.insert("needs".into(), entry.spec.needs.into());
        map.insert("toolsetTitle".into(), entry.spec.toolset.title().into());
        map.insert(
            "modelVisibleBytes".into(),
            entry.model_visible_bytes().into(),
        );
        map.insert(
            "adapterBytes".into(),
            crate::catalog::AdapterSchema::ALL
                .iter()
                .map(|form| (form.as_str().to_owned(), entry.adapter_bytes(*form).into()))
                .collect::<serde_json::Map<_, _>>()
                .into(),
        );
        map.insert(
            "view".into(),
            entry
                .view()
                .map(|v| serde_json::json!({ "uri": v.uri, "title": v.title }))
                .unwrap_or_default(),
        );
        map.insert(
            "inputTypeSchema".into(),
            Value::Object((*entry.input_type_schema).clone()),
        );
        map.insert(
            "successSchema".into(),
            Value::Object((*entry.success_schema).clone()),
        );
        map.insert(
            "errorSchema".into(),
            Value::Object((*entry.error_schema).clone()),
        );
        map.insert(
            "errorCodes".into(),
            serde_json::to_value(&*entry.error_codes).unwrap_or_default(),
        );
    }
    json
}

impl Catalog {
    /// The whole contract as JSON, what the code generators and the docs read:
    /// `{"tools": [...], "errorKinds": [...]}`. Each tool has the fields of
    /// [`Catalog::to_json`] plus `summary`, `needs` and `toolsetTitle` (for the README's
    /// tool table), `modelVisibleBytes` ([`crate::ToolEntry::model_visible_bytes`]), `adapterBytes` (`served`, `strict` and `gemini`: [`crate::ToolEntry::adapter_bytes`]), `view` (its MCP Apps view's `uri` and `title`, or `null`), `inputTypeSchema` (the input schema with its `$defs`, to name types),
    /// `successSchema`, `errorSchema` and `errorCodes`
    /// (`code`, `kind`, `description`); each error kind has its `name`, `variant`,
    /// `description`, `codes` and its class in each language (`python`, `typescript`,
    /// `kotlin`, `swift`).
    pub fn contract_json(&self) -> Value {
        let tools: Vec<Value> = self.entries().iter().map(tool_contract_json).collect();
        let kinds: Vec<ErrorKindJson> = ErrorKind::ALL
            .iter()
            .map(|&kind| ErrorKindJson::of(kind, self))
            .collect();
        serde_json::json!({ "tools": tools, "errorKinds": kinds })
    }
}
