//! `query_project`: the project's metadata and its systems.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Toolpack;
use crate::loko::response::LokoResponse;
use crate::loko::tools::project_tool::{answer, load_project, rfc3339};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

/// `query_project` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct QueryProjectRequest {
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
}

/// A system in the project overview.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct SystemOverview {
    /// The id (directory name).
    pub id: String,
    /// The display name.
    pub name: String,
    /// How many containers it has.
    pub container_count: u32,
}

/// `query_project` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct QueryProjectResult {
    /// `[project] name` (default: the directory name).
    pub name: String,
    /// `[project] description`.
    pub description: String,
    /// `[project] version`.
    pub version: String,
    /// How many systems.
    pub system_count: u32,
    /// How many containers, in all systems.
    pub total_containers: u32,
    /// How many components, in all containers.
    pub total_components: u32,
    /// When the project was created (`[project] created_at`), when it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// When a source file last changed (RFC 3339, UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
    /// The systems, by id.
    pub systems: Vec<SystemOverview>,
}

/// The `query_project` tool.
pub struct QueryProject;

crate::tool::offline_bodies!(QueryProjectResult);

impl Tool for QueryProject {
    type Input = QueryProjectRequest;
    type Output = LokoResponse<QueryProjectResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "query_project",
        title: "loko: project overview",
        description: "What a C4 architecture project (loko docs as code) holds: name, version, counts \
and its systems. Start here.",
        summary: "A C4 project's metadata: name, version, counts, systems",
        needs: "",
        toolset: Toolset::Loko,
        annotations: Annotations::READ_ONLY_LOCAL,
    };

    async fn run(toolpack: &Toolpack, input: QueryProjectRequest) -> Self::Output {
        answer(async {
            let project = load_project(toolpack, input.project_path).await?;
            let systems: Vec<SystemOverview> = project
                .systems
                .iter()
                .map(|s| SystemOverview {
                    id: s.id.clone(),
                    name: s.name(),
                    container_count: s.children.len() as u32,
                })
                .collect();
            Ok(QueryProjectResult {
                name: project.settings.name.clone(),
                description: project.settings.description.clone(),
                version: project.settings.version.clone(),
                system_count: systems.len() as u32,
                total_containers: project.containers().count() as u32,
                total_components: project.components().count() as u32,
                created_at: project.settings.created_at.clone(),
                updated_at: project.updated_at.and_then(rfc3339),
                systems,
            })
        })
        .await
    }
}
