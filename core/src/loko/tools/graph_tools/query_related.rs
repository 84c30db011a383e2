//! `query_related_components`: what a component depends on, and what depends on it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::query_dependencies::unresolved;
use super::{DependencyGraph, NodeRef};
use crate::Toolpack;
use crate::loko::project::model::Level;
use crate::loko::project::relationships::{Here, Index};
use crate::loko::response::LokoResponse;
use crate::loko::tools::lookup;
use crate::loko::tools::project_tool::{answer, load_project};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

/// `query_related_components` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct QueryRelatedComponentsRequest {
    /// The project path.
    ///
    /// Default: the working directory.
    ///
    /// Alias: `project_root`.
    #[serde(
        default,
        alias = "project_root",
        skip_serializing_if = "Option::is_none"
    )]
    pub project_path: Option<String>,
    /// The system.
    ///
    /// Its id or name.
    ///
    /// Alias: `system_name`.
    #[serde(
        default,
        alias = "system_name",
        skip_serializing_if = "Option::is_none"
    )]
    pub system_id: Option<String>,
    /// The container.
    ///
    /// Its id or name.
    ///
    /// Alias: `container_name`.
    #[serde(
        default,
        alias = "container_name",
        skip_serializing_if = "Option::is_none"
    )]
    pub container_id: Option<String>,
    /// Id, name or qualified id.
    ///
    /// The component: its id or name inside the container given, else its qualified id
    /// or a short id that is unique.
    ///
    /// Alias: `component_name`.
    #[serde(alias = "component_name")]
    pub component_id: String,
}

/// `query_related_components` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct QueryRelatedComponentsResult {
    /// The component, qualified.
    pub component_id: String,
    /// What it depends on, by id.
    pub dependencies: Vec<NodeRef>,
    /// What depends on it, by id.
    pub dependents: Vec<NodeRef>,
    /// How many dependencies.
    pub dependency_count: u32,
    /// How many dependents.
    pub dependent_count: u32,
}

/// The `query_related_components` tool.
pub struct QueryRelatedComponents;

crate::tool::offline_bodies!(QueryRelatedComponentsResult);

impl Tool for QueryRelatedComponents {
    type Input = QueryRelatedComponentsRequest;
    type Output = LokoResponse<QueryRelatedComponentsResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "query_related_components",
        title: "loko: related components",
        description: "A component's neighbours in a loko project: what it depends on and what depends on it.",
        summary: "A component's dependencies and dependents",
        needs: "",
        toolset: Toolset::Loko,
        annotations: Annotations::READ_ONLY_LOCAL,
    };

    async fn run(toolpack: &Toolpack, r: QueryRelatedComponentsRequest) -> Self::Output {
        answer(async {
            let project = load_project(toolpack, r.project_path).await?;
            let nonblank = |v: Option<String>| v.filter(|v| !v.trim().is_empty());
            let id = match (nonblank(r.system_id), nonblank(r.container_id)) {
                (Some(system), Some(container)) => {
                    let system = lookup::system(&project, &system)?;
                    let container = lookup::child_of(system, Level::Container, &container)?;
                    let component = lookup::child_of(container, Level::Component, &r.component_id)?;
                    format!("{}/{}/{}", system.id, container.id, component.id)
                }
                (system, _) => {
                    let system = match system {
                        Some(s) => lookup::system(&project, &s)?.id.clone(),
                        None => String::new(),
                    };
                    let here = Here {
                        system: &system,
                        container: None,
                    };
                    let index = Index::of(&project);
                    index
                        .node(here, &r.component_id)
                        .map_err(|why| unresolved(&r.component_id, why, index.ids()))?
                }
            };
            let graph = DependencyGraph::of(&project);
            let dependencies = graph.node_refs(graph.dependencies(&id));
            let dependents = graph.node_refs(graph.dependents(&id));
            Ok(QueryRelatedComponentsResult {
                component_id: id,
                dependency_count: dependencies.len() as u32,
                dependent_count: dependents.len() as u32,
                dependencies,
                dependents,
            })
        })
        .await
    }
}
