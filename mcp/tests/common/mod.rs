//! Helpers shared by the MCP test files: run every shared vector through an MCP client.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::future::Future;

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use serde_json::Value;
use toolpack_testkit::{FakeUpstream, default_fixtures_dir, vectors};

/// A connected MCP client.
pub type Client = RunningService<RoleClient, ()>;

/// The structured body and `isError` of a tool result, after checking that the text
/// copy says the same thing as the structured content.
pub fn body_of(result: &CallToolResult) -> (bool, Value) {
    let body = result.structured_content.clone().expect("structuredContent is always set");
    let text = result
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .expect("a text copy of the result");
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), body, "text copy differs");
    (result.is_error == Some(true), body)
}

/// Calls `tool` with JSON `arguments` (an object, or anything else as an absent map).
pub async fn call(client: &Client, tool: &str, arguments: &Value) -> CallToolResult {
    let mut params = CallToolRequestParams::new(tool.to_owned());
    if let Value::Object(map) = arguments {
        params = params.with_arguments(map.clone());
    }
    client.call_tool(params).await.expect("tools/call answers")
}

/// Runs every vector: `connect(settings)` gives a fresh client for each case.
pub async fn run_all_vectors<F, Fut>(connect: F)
where
    F: Fn(BTreeMap<String, String>) -> Fut,
    Fut: Future<Output = Client>,
{
    let fake = FakeUpstream::start(&default_fixtures_dir()).await.unwrap();
    let cases = vectors::load_all();
    let mut failures = Vec::new();
    for tool_case in &cases {
        let case = &tool_case.case;
        if case.arguments.as_object().is_none() {
            continue; // MCP arguments are always an object (or absent).
        }
        fake.clear_scenarios();
        case.upstream.iter().cloned().for_each(|s| fake.push_scenario(s));
        let client = connect(case.settings(&fake.base_url())).await;
        for _ in 0..case.calls_before {
            call(&client, &tool_case.tool, &case.arguments).await;
        }
        let (is_error, body) = body_of(&call(&client, &tool_case.tool, &case.arguments).await);
        if let Err(problem) = case.expect.check(is_error, &body) {
            failures.push(format!("{}\n  {problem}", tool_case.label()));
        }
        client.cancel().await.ok();
    }
    assert!(failures.is_empty(), "{} of {} vectors failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
}
