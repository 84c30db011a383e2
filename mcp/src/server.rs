//! [`ToolpackServer`]: the rmcp [`ServerHandler`] that lists and calls catalog tools.

use std::sync::Arc;

use rmcp::ErrorData as McpError;
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::Value;
use toolpack::{ToolEntry, ToolResult, Toolpack};

/// Serves the selected catalog tools of one [`Toolpack`]. Cheap to clone (one per
/// HTTP session shares the same toolpack, caches and rate limiters).
#[derive(Clone)]
pub struct ToolpackServer {
    toolpack: Toolpack,
    tools: Arc<Vec<&'static ToolEntry>>,
    listed: Arc<Vec<Tool>>,
}

impl ToolpackServer {
    /// A server for `tools` of `toolpack`.
    pub fn new(toolpack: Toolpack, tools: Vec<&'static ToolEntry>) -> Self {
        let listed = tools.iter().map(|entry| mcp_tool(entry)).collect();
        Self {
            toolpack,
            tools: Arc::new(tools),
            listed: Arc::new(listed),
        }
    }

    /// The served tools.
    pub fn tools(&self) -> &[&'static ToolEntry] {
        &self.tools
    }

    /// The toolpack behind the server.
    pub fn toolpack(&self) -> &Toolpack {
        &self.toolpack
    }
}

/// The MCP description of a catalog entry.
fn mcp_tool(entry: &ToolEntry) -> Tool {
    let spec = entry.spec;
    let mut annotations = ToolAnnotations::with_title(spec.title)
        .read_only(spec.annotations.read_only)
        .destructive(spec.annotations.destructive)
        .idempotent(spec.annotations.idempotent)
        .open_world(spec.annotations.open_world);
    if spec.annotations.read_only {
        // The MCP spec defines destructiveHint only for tools that write.
        annotations.destructive_hint = None;
    }
    Tool::new(spec.name, spec.description, entry.input_schema.clone())
        .with_title(spec.title)
        .with_raw_output_schema(entry.output_schema.clone())
        .with_annotations(annotations)
}

/// The MCP result of a tool call: the body as structured content plus a text
/// copy; contract errors are `isError: true` with the error JSON as structured content.
pub(crate) fn mcp_result(result: ToolResult) -> CallToolResult {
    if result.is_error() {
        CallToolResult::structured_error(result.body)
    } else {
        CallToolResult::structured(result.body)
    }
}

impl ServerHandler for ToolpackServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "toolpack-mcp",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(
                "Tools for London transport (TfL), Finnish public transport (Digitransit) and \
C4 architecture docs (loko). Every result is JSON with the tool's contract fields; errors carry a \
machine-readable code.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(
            self.listed.as_ref().clone(),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let name = request.name.as_ref();
        if !self.tools.iter().any(|t| t.spec.name == name) {
            return Err(McpError::invalid_params(
                format!("unknown tool '{name}'"),
                None,
            ));
        }
        let arguments = request.arguments.map_or(Value::Null, Value::Object);
        let call = self.toolpack.call_json(name, arguments);
        tokio::select! {
            result = call => {
                let result = result.map_err(|e| McpError::invalid_params(e.to_string(), None))?;
                Ok(mcp_result(result).into())
            }
            () = context.ct.cancelled() => {
                Err(McpError::internal_error("request cancelled", None))
            }
        }
    }
}
