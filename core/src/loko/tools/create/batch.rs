//! `create_components`: many components in one container, each created as
//! `create_component` creates one; a bad item is reported and the rest go on.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{CREATES, Plan, create_in, field, parent_of};
use crate::Toolpack;
use crate::loko::project::fence::ProjectRoot;
use crate::loko::project::model::{Level, Project};
use crate::loko::response::{Failure, LokoErrorCode, LokoResponse};
use crate::loko::tools::project_tool::{answer, blocking, required_path};
use crate::tool::{Tool, ToolSpec, Toolset};

/// The most components one call creates.
pub const MAX_BATCH: usize = 100;

/// A component.
///
/// One component of a `create_components` call.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct NewComponent {
    /// Its name.
    ///
    /// The component's name; its id is the slug.
    pub name: String,
    /// What it does.
    ///
    /// What the component does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its technology.
    ///
    /// The component's technology.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub technology: Option<String>,
    /// Tags.
    ///
    /// Tags for grouping and search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
}

/// `create_components` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct CreateComponentsRequest {
    /// The project path.
    ///
    /// Alias: `project_root`.
    #[serde(alias = "project_root")]
    pub project_path: String,
    /// Its system.
    ///
    /// Its id or name.
    ///
    /// The parent system (id or name).
    pub system_name: String,
    /// Its container.
    ///
    /// Its id or name.
    ///
    /// The parent container (id or name).
    pub container_name: String,
    /// 1 to 100 components.
    ///
    /// The components to create (1 to 100).
    pub components: Vec<NewComponent>,
}

/// What happened to one item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct ComponentOutcome {
    /// The name given.
    pub name: String,
    /// `created` or `error`.
    pub status: String,
    /// The new component's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The new component's directory, project-relative.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Why it was not created: the contract's code (`ALREADY_EXISTS`, `INVALID_INPUT`…).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<LokoErrorCode>,
    /// Why it was not created, for a person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `create_components` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct CreateComponentsResult {
    /// Whether every item was created.
    pub success: bool,
    /// How many were created.
    pub created: u32,
    /// How many were not.
    pub failed: u32,
    /// One outcome per item, in order.
    pub results: Vec<ComponentOutcome>,
}

/// The `create_components` tool.
pub struct CreateComponents;

crate::tool::offline_bodies!(CreateComponentsResult);

impl Tool for CreateComponents {
    type Input = CreateComponentsRequest;
    type Output = LokoResponse<CreateComponentsResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "create_components",
        title: "loko: create components",
        description: "Add several components to one container of a loko project at once, each reported on its own.",
        summary: "Creates many components in one container, reporting each",
        needs: "",
        toolset: Toolset::Loko,
        annotations: CREATES,
    };

    async fn run(toolpack: &Toolpack, r: CreateComponentsRequest) -> Self::Output {
        let config = toolpack.config().clone();
        answer(async move {
            required_path(&r.project_path)?;
            match r.components.len() {
                0 => return Err(Failure::invalid("components must have at least one item")),
                n if n > MAX_BATCH => {
                    return Err(Failure::invalid(format!(
                        "components has {n} items; at most {MAX_BATCH} per call"
                    )));
                }
                _ => {}
            }
            blocking(move || {
                let root = ProjectRoot::open(&config, Some(&r.project_path))?;
                let project = Project::load(root.clone())?;
                let parents = [r.system_name.clone(), r.container_name.clone()];
                let (_, _, ids) = parent_of(&project, &parents)?;
                let results: Vec<ComponentOutcome> = r
                    .components
                    .into_iter()
                    .map(|item| outcome(&root, &ids, item))
                    .collect();
                let created = results.iter().filter(|o| o.code.is_none()).count() as u32;
                Ok(CreateComponentsResult {
                    success: created as usize == results.len(),
                    created,
                    failed: results.len() as u32 - created,
                    results,
                })
            })
            .await
        })
        .await
    }
}

/// Creates one item in the container at `parents` (ids).
fn outcome(root: &ProjectRoot, parents: &[String], item: NewComponent) -> ComponentOutcome {
    let name = item.name.clone();
    let plan = Plan {
        project_path: String::new(),
        level: Level::Component,
        parents: parents.to_vec(),
        name: item.name,
        description: item.description,
        technology: item.technology,
        kind: None,
        template: None,
        extra: field("tags", item.tags).into_iter().collect(),
    };
    match create_in(root.clone(), plan) {
        Ok(made) => ComponentOutcome {
            name,
            status: "created".to_owned(),
            id: Some(made.entity.id),
            path: Some(made.entity.path),
            code: None,
            error: None,
        },
        Err(e) => ComponentOutcome {
            name,
            status: "error".to_owned(),
            id: None,
            path: None,
            code: Some(e.code),
            error: Some(e.message),
        },
    }
}
