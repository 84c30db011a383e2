//! Long calls as MCP tasks (the `io.modelcontextprotocol/tasks` extension, SEP-2663, as
//! rmcp's [`TaskManager`] implements it): a call of a tool annotated long-running
//! (`build_docs`) from a client that declared the extension answers at once with a task;
//! the tool runs on, its progress becomes the task's status message, `tasks/cancel` stops
//! it, and `tasks/get` gives its result when done. Tasks belong to the caller that
//! started them: another caller is told the task does not exist.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::ErrorData as McpError;
use rmcp::model::{RequestId, Task};
use rmcp::task_manager::{TaskContext, TaskExit, TaskManager, TaskOptions};
use toolpack::Caller;

/// The tasks of one server, over every session.
#[derive(Clone, Default)]
pub(crate) struct Tasks {
    manager: TaskManager,
    /// Each task's caller, by task id.
    owners: Arc<Mutex<HashMap<String, String>>>,
}

impl Tasks {
    /// Starts `run` as a task of `caller`, kept for `ttl` (then forgotten).
    pub fn start<F>(&self, caller: &Caller, ttl: Duration, run: F) -> Task
    where
        F: FnOnce(TaskContext) -> rmcp::task_manager::TaskFuture,
    {
        let ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX);
        let options = TaskOptions::new()
            .with_ttl_ms(ttl_ms)
            .with_status_message("started");
        let task = self.manager.spawn(options, run);
        let mut owners = self.owners.lock().unwrap_or_else(|p| p.into_inner());
        // Forget the owners of tasks the manager has forgotten (past their TTL).
        owners.retain(|id, _| self.manager.get_task(id).is_ok());
        owners.insert(task.task_id.clone(), caller.id().to_owned());
        task
    }

    /// The manager, for a task of `caller`; the unknown-task error for anyone else's.
    pub fn of(&self, caller: &Caller, task_id: &str) -> Result<&TaskManager, McpError> {
        let owners = self.owners.lock().unwrap_or_else(|p| p.into_inner());
        match owners.get(task_id) {
            Some(owner) if owner == caller.id() => Ok(&self.manager),
            _ => Err(McpError::invalid_params(
                format!("unknown task '{task_id}'"),
                None,
            )),
        }
    }
}

/// A call that ended early: cancelled by `tasks/cancel`, or failed.
pub(crate) fn exit(error: McpError, context: &TaskContext) -> TaskExit {
    if context.is_cancel_requested() {
        TaskExit::Cancelled
    } else {
        TaskExit::Error(error)
    }
}

/// A request id for a task's call (its span): the task's id.
pub(crate) fn request_id(context: &TaskContext) -> RequestId {
    RequestId::String(context.task_id().to_owned().into())
}
