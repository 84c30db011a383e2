//! The catalog's contract JSON ([`toolpack::Catalog::contract_json`]), read into the few
//! fields the generators use.

use anyhow::{Context, Result};
use serde_json::Value;

/// The whole contract of this build.
pub struct Contract {
    /// Every tool, in catalog order.
    pub tools: Vec<Tool>,
    /// Every error kind, in the core's order.
    pub error_kinds: Vec<ErrorKindInfo>,
}

/// One tool of the catalog.
pub struct Tool {
    /// Its catalog name.
    pub name: String,
    /// Its human title.
    pub title: String,
    /// Its family (`tfl`, `digitransit`, `loko`).
    pub toolset: String,
    /// Its family as people write it (`TfL`).
    pub toolset_title: String,
    /// What it does, in one line for people.
    pub summary: String,
    /// What it needs beyond the crate (markdown; empty for nothing).
    pub needs: String,
    /// Its MCP Apps view, if it has one.
    pub view: Option<View>,
    /// MCP annotations (`readOnlyHint`, …).
    pub annotations: Value,
    /// The bytes of its definition a model reads on every turn.
    pub model_visible_bytes: u64,
    /// The bytes of what the framework adapters give a model for it, by input schema form:
    /// served (LangChain, the AI SDK), strict (OpenAI Agents), Gemini (pydantic-ai there).
    pub adapter_bytes: [u64; 3],
    /// What it does.
    pub description: String,
    /// Its arguments' schema.
    pub input_schema: Value,
    /// What a successful call returns.
    pub success_schema: Value,
    /// The codes it may fail with.
    pub error_codes: Vec<ErrorCodeInfo>,
}

/// A tool's MCP Apps view.
pub struct View {
    /// Its resource URI.
    pub uri: String,
    /// Its title.
    pub title: String,
}

/// One error code of a tool.
pub struct ErrorCodeInfo {
    /// The contract's code.
    pub code: String,
    /// Its kind's name.
    pub kind: String,
    /// What it means.
    pub description: String,
}

/// One error kind and its class in each language.
pub struct ErrorKindInfo {
    /// `not_found`.
    pub name: String,
    /// What it means.
    pub description: String,
    /// The codes of this kind.
    pub codes: Vec<String>,
    /// `NotFoundError`.
    pub python: String,
    /// `ToolpackException.NotFound`.
    pub kotlin: String,
    /// `ToolpackError.notFound`.
    pub swift: String,
}

impl Contract {
    /// The contract of the toolpack this xtask links.
    pub fn of_this_build() -> Result<Self> {
        Self::from_json(&toolpack::Catalog::get().contract_json())
    }

    fn from_json(json: &Value) -> Result<Self> {
        let tools = array(json, "tools")?
            .iter()
            .map(|tool| {
                Ok(Tool {
                    name: text(tool, "name")?,
                    title: text(tool, "title")?,
                    toolset: text(tool, "toolset")?,
                    toolset_title: text(tool, "toolsetTitle")?,
                    summary: text(tool, "summary")?,
                    needs: text(tool, "needs")?,
                    view: match &tool["view"] {
                        Value::Null => None,
                        view => Some(View {
                            uri: text(view, "uri")?,
                            title: text(view, "title")?,
                        }),
                    },
                    annotations: tool["annotations"].clone(),
                    model_visible_bytes: tool["modelVisibleBytes"].as_u64().unwrap_or_default(),
                    adapter_bytes: ["served", "strict", "gemini"]
                        .map(|form| tool["adapterBytes"][form].as_u64().unwrap_or_default()),
                    description: text(tool, "description")?,
                    input_schema: tool["inputTypeSchema"].clone(),
                    success_schema: tool["successSchema"].clone(),
                    error_codes: array(tool, "errorCodes")?
                        .iter()
                        .map(|code| {
                            Ok(ErrorCodeInfo {
                                code: text(code, "code")?,
                                kind: text(code, "kind")?,
                                description: text(code, "description")?,
                            })
                        })
                        .collect::<Result<_>>()?,
                })
            })
            .collect::<Result<_>>()?;
        let error_kinds = array(json, "errorKinds")?
            .iter()
            .map(|kind| {
                Ok(ErrorKindInfo {
                    name: text(kind, "name")?,
                    description: text(kind, "description")?,
                    codes: array(kind, "codes")?
                        .iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect(),
                    python: text(kind, "python")?,
                    kotlin: text(kind, "kotlin")?,
                    swift: text(kind, "swift")?,
                })
            })
            .collect::<Result<_>>()?;
        Ok(Self { tools, error_kinds })
    }
}

fn array<'a>(json: &'a Value, key: &str) -> Result<&'a Vec<Value>> {
    json.get(key)
        .and_then(Value::as_array)
        .with_context(|| format!("contract JSON: no array `{key}`"))
}

fn text(json: &Value, key: &str) -> Result<String> {
    json.get(key)
        .and_then(Value::as_str)
        .map(str::to_owned)
        .with_context(|| format!("contract JSON: no string `{key}`"))
}
