//! `query_dependencies`: what a container's components, or one component, depend on;
//! and the path of dependencies from a component to another.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{DependencyGraph, NodeRef};
use crate::Toolpack;
use crate::loko::project::model::Level;
use crate::loko::project::relationships::{Here, Index, Unresolved};
use crate::loko::response::{Failure, LokoResponse};
use crate::loko::tools::lookup::{self, not_found};
use crate::loko::tools::project_tool::{answer, load_project};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

/// `query_dependencies` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct QueryDependenciesRequest {
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
    #[serde(alias = "system_name")]
    pub system_id: String,
    /// The container.
    ///
    /// Alias: `container_name`.
    #[serde(alias = "container_name")]
    pub container_id: String,
    /// Omit for the whole container.
    ///
    /// The component (id or name); omit it for the dependencies of the whole container.
    ///
    /// Alias: `component_name`.
    #[serde(
        default,
        alias = "component_name",
        skip_serializing_if = "Option::is_none"
    )]
    pub component_id: Option<String>,
    /// Another component: the path of dependencies to it.
    ///
    /// With `component_id`: another component, for the path of dependencies to it (its
    /// qualified id, or a short id: the one in the same container first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_component_id: Option<String>,
}

/// `query_dependencies` answer: `container`, `dependency_count` and `component_count`
/// for a container; `component`, `relationship_count` and (with a target)
/// `path_to_target` or `note` for a component.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct QueryDependenciesResult {
    /// The container asked about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container: Option<NodeRef>,
    /// The component asked about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub component: Option<NodeRef>,
    /// What it depends on, by id (a container: what any of its components depends on).
    pub dependencies: Vec<NodeRef>,
    /// For a container: how many dependencies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dependency_count: Option<u32>,
    /// For a container: how many components it has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub component_count: Option<u32>,
    /// For a component: how many dependencies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relationship_count: Option<u32>,
    /// The shortest path of dependencies to the target, both ends included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path_to_target: Option<Vec<NodeRef>>,
    /// Why there is no path to the target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The `query_dependencies` tool.
pub struct QueryDependencies;

crate::tool::offline_bodies!(QueryDependenciesResult);

impl Tool for QueryDependencies {
    type Input = QueryDependenciesRequest;
    type Output = LokoResponse<QueryDependenciesResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "query_dependencies",
        title: "loko: query dependencies",
        description: "What a container or component depends on, and the path of dependencies to \
another component.",
        summary: "A container's or component's dependencies, and the path to another component",
        needs: "",
        toolset: Toolset::Loko,
        annotations: Annotations::READ_ONLY_LOCAL,
    };

    async fn run(toolpack: &Toolpack, r: QueryDependenciesRequest) -> Self::Output {
        answer(async {
            let project = load_project(toolpack, r.project_path).await?;
            let system = lookup::system(&project, &r.system_id)?;
            let container = lookup::child_of(system, Level::Container, &r.container_id)?;
            let graph = DependencyGraph::of(&project);
            let container_id = format!("{}/{}", system.id, container.id);
            let Some(wanted) = r.component_id.filter(|c| !c.trim().is_empty()) else {
                let members: Vec<String> = std::iter::once(container_id.clone())
                    .chain(
                        container
                            .children
                            .iter()
                            .map(|k| format!("{container_id}/{}", k.id)),
                    )
                    .collect();
                let ids: std::collections::BTreeSet<&String> = members
                    .iter()
                    .flat_map(|id| graph.dependencies(id))
                    .collect();
                let dependencies = graph.node_refs(ids);
                return Ok(QueryDependenciesResult {
                    container: Some(graph.node_ref(&container_id)),
                    component: None,
                    dependency_count: Some(dependencies.len() as u32),
                    dependencies,
                    component_count: Some(container.children.len() as u32),
                    relationship_count: None,
                    path_to_target: None,
                    note: None,
                });
            };
            let component = lookup::child_of(container, Level::Component, &wanted)?;
            let id = format!("{container_id}/{}", component.id);
            let dependencies = graph.node_refs(graph.dependencies(&id));
            let mut result = QueryDependenciesResult {
                container: None,
                component: Some(graph.node_ref(&id)),
                relationship_count: Some(dependencies.len() as u32),
                dependencies,
                dependency_count: None,
                component_count: None,
                path_to_target: None,
                note: None,
            };
            if let Some(target) = r.target_component_id.filter(|t| !t.trim().is_empty()) {
                let here = Here {
                    system: &system.id,
                    container: Some(&container.id),
                };
                let index = Index::of(&project);
                let target_id = index
                    .node(here, &target)
                    .map_err(|why| unresolved(&target, why, index.ids()))?;
                match graph.path(&id, &target_id) {
                    Some(path) => result.path_to_target = Some(graph.node_refs(&path)),
                    None => result.note = Some(format!("No path from {id} to {target_id}")),
                }
            }
            Ok(result)
        })
        .await
    }
}

/// The failure for a path that means no node: `NOT_FOUND` (with the nearest id) when
/// nothing has it, `INVALID_INPUT` when it is ambiguous or malformed.
pub(crate) fn unresolved<'a>(
    written: &str,
    why: Unresolved,
    known: impl Iterator<Item = &'a String>,
) -> Failure {
    match why {
        Unresolved::Unknown => not_found(
            &format!("Element '{}' not found", written.trim()),
            written,
            known.map(String::as_str),
        ),
        Unresolved::Ambiguous(candidates) => Failure::invalid(format!(
            "'{}' is ambiguous: give its qualified id",
            written.trim()
        ))
        .details(format!("candidates: {}", candidates.join(", "))),
        Unresolved::Malformed => Failure::invalid(format!(
            "'{}' is not an element path",
            written.trim()
        ))
        .details("use system/container/component, system/container or a short id, without empty segments"),
    }
}
