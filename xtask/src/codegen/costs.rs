//! The hosts guide's cost table: what each toolset's definitions cost a model on each
//! surface, from the bytes the core computes per tool (`modelVisibleBytes`, `adapterBytes`).

use super::contract::Contract;

/// The table, by toolset and in all: model-visible bytes as MCP hosts get them, and the
/// framework adapters' definitions in each schema form, with tokens at four bytes each.
pub fn table(contract: &Contract) -> String {
    let mut toolsets: Vec<&str> = Vec::new();
    for tool in &contract.tools {
        if !toolsets.contains(&tool.toolset.as_str()) {
            toolsets.push(&tool.toolset);
        }
    }
    let mut out = String::from(
        "| toolset | tools | MCP hosts | LangChain, AI SDK | OpenAI Agents (strict) | pydantic-ai on Gemini |\n\
         |---|---:|---:|---:|---:|---:|\n",
    );
    let rows = toolsets
        .iter()
        .map(|name| (format!("`{name}`"), Some(*name)))
        .chain([("all".to_owned(), None)]);
    for (label, toolset) in rows {
        let tools: Vec<_> = contract
            .tools
            .iter()
            .filter(|tool| toolset.is_none_or(|name| tool.toolset == name))
            .collect();
        let mcp: u64 = tools.iter().map(|tool| tool.model_visible_bytes).sum();
        let adapters: Vec<String> = (0..3)
            .map(|form| cell(tools.iter().map(|tool| tool.adapter_bytes[form]).sum()))
            .collect();
        out += &format!(
            "| {label} | {} | {} | {} |\n",
            tools.len(),
            cell(mcp),
            adapters.join(" | ")
        );
    }
    out
}

/// `bytes` with thousands separated, and its tokens.
fn cell(bytes: u64) -> String {
    format!("{} (~{})", thousands(bytes), thousands(bytes.div_ceil(4)))
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::thousands;

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(7), "7");
        assert_eq!(thousands(35_028), "35,028");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
