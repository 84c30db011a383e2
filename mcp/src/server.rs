//! [`ToolpackServer`]: the rmcp [`ServerHandler`] that lists and calls catalog tools.

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use rmcp::ErrorData as McpError;
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams,
    CompleteRequestParams, CompleteResult, ContentBlock, CreateTaskResult, ErrorCode,
    GetPromptRequestParams, GetPromptResponse, GetTaskParams, GetTaskResult, Implementation,
    ListPromptsResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, RequestId, ServerCapabilities, ServerConfig,
    Tool, ToolAnnotations, UpdateTaskParams,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::Value;
use toolpack::{Caller, ToolEntry, ToolResult, Toolpack};
use tracing::Instrument;

use crate::ask::{Asking, StateKey};
use crate::cache_hints::LIST_TTL_MS;
use crate::deadline::Deadline;
use crate::notify::{Destination, Forwarder, SessionLevel};
use crate::tasks::Tasks;
use crate::toolsets::ToolChoice;
#[allow(deprecated)] // MCP logging: see `notify`.
use rmcp::model::SetLevelRequestParams;

/// How much work a server takes on at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerLimits {
    /// Tool calls in flight at once, over every session; one more is refused at once
    /// with a JSON-RPC error, never queued.
    pub max_in_flight: usize,
    /// The longest a tool call may run; then it is abandoned with a JSON-RPC error.
    /// The time a person takes to answer a question does not count.
    pub call_deadline: Duration,
    /// The longest a person may take to answer a question (an elicitation); then the
    /// tool goes on as if nobody picked.
    pub elicitation_wait: Duration,
    /// The longest a call of a long-running tool (`build_docs`) may run, as a task or not.
    pub long_call_deadline: Duration,
}

impl Default for ServerLimits {
    fn default() -> Self {
        Self {
            max_in_flight: 256,
            call_deadline: Duration::from_secs(30),
            elicitation_wait: Duration::from_secs(300),
            long_call_deadline: Duration::from_secs(600),
        }
    }
}

/// A call run under the server's deadline: the tool's result (or an unknown tool), or the
/// deadline passed.
type DeadlinedCall = Result<Result<ToolResult, toolpack::UnknownTool>, DeadlinePassed>;

/// The call's deadline passed before it finished.
struct DeadlinePassed;

/// The JSON-RPC error code of a call refused because too many are in flight.
pub const SERVER_BUSY: i32 = -32001;
/// The JSON-RPC error code of a call abandoned at the server's deadline.
pub const CALL_DEADLINE_EXCEEDED: i32 = -32002;

/// Serves the selected catalog tools of one [`Toolpack`]. Cheap to clone (one per
/// HTTP session shares the same toolpack, caches, rate limiters and limits).
#[derive(Clone)]
pub struct ToolpackServer {
    toolpack: Toolpack,
    tools: Arc<Vec<&'static ToolEntry>>,
    listed: Arc<Vec<Tool>>,
    /// The same, with each tool's MCP Apps view named (for clients that show views).
    listed_with_views: Arc<Vec<Tool>>,
    limits: ServerLimits,
    in_flight: Arc<tokio::sync::Semaphore>,
    level: SessionLevel,
    /// Seals what a 2026-07-28 client's retry brings back.
    state_key: StateKey,
    /// The long calls running or done as tasks.
    tasks: Tasks,
    /// The capabilities, implementation info and instructions (built from what is served),
    /// made once: rmcp asks for them on every stateless request.
    info: Arc<ServerConfig>,
}

impl ToolpackServer {
    /// A server for `tools` of `toolpack`, with the default [`ServerLimits`].
    pub fn new(toolpack: Toolpack, tools: Vec<&'static ToolEntry>) -> Self {
        let listed: Vec<Tool> = tools.iter().map(|entry| mcp_tool(entry)).collect();
        let listed_with_views = tools
            .iter()
            .zip(&listed)
            .map(|(entry, tool)| crate::views::with_view(entry, tool.clone()))
            .collect();
        let limits = ServerLimits::default();
        let info = Arc::new(SERVER_INFO.clone().with_instructions(
            toolpack::instructions::instructions(&tools, toolpack.config()),
        ));
        Self {
            info,
            toolpack,
            tools: Arc::new(tools),
            listed: Arc::new(listed),
            listed_with_views: Arc::new(listed_with_views),
            in_flight: Arc::new(tokio::sync::Semaphore::new(limits.max_in_flight)),
            limits,
            level: SessionLevel::default(),
            state_key: StateKey::random(),
            tasks: Tasks::default(),
        }
    }

    /// The same server sealing request states with `key` (the same on every replica).
    pub fn with_state_key(self, key: StateKey) -> Self {
        Self {
            state_key: key,
            ..self
        }
    }

    /// The server for a new session: everything shared, but its own logging level.
    pub fn for_session(&self) -> Self {
        Self {
            level: SessionLevel::default(),
            ..self.clone()
        }
    }

    /// Tool calls running now, over every session.
    pub fn calls_in_flight(&self) -> usize {
        self.limits.max_in_flight - self.in_flight.available_permits()
    }

    /// Resolves when no tool call is running.
    pub async fn drained(&self) {
        while self.calls_in_flight() > 0 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The same server with `limits`.
    pub fn with_limits(mut self, limits: ServerLimits) -> Self {
        self.in_flight = Arc::new(tokio::sync::Semaphore::new(limits.max_in_flight));
        self.limits = limits;
        self
    }

    /// The served tools.
    pub fn tools(&self) -> &[&'static ToolEntry] {
        &self.tools
    }

    /// Each served tool's definition as `tools/list` sends it to a client without views,
    /// with its family.
    pub fn listed_tools(&self) -> impl Iterator<Item = (&Tool, toolpack::Toolset)> {
        self.listed
            .iter()
            .zip(self.tools.iter().map(|entry| entry.spec.toolset))
    }

    /// The toolpack behind the server.
    pub fn toolpack(&self) -> &Toolpack {
        &self.toolpack
    }
}

/// The MCP description of a catalog entry, as small as its meaning allows: the input
/// schema in its served form, the output schema without its prose
/// ([`toolpack::schema::compact_output`]), and the served annotations
/// ([`ToolEntry::served_annotations`]).
fn mcp_tool(entry: &ToolEntry) -> Tool {
    let spec = entry.spec;
    let annotations: ToolAnnotations =
        serde_json::from_value(Value::Object(entry.served_annotations())).unwrap_or_default();
    Tool::new(spec.name, spec.description, entry.input_schema.clone())
        .with_title(spec.title)
        .with_icons(crate::icons::of(spec.toolset))
        .with_raw_output_schema(Arc::new(toolpack::schema::compact_output(
            &entry.output_schema,
        )))
        .with_annotations(annotations)
}

/// The MCP result of a tool call: the body as structured content plus a text
/// copy; contract errors are `isError: true` with the error JSON as structured content.
fn mcp_result(result: ToolResult) -> CallToolResult {
    // The text as `ToolResult::json_text` writes it, through `io::Write`: rmcp's
    // `CallToolResult::structured` writes the same text through `Display`.
    let text = vec![ContentBlock::text(result.json_text(false))];
    let mut answer = if result.is_error() {
        CallToolResult::error(text)
    } else {
        CallToolResult::success(text)
    };
    answer.structured_content = Some(result.body);
    answer
}

/// The server's capabilities and implementation info (with its icon as a `data:` URI),
/// the same for every server; each adds the instructions for what it serves.
static SERVER_INFO: LazyLock<ServerConfig> = LazyLock::new(|| {
    #[allow(deprecated)] // MCP logging: see `notify`.
    let capabilities = ServerCapabilities::builder()
        .enable_tools()
        .enable_resources()
        .enable_prompts()
        .enable_completions()
        .enable_tasks()
        .enable_logging()
        .build();
    ServerConfig::new(capabilities).with_server_info(
        Implementation::new("toolpack-mcp", env!("CARGO_PKG_VERSION"))
            .with_title("toolpack")
            .with_icons(crate::icons::server())
            .with_website_url(env!("CARGO_PKG_HOMEPAGE")),
    )
});

impl ServerHandler for ToolpackServer {
    fn get_info(&self) -> ServerConfig {
        (*self.info).clone()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let (_, choice) = request_scope(&context);
        let tools = if crate::views::client_shows_views(&context) {
            &self.listed_with_views
        } else {
            &self.listed
        };
        let listed = self
            .tools
            .iter()
            .zip(tools.iter())
            .filter(|(entry, _)| choice.allows(&entry.spec))
            .map(|(_, tool)| tool.clone())
            .collect();
        Ok(ListToolsResult::with_all_items(listed)
            .with_ttl_ms(LIST_TTL_MS)
            .with_cache_scope(CacheScope::Private))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        // Boxed: rmcp moves the handler's future into a task of its own for every request,
        // and a boxed call moves a pointer instead of the whole state of the call.
        Box::pin(self.call(request, context)).await
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let (caller, choice) = request_scope(&context);
        crate::views::list(crate::views::visible(&self.tools, &caller, &choice))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let (caller, choice) = request_scope(&context);
        let visible = crate::views::visible(&self.tools, &caller, &choice);
        crate::views::read(&request.uri, visible).map(Into::into)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        let (_, choice) = request_scope(&context);
        Ok(crate::prompts::list(crate::prompts::offered(
            &self.tools,
            &choice,
        )))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        let (_, choice) = request_scope(&context);
        crate::prompts::get(crate::prompts::offered(&self.tools, &choice), &request).map(Into::into)
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, McpError> {
        let (caller, choice) = request_scope(&context);
        let toolpack = self.toolpack.for_caller(caller);
        let offered = crate::prompts::offered(&self.tools, &choice);
        crate::prompts::complete(offered, &toolpack, &request).await
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, McpError> {
        let (caller, _) = request_scope(&context);
        let task = self
            .tasks
            .of(&caller, &request.task_id)?
            .get_task(&request.task_id)?;
        Ok(GetTaskResult::new(task))
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        let (caller, _) = request_scope(&context);
        self.tasks
            .of(&caller, &request.task_id)?
            .update_task(&request.task_id, request.input_responses)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        let (caller, _) = request_scope(&context);
        self.tasks
            .of(&caller, &request.task_id)?
            .cancel_task(&request.task_id)
    }

    #[allow(deprecated)] // MCP logging: see `notify`.
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.level.set(request.level);
        Ok(())
    }
}

/// The caller of a request and the tools it may see: over HTTP, the caller the
/// authentication layer found and the `X-MCP-*` headers' choice; over stdio, the local
/// caller and every served tool.
fn request_scope(context: &RequestContext<RoleServer>) -> (Caller, ToolChoice) {
    match context.extensions.get::<axum::http::request::Parts>() {
        Some(parts) => http_scope(parts),
        None => (Caller::local(), ToolChoice::default()),
    }
}

/// The caller the authentication layer put in an HTTP request's extensions, and the
/// tools its `X-MCP-*` headers choose.
fn http_scope(parts: &axum::http::request::Parts) -> (Caller, ToolChoice) {
    (
        parts
            .extensions
            .get::<Caller>()
            .cloned()
            .unwrap_or_default(),
        // `crate::http` refused the request if its headers name no valid choice.
        parts
            .extensions
            .get::<ToolChoice>()
            .cloned()
            .unwrap_or_default(),
    )
}

/// Everything a `tools/call` needs besides its name and arguments: who it is for, which
/// tools it may see, where its reports go, its trace context, and when the client gave up.
struct CallScope<'a, C> {
    /// The request's JSON-RPC id (for its span).
    pub id: &'a RequestId,
    /// Who the call runs for.
    pub caller: Caller,
    /// The tools the request may call.
    pub choice: ToolChoice,
    /// Where its progress and log reports go.
    pub forwarder: Forwarder,
    /// Where its trace context is read.
    pub carrier: crate::telemetry::Carrier<'a>,
    /// Resolves when the client cancelled the request.
    pub cancelled: C,
    /// How the person can be asked a question.
    pub asking: Asking,
}

impl ToolpackServer {
    /// A tool call from rmcp's service: its scope from the request context.
    async fn call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let (caller, choice) = request_scope(&context);
        // Read once: at 2026-07-28 rmcp decodes them from the request's `_meta` on every ask.
        let capabilities = context.client_capabilities();
        let takes_tasks = capabilities
            .as_ref()
            .is_some_and(|capabilities| capabilities.supports_tasks());
        if takes_tasks && self.runs_long(&request.name, &choice) {
            return Ok(self.start_task(request, caller, choice));
        }
        let asking = Asking::of(
            &context,
            capabilities.as_ref(),
            &request,
            &caller,
            &self.state_key,
        )?;
        let later = match &asking {
            Asking::Later(later) => Some((later.clone(), caller.clone(), request.clone())),
            _ => None,
        };
        let scope = CallScope {
            id: &context.id,
            caller,
            choice,
            forwarder: Forwarder::start(
                Destination::Peer(context.peer.clone()),
                SessionLevel::of_request(&self.level, &context),
                context.meta.get_progress_token(),
            ),
            carrier: crate::telemetry::Carrier::of(&context),
            cancelled: context.ct.cancelled(),
            asking,
        };
        let result = self.run_call(request, scope).await?;
        if let Some((later, caller, request)) = later
            && let Some(input_required) = later.input_required(
                &request,
                &caller,
                &self.state_key,
                self.limits.elicitation_wait,
            )
        {
            return Ok(input_required.into());
        }
        Ok(mcp_result(result).into())
    }

    /// Whether `name` is a served, long-running tool the request may call.
    fn runs_long(&self, name: &str, choice: &ToolChoice) -> bool {
        self.tools.iter().any(|t| {
            t.spec.name == name && t.spec.annotations.long_running && choice.allows(&t.spec)
        })
    }

    /// Starts a call as a task ([`crate::tasks`]): the same call, its progress as the
    /// task's status, `tasks/cancel` as its cancellation; kept until an hour after its
    /// deadline.
    fn start_task(
        &self,
        request: CallToolRequestParams,
        caller: Caller,
        choice: ToolChoice,
    ) -> CallToolResponse {
        let server = self.clone();
        let owner = caller.clone();
        let kept = self.limits.long_call_deadline + Duration::from_secs(3600);
        let task = self.tasks.start(&owner, kept, move |task| {
            Box::pin(async move {
                let id = crate::tasks::request_id(&task);
                let scope = CallScope {
                    id: &id,
                    caller,
                    choice,
                    forwarder: Forwarder::start(
                        Destination::Task(task.clone()),
                        SessionLevel::default(),
                        None,
                    ),
                    carrier: crate::telemetry::Carrier {
                        meta: None,
                        headers: None,
                    },
                    cancelled: task.cancelled(),
                    asking: Asking::Nobody,
                };
                server
                    .run_call(request, scope)
                    .await
                    .map(mcp_result)
                    .map_err(|error| crate::tasks::exit(error, &task))
            })
        });
        CallToolResponse::Task(CreateTaskResult::new(task))
    }

    /// A tool call: the caller's scope, the in-flight limit, the deadline, progress
    /// and log forwarding, the call's span. The tool's result (see [`mcp_result`]) or the
    /// JSON-RPC error, once every notification of the call has been sent.
    async fn run_call<C: std::future::Future<Output = ()>>(
        &self,
        request: CallToolRequestParams,
        scope: CallScope<'_, C>,
    ) -> Result<ToolResult, McpError> {
        let CallScope {
            id,
            caller,
            choice,
            forwarder,
            carrier,
            cancelled,
            asking,
        } = scope;
        let name = request.name.as_ref();
        let Some(entry) = self
            .tools
            .iter()
            .find(|t| t.spec.name == name && choice.allows(&t.spec))
        else {
            // Nothing has reported yet: the forwarder is dropped with nothing to send.
            let error = McpError::invalid_params(format!("unknown tool '{name}'"), None);
            return Err(error);
        };
        // The HTTP layer answers this with 403 and a step-up challenge first.
        if let Some(scope) = caller.missing_scope(&entry.spec) {
            let error = McpError::invalid_request(
                format!("insufficient scope: {name} needs {}", scope.as_str()),
                None,
            );
            return Err(error);
        }
        let Ok(_permit) = self.in_flight.clone().try_acquire_owned() else {
            crate::telemetry::call_refused("busy");
            let error = McpError::new(
                ErrorCode(SERVER_BUSY),
                format!(
                    "server busy: {} tool calls are in flight; retry shortly",
                    self.limits.max_in_flight
                ),
                None,
            );
            return Err(error);
        };
        let arguments = request.arguments.map_or(Value::Null, Value::Object);
        let toolpack = self.toolpack.for_caller(caller);
        let span = crate::telemetry::request_span(name, id, carrier);
        let limit = if entry.spec.annotations.long_running {
            self.limits.long_call_deadline
        } else {
            self.limits.call_deadline
        };
        let deadline = Deadline::after(limit);
        let asker = asking.asker(&deadline, self.limits.elicitation_wait);
        let run = toolpack::report::with_reporter(
            forwarder.reporter(),
            toolpack::ask::with_asker(asker, toolpack.call_json(name, arguments)),
        )
        .instrument(span.clone());
        let call = async {
            tokio::select! {
                result = run => Ok(result),
                () = deadline.passed() => Err(DeadlinePassed),
            }
        };
        let answer = self.finish_call(name, limit, call, cancelled, &span).await;
        forwarder.finish().await;
        answer
    }

    /// Waits for `call` (or the client's cancellation) and marks the call's `span` with
    /// its error.
    async fn finish_call(
        &self,
        name: &str,
        limit: Duration,
        call: impl std::future::Future<Output = DeadlinedCall>,
        cancelled: impl std::future::Future<Output = ()>,
        span: &tracing::Span,
    ) -> Result<ToolResult, McpError> {
        let answer = self.answer(name, limit, call, cancelled).await;
        match &answer {
            Ok(result) => {
                if let Some(code) = &result.error_code {
                    crate::telemetry::record_tool_error(span, code);
                }
            }
            Err(error) => crate::telemetry::record_protocol_error(span, error.code.0),
        }
        answer
    }

    /// The tool's result, or the JSON-RPC error for a call abandoned at the deadline or
    /// cancelled by the client.
    async fn answer(
        &self,
        name: &str,
        limit: Duration,
        call: impl std::future::Future<Output = DeadlinedCall>,
        cancelled: impl std::future::Future<Output = ()>,
    ) -> Result<ToolResult, McpError> {
        tokio::select! {
            result = call => {
                let Ok(result) = result else {
                    crate::telemetry::call_refused("deadline");
                    return Err(McpError::new(
                        ErrorCode(CALL_DEADLINE_EXCEEDED),
                        format!(
                            "the call to {name} exceeded the server's {} ms deadline",
                            limit.as_millis()
                        ),
                        None,
                    ));
                };
                result.map_err(|e| McpError::invalid_params(e.to_string(), None))
            }
            () = cancelled => {
                Err(McpError::internal_error("request cancelled", None))
            }
        }
    }
}
