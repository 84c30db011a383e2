//! What the served tool definitions cost a model: every MCP host puts each tool's name,
//! title, description, input schema and annotations in front of the model on every turn.
//! `toolpack-mcp tools --cost` prints it; the budget below is held by a test.

use rmcp::model::{ListToolsResult, Tool};
use serde_json::{Value, json};
use toolpack::Toolset;

/// Bytes a model reads of one tool's definition, at most (its name, title, description,
/// input schema and annotations as `tools/list` sends them), unless
/// [`WIDER_TOOLS`] gives the tool a limit of its own.
pub const MOST_BYTES_PER_TOOL: usize = 1_500;
/// The tools whose contract needs more than [`MOST_BYTES_PER_TOOL`], each with its limit.
/// `plan_trip`: its origin and destination are each a place's name or the contract's tagged
/// union (`coords` with a point, or a saved `label`), written out twice because hosts
/// refuse `$ref`; the union is about 400 bytes at its smallest.
pub const WIDER_TOOLS: [(&str, usize); 1] = [("plan_trip", 2_300)];
/// Model-visible bytes of the average tool, at most.
pub const MOST_AVERAGE_BYTES: usize = 700;

/// The most model-visible bytes the tool `name` may cost.
pub fn limit_of(name: &str) -> usize {
    WIDER_TOOLS
        .iter()
        .find(|(wider, _)| *wider == name)
        .map_or(MOST_BYTES_PER_TOOL, |(_, limit)| *limit)
}
/// Bytes of the whole `tools/list` result with every tool, at most (150 KiB).
pub const MOST_REPLY_BYTES: usize = 150 * 1024;

/// What a model reads of `tool`: the keys a host puts in its context.
pub fn model_visible(tool: &Tool) -> Value {
    let whole = serde_json::to_value(tool).unwrap_or_default();
    let mut seen = serde_json::Map::new();
    for key in ["name", "title", "description", "inputSchema", "annotations"] {
        if let Some(value) = whole.get(key).filter(|v| !v.is_null()) {
            seen.insert(key.to_owned(), value.clone());
        }
    }
    Value::Object(seen)
}

/// The compact JSON bytes of `value`.
pub fn json_bytes(value: &Value) -> usize {
    serde_json::to_vec(value).map_or(0, |bytes| bytes.len())
}

/// Tokens of `bytes` of JSON, estimated at four bytes a token.
pub fn tokens(bytes: usize) -> usize {
    bytes.div_ceil(4)
}

/// One tool's cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCost {
    /// The tool's name.
    pub name: String,
    /// Its family.
    pub toolset: Toolset,
    /// Model-visible bytes.
    pub bytes: usize,
}

/// The cost of each of `tools` (served definitions, with the family of each).
pub fn costs<'a>(tools: impl IntoIterator<Item = (&'a Tool, Toolset)>) -> Vec<ToolCost> {
    tools
        .into_iter()
        .map(|(tool, toolset)| ToolCost {
            name: tool.name.to_string(),
            toolset,
            bytes: json_bytes(&model_visible(tool)),
        })
        .collect()
}

/// The bytes of the whole `tools/list` result listing `tools`.
pub fn reply_bytes(tools: &[Tool]) -> usize {
    let result = ListToolsResult::with_all_items(tools.to_vec());
    json_bytes(&serde_json::to_value(result).unwrap_or_default())
}

/// The cost report: each tool, each toolset and all, in bytes and estimated tokens, and
/// the whole reply.
pub fn report(costs: &[ToolCost], reply: usize) -> String {
    let mut out = String::from("tool                          toolset      bytes  tokens\n");
    for cost in costs {
        out += &format!(
            "{:<30}{:<12}{:>6}{:>8}\n",
            cost.name,
            cost.toolset.as_str(),
            cost.bytes,
            tokens(cost.bytes)
        );
    }
    out += "\ntoolset      tools   bytes  tokens  average\n";
    for toolset in Toolset::ALL {
        let of: Vec<&ToolCost> = costs.iter().filter(|c| c.toolset == toolset).collect();
        if of.is_empty() {
            continue;
        }
        let bytes: usize = of.iter().map(|c| c.bytes).sum();
        out += &format!(
            "{:<12}{:>6}{:>8}{:>8}{:>9}\n",
            toolset.as_str(),
            of.len(),
            bytes,
            tokens(bytes),
            bytes / of.len()
        );
    }
    let bytes: usize = costs.iter().map(|c| c.bytes).sum();
    out += &format!(
        "{:<12}{:>6}{:>8}{:>8}{:>9}\n\nwhole tools/list result: {reply} bytes\n",
        "all",
        costs.len(),
        bytes,
        tokens(bytes),
        bytes.checked_div(costs.len()).unwrap_or(0)
    );
    out
}

/// The report as JSON, for scripts.
pub fn report_json(costs: &[ToolCost], reply: usize) -> Value {
    let bytes: usize = costs.iter().map(|c| c.bytes).sum();
    json!({
        "tools": costs.iter().map(|c| json!({
            "name": c.name, "toolset": c.toolset.as_str(), "bytes": c.bytes, "tokens": tokens(c.bytes)
        })).collect::<Vec<_>>(),
        "bytes": bytes,
        "tokens": tokens(bytes),
        "replyBytes": reply,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ToolpackServer;

    /// Every tool served, as with both keys set.
    fn everything() -> ToolpackServer {
        let config = toolpack::Config::builder()
            .tfl_api_key("k")
            .digitransit_api_key("k")
            .build();
        let tools = crate::select_tools(&config, None).unwrap().tools;
        assert_eq!(tools.len(), toolpack::Catalog::get().entries().len());
        ToolpackServer::new(toolpack::Toolpack::new(config).unwrap(), tools)
    }

    #[test]
    fn the_catalog_stays_inside_its_budget() {
        let server = everything();
        let costs = costs(server.listed_tools());
        let over: Vec<&ToolCost> = costs
            .iter()
            .filter(|c| c.bytes > limit_of(&c.name))
            .collect();
        assert!(
            over.is_empty(),
            "over {MOST_BYTES_PER_TOOL} bytes (or a wider tool's own limit): {over:?}"
        );
        for (wider, limit) in WIDER_TOOLS {
            let cost = costs
                .iter()
                .find(|c| c.name == wider)
                .expect("a served tool");
            assert!(
                cost.bytes > MOST_BYTES_PER_TOOL,
                "{wider} fits {MOST_BYTES_PER_TOOL} now: drop its limit of {limit}"
            );
        }
        let total = costs.iter().map(|c| c.bytes).sum::<usize>();
        assert!(
            total <= MOST_AVERAGE_BYTES * costs.len(),
            "{total} bytes for {} tools, over {MOST_AVERAGE_BYTES} a tool on average\n{}",
            costs.len(),
            report(&costs, 0)
        );
        let listed: Vec<Tool> = server.listed_tools().map(|(t, _)| t.clone()).collect();
        let reply = reply_bytes(&listed);
        assert!(reply <= MOST_REPLY_BYTES, "tools/list is {reply} bytes");
    }

    #[test]
    fn the_cores_figure_is_what_tools_list_sends() {
        let server = everything();
        for ((tool, _), entry) in server.listed_tools().zip(server.tools()) {
            assert_eq!(
                json_bytes(&model_visible(tool)),
                entry.model_visible_bytes(),
                "{}",
                entry.spec.name
            );
        }
    }

    #[test]
    fn a_model_sees_the_five_keys_a_host_shows() {
        let server = everything();
        let (tool, _) = server.listed_tools().next().unwrap();
        let seen = model_visible(tool);
        let keys: Vec<&str> = seen
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            ["name", "title", "description", "inputSchema", "annotations"]
        );
        let costs = costs([(tool, Toolset::Tfl)]);
        assert_eq!(costs[0].bytes, serde_json::to_string(&seen).unwrap().len());
        assert!(report(&costs, 9).contains(&format!("{:>6}", costs[0].bytes)));
        assert_eq!(tokens(9), 3);
    }
}
