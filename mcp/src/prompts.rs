//! The catalog's prompts over MCP ([`toolpack::prompts`]): listed where every tool a prompt
//! names is served and visible to the caller, rendered as one user message, and their
//! arguments completed (`completion/complete` for `ref/prompt`).

use std::collections::BTreeMap;

use rmcp::ErrorData as McpError;
use rmcp::model::{
    CacheScope, CompleteRequestParams, CompleteResult, CompletionInfo, GetPromptRequestParams,
    GetPromptResult, ListPromptsResult, Prompt as McpPrompt, PromptArgument as McpArgument,
    PromptMessage, Reference, Role,
};
use serde_json::Value;
use toolpack::prompts::Prompt;
use toolpack::{ToolEntry, Toolpack};

use crate::cache_hints::LIST_TTL_MS;
use crate::toolsets::ToolChoice;

/// The prompts whose every tool is among `tools` and allowed by `choice`.
pub(crate) fn offered<'a>(
    tools: &'a [&'static ToolEntry],
    choice: &'a ToolChoice,
) -> impl Iterator<Item = &'static Prompt> + 'a {
    Prompt::all().iter().filter(move |prompt| {
        prompt.tools.iter().all(|name| {
            tools
                .iter()
                .any(|t| t.spec.name == *name && choice.allows(&t.spec))
        })
    })
}

/// `prompts/list`.
pub(crate) fn list(offered: impl Iterator<Item = &'static Prompt>) -> ListPromptsResult {
    ListPromptsResult::with_all_items(offered.map(mcp_prompt).collect())
        .with_ttl_ms(LIST_TTL_MS)
        .with_cache_scope(CacheScope::Private)
}

fn mcp_prompt(prompt: &Prompt) -> McpPrompt {
    let arguments = prompt
        .arguments
        .iter()
        .map(|a| {
            McpArgument::new(a.name)
                .with_description(a.description)
                .with_required(a.required)
        })
        .collect();
    McpPrompt::new(prompt.name, Some(prompt.description), Some(arguments)).with_title(prompt.title)
}

/// The prompt `name` among the offered ones, or the JSON-RPC error for an unknown name.
fn find(
    mut offered: impl Iterator<Item = &'static Prompt>,
    name: &str,
) -> Result<&'static Prompt, McpError> {
    offered
        .find(|p| p.name == name)
        .ok_or_else(|| McpError::invalid_params(format!("unknown prompt '{name}'"), None))
}

/// `prompts/get`: the prompt's message for the request's arguments (strings; others are
/// refused).
pub(crate) fn get(
    offered: impl Iterator<Item = &'static Prompt>,
    request: &GetPromptRequestParams,
) -> Result<GetPromptResult, McpError> {
    let prompt = find(offered, &request.name)?;
    let mut arguments = BTreeMap::new();
    for (name, value) in request.arguments.iter().flatten() {
        let Value::String(value) = value else {
            return Err(McpError::invalid_params(
                format!(
                    "argument '{name}' of prompt '{}' must be a string",
                    prompt.name
                ),
                None,
            ));
        };
        arguments.insert(name.clone(), value.clone());
    }
    let text = prompt
        .render(&arguments)
        .map_err(|e| McpError::invalid_params(e.to_string(), None))?;
    Ok(
        GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
            .with_description(prompt.description),
    )
}

/// `completion/complete`: values for a prompt's argument. Nothing to offer (an argument
/// with no source, a prompt or argument this server does not have, a resource template:
/// toolpack has none) is an empty list, not an error: a host asks as a person types, and
/// an empty list is what it shows then.
pub(crate) async fn complete(
    mut offered: impl Iterator<Item = &'static Prompt>,
    toolpack: &Toolpack,
    request: &CompleteRequestParams,
) -> Result<CompleteResult, McpError> {
    let Reference::Prompt(reference) = &request.r#ref else {
        return Ok(CompleteResult::default());
    };
    let source = offered
        .find(|p| p.name == reference.name)
        .and_then(|prompt| prompt.argument(&request.argument.name))
        .and_then(|argument| argument.completes);
    let Some(source) = source else {
        return Ok(CompleteResult::default());
    };
    let context: BTreeMap<String, String> = request
        .context
        .as_ref()
        .and_then(|c| c.arguments.clone())
        .unwrap_or_default()
        .into_iter()
        .collect();
    let values = toolpack
        .complete(source, &request.argument.value, &context)
        .await
        .map_err(|e| McpError::invalid_params(e.to_string(), None))?;
    let mut values = values;
    values.truncate(CompletionInfo::MAX_VALUES);
    let info =
        CompletionInfo::new(values).map_err(|e| McpError::internal_error(e.to_string(), None))?;
    Ok(CompleteResult::new(info))
}
