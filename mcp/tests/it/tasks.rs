//! `build_docs` as an MCP task, with rmcp's client: a client that declared the tasks
//! extension gets a task at once, sees the build's progress as the task's status and its
//! result when done, and can cancel it; a client without it gets the build's result as a
//! call, under the long-call deadline rather than the default one.

use crate::common;

use std::path::Path;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientCapabilities, ClientConfig,
    GetTaskParams, Implementation, TaskPayload, TaskStatus,
};
use rmcp::service::{RoleClient, RunningService};
use serde_json::json;
use toolpack_mcp::ServerLimits;
use toolpack_testkit::loko_project::{Shape, generate};

/// A client that declared the tasks extension.
#[derive(Clone)]
struct TakesTasks;

impl rmcp::ClientHandler for TakesTasks {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::builder().enable_tasks().build(),
            Implementation::new("takes-tasks", "1"),
        )
    }
}

fn project(containers: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let shape = Shape {
        systems: 1,
        containers,
        components: 3,
    };
    generate(dir.path(), shape).unwrap();
    dir
}

fn build(project: &Path) -> CallToolRequestParams {
    let arguments = json!({"project_path": project, "format": "html", "incremental": false});
    CallToolRequestParams::new("build_docs").with_arguments(arguments.as_object().unwrap().clone())
}

fn server(limits: ServerLimits) -> toolpack_mcp::ToolpackServer {
    common::server_with(&common::settings(&[])).with_limits(limits)
}

async fn start(client: &RunningService<RoleClient, TakesTasks>, project: &Path) -> String {
    match client.call_tool_once(build(project)).await.unwrap() {
        CallToolResponse::Task(created) => {
            assert_eq!(created.task.status, TaskStatus::Working);
            created.task.task_id
        }
        other => panic!("not a task: {other:?}"),
    }
}

/// Polls the task until it is no longer working; the statuses seen on the way.
async fn settle(
    client: &RunningService<RoleClient, TakesTasks>,
    id: &str,
) -> (rmcp::model::DetailedTask, Vec<String>) {
    let mut seen = Vec::new();
    for _ in 0..600 {
        let task = client.get_task(GetTaskParams::new(id)).await.unwrap().task;
        if let Some(message) = &task.task.status_message
            && seen.last() != Some(message)
        {
            seen.push(message.clone());
        }
        if task.task.status != TaskStatus::Working {
            return (task, seen);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the task never settled: {seen:?}");
}

#[tokio::test]
async fn a_build_runs_as_a_task_its_progress_the_status_its_result_at_the_end() {
    let project = project(3);
    let client = common::duplex_client(server(ServerLimits::default()), TakesTasks).await;
    let id = start(&client, project.path()).await;
    let (task, seen) = settle(&client, &id).await;
    assert_eq!(task.task.status, TaskStatus::Completed, "{seen:?}");
    let TaskPayload::Completed { result } = task.payload else {
        panic!("no result");
    };
    assert_eq!(result["isError"], false, "{result:?}");
    assert_eq!(result["structuredContent"]["success"], true, "{result:?}");
    assert!(project.path().join("dist/index.html").exists());
    assert!(
        seen.iter()
            .any(|s| s.starts_with("page ") || s.contains("diagram")),
        "progress became the status: {seen:?}"
    );
    // Unknown ids are refused.
    let unknown = client
        .get_task(GetTaskParams::new("no-such-task"))
        .await
        .unwrap_err();
    assert!(unknown.to_string().contains("unknown task"), "{unknown}");
}

#[tokio::test]
async fn a_cancelled_task_stops_and_says_so() {
    let project = project(40);
    let client = common::duplex_client(server(ServerLimits::default()), TakesTasks).await;
    let id = start(&client, project.path()).await;
    client
        .cancel_task(CancelTaskParams::new(&id))
        .await
        .unwrap();
    let (task, _) = settle(&client, &id).await;
    assert_eq!(task.task.status, TaskStatus::Cancelled);
}

#[tokio::test]
async fn without_tasks_a_build_is_a_call_under_the_long_deadline() {
    let project = project(3);
    let limits = ServerLimits {
        call_deadline: Duration::from_millis(1),
        long_call_deadline: Duration::from_secs(120),
        ..ServerLimits::default()
    };
    let client = common::duplex_client(server(limits), ()).await;
    let result = client.call_tool(build(project.path())).await.unwrap();
    let (is_error, body) = common::body_of(&result);
    assert!(!is_error && body["success"] == true, "{body}");
}
