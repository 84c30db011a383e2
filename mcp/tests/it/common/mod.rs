//! Helpers shared by the MCP test files: run every shared vector through an MCP client.

pub mod stateless;

use std::collections::BTreeMap;
use std::future::Future;

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::Value;
use toolpack_testkit::vectors;

/// A connected MCP client.
pub type Client = RunningService<RoleClient, ()>;

/// A plain HTTP client for the server's endpoints, once toolpack's TLS crypto provider is
/// installed (reqwest is built without one of its own).
pub fn http_client() -> reqwest::Client {
    toolpack::http::install_crypto_provider();
    reqwest::Client::new()
}

/// rmcp's streamable HTTP client transport to `uri`, on [`http_client`].
pub fn http_transport(uri: impl Into<std::sync::Arc<str>>) -> HttpTransport {
    with_config(StreamableHttpClientTransportConfig::with_uri(uri))
}

/// rmcp's streamable HTTP client transport with `config`, on [`http_client`].
pub fn with_config(config: StreamableHttpClientTransportConfig) -> HttpTransport {
    StreamableHttpClientTransport::with_client(http_client(), config)
}

/// The transport [`http_transport`] makes.
pub type HttpTransport = StreamableHttpClientTransport<reqwest::Client>;

/// A server for the tools `settings` (setting name → value) make available.
pub fn server_with(settings: &BTreeMap<String, String>) -> toolpack_mcp::ToolpackServer {
    let config = toolpack::Config::from_pairs(settings).expect("valid settings");
    let tools = toolpack_mcp::select_tools(&config, None).unwrap().tools;
    toolpack_mcp::ToolpackServer::new(toolpack::Toolpack::new(config).unwrap(), tools)
}

/// `(name, value)` pairs as settings.
pub fn settings(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

/// `handler` connected to `server` over an in-process duplex transport.
pub async fn duplex_client<H: rmcp::handler::client::ClientHandler>(
    server: toolpack_mcp::ToolpackServer,
    handler: H,
) -> RunningService<RoleClient, H> {
    use rmcp::ServiceExt;
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    handler.serve(client_io).await.expect("client connects")
}

/// `handler` connected to `server` over an in-process pipe, both speaking protocol
/// 2026-07-28, the client announcing `capabilities`.
pub fn duplex_client_on_2026_07_28<H: rmcp::handler::client::ClientHandler>(
    server: toolpack_mcp::ToolpackServer,
    handler: H,
    capabilities: rmcp::model::ClientCapabilities,
) -> RunningService<RoleClient, H> {
    use rmcp::model::{
        Implementation, InitializeRequestParams, InitializeResult, ProtocolVersion,
        ServerCapabilities,
    };
    use rmcp::service::{RoleServer, serve_directly};
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let client_info =
        InitializeRequestParams::new(capabilities, Implementation::new("client", "1"))
            .with_protocol_version(ProtocolVersion::V_2026_07_28);
    let mut server_info =
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build());
    server_info.protocol_version = ProtocolVersion::V_2026_07_28;
    tokio::spawn(async move {
        let running =
            serve_directly::<RoleServer, _, _, _, _>(server, server_io, Some(client_info));
        let _ = running.waiting().await;
    });
    serve_directly::<RoleClient, _, _, _, _>(handler, client_io, Some(server_info.into()))
}

/// The structured body and `isError` of a tool result, after checking that the text
/// copy says the same thing as the structured content.
pub fn body_of(result: &CallToolResult) -> (bool, Value) {
    let body = result
        .structured_content
        .clone()
        .expect("structuredContent is always set");
    let text = result
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .expect("a text copy of the result");
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap(),
        body,
        "text copy differs"
    );
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
    let connect = &connect;
    vectors::run_all(|tool_case, settings| async move {
        let (tool, case) = (&tool_case.tool, &tool_case.case);
        // MCP arguments are always an object (or absent).
        case.arguments.as_object()?;
        // One MCP connection is one caller (over HTTP, its credential's): cases with
        // several callers run in the core and the bindings; `http_callers.rs` covers
        // isolation between credentials.
        (!case.names_callers()).then_some(())?;
        // A tool whose prerequisite (an API key) is missing is not served at all: the
        // server's own tests cover that; the case's answer cannot be asked for here.
        let config = toolpack::Config::from_pairs(&settings).expect("valid vector config");
        toolpack::Catalog::get()
            .find(tool)?
            .missing_prerequisite(&config)
            .is_none()
            .then_some(())?;
        let client = connect(settings).await;
        for setup in &case.before {
            call(&client, &setup.tool, &setup.arguments).await;
        }
        for _ in 0..case.calls_before {
            call(&client, tool, &case.arguments).await;
        }
        let answer = body_of(&call(&client, tool, &case.arguments).await);
        client.cancel().await.ok();
        Some(answer)
    })
    .await;
}
