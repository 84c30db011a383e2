//! What every loko tool shares: the `project_path` argument (with loko's
//! `project_root` alias), opening and loading the project off the async executor, and
//! the timestamps answers carry.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Toolpack;
use crate::loko::project::fence::ProjectRoot;
use crate::loko::project::model::Project;
use crate::loko::response::{Failure, LokoResponse};

/// Runs blocking file work on tokio's blocking pool and answers its result.
pub(crate) async fn blocking<T, F>(work: F) -> Result<T, Failure>
where
    F: FnOnce() -> Result<T, Failure> + Send + 'static,
    T: Send + 'static,
{
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|_| {
        Err(Failure::internal(
            "Unexpected error while reading the project",
        ))
    })
}

/// Refuses a blank `project_path` (where the contract requires one).
pub(crate) fn required_path(project_path: &str) -> Result<(), Failure> {
    if project_path.trim().is_empty() {
        return Err(Failure::invalid("project_path is required"));
    }
    Ok(())
}

/// Opens `project_path` (fenced by `LOKO_ALLOWED_ROOTS`) and loads the project (the one
/// loaded before, when none of its files changed).
pub(crate) async fn load_project(
    toolpack: &Toolpack,
    project_path: Option<String>,
) -> Result<Arc<Project>, Failure> {
    let config = toolpack.config().clone();
    let loko = toolpack.loko();
    blocking(move || {
        let root = ProjectRoot::open(&config, project_path.as_deref())?;
        loko.project(root)
    })
    .await
}

/// Runs `work` on the project at `project_path` (required), on the blocking pool, while
/// no other edit of the same project runs in this process: a read-modify-write of a
/// project file never loses another call's change. `work` gets the project root and
/// this toolpack's loko state (to load the project with [`crate::loko::LokoState::project`]).
pub(crate) async fn edit<T, F>(
    toolpack: &Toolpack,
    project_path: String,
    work: F,
) -> Result<T, Failure>
where
    F: FnOnce(ProjectRoot, &crate::loko::LokoState) -> Result<T, Failure> + Send + 'static,
    T: Send + 'static,
{
    required_path(&project_path)?;
    let config = toolpack.config().clone();
    let root = blocking(move || ProjectRoot::open(&config, Some(&project_path))).await?;
    let loko = toolpack.loko();
    let lock = loko.edit_lock(root.path());
    let _held = lock.lock().await;
    blocking(move || work(root, &loko)).await
}

/// Answers a tool's `work` in the loko envelope.
pub(crate) async fn answer<T, Fut>(work: Fut) -> LokoResponse<T>
where
    Fut: std::future::Future<Output = Result<T, Failure>>,
{
    LokoResponse::of(work.await)
}

/// A time as RFC 3339 in UTC, e.g. `2026-11-22T18:00:00Z`.
pub(crate) fn rfc3339(time: std::time::SystemTime) -> Option<String> {
    jiff::Timestamp::try_from(time)
        .ok()
        .map(|t| t.round(jiff::Unit::Second).unwrap_or(t).to_string())
}

/// The `{id, name}` of an entity, as lists in answers show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct EntityRef {
    /// The id (the directory name).
    pub id: String,
    /// The display name.
    pub name: String,
}

impl From<&crate::loko::project::model::Entity> for EntityRef {
    fn from(e: &crate::loko::project::model::Entity) -> Self {
        Self {
            id: e.id.clone(),
            name: e.name(),
        }
    }
}
