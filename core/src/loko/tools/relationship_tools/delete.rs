//! `delete_relationship`: removes an edge from a system's `relationships.toml` by id.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{RelationshipEntry, SystemRelationships};
use crate::Toolpack;
use crate::loko::response::{Failure, LokoResponse};
use crate::loko::tools::lookup::{self, not_found};
use crate::loko::tools::project_tool::{answer, edit};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

/// `delete_relationship` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct DeleteRelationshipRequest {
    /// The project path.
    ///
    /// Alias: `project_root`.
    #[serde(alias = "project_root")]
    pub project_path: String,
    /// The system that keeps it.
    ///
    /// The system whose `relationships.toml` keeps the edge (id or name).
    pub system_name: String,
    /// From list_relationships.
    ///
    /// The relationship's id (from `create_relationship` or `list_relationships`).
    pub relationship_id: String,
}

/// `delete_relationship` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct DeleteRelationshipResult {
    /// Always `true` (an unknown id is `NOT_FOUND`).
    pub deleted: bool,
    /// The id deleted.
    pub relationship_id: String,
    /// The relationship removed.
    pub relationship: RelationshipEntry,
    /// The relationships file, project-relative.
    pub file: String,
    /// The D2 diagram whose `# relationships` section is kept in step, project-relative.
    pub diagram_path: String,
    /// Whether that section is in step (`false`, with `diagram_error`, when writing the
    /// diagram failed; the relationship itself is removed).
    pub diagram_updated: bool,
    /// Why the diagram could not be written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagram_error: Option<String>,
    /// `Relationship '<id>' deleted`.
    pub message: String,
}

/// The `delete_relationship` tool.
pub struct DeleteRelationship;

crate::tool::offline_bodies!(DeleteRelationshipResult);

impl Tool for DeleteRelationship {
    type Input = DeleteRelationshipRequest;
    type Output = LokoResponse<DeleteRelationshipResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "delete_relationship",
        title: "loko: delete a relationship",
        description: "Remove a relationship (a link between two elements) by its id, and from the \
diagram.",
        summary: "Removes an edge from a system's relationships.toml and its diagram",
        needs: "",
        toolset: Toolset::Loko,
        annotations: Annotations::REPLACES_LOCAL,
    };

    async fn run(toolpack: &Toolpack, r: DeleteRelationshipRequest) -> Self::Output {
        answer(async {
            let id = r.relationship_id.trim().to_owned();
            if id.is_empty() {
                return Err(Failure::invalid("relationship_id is required"));
            }
            edit(toolpack, r.project_path, move |root, loko| {
                let project = loko.project(root.clone())?;
                let system = lookup::system(&project, &r.system_name)?;
                let mut relationships = SystemRelationships::of(system)?;
                let Some(removed) = relationships.document.remove(&id) else {
                    let ids = relationships.document.relationships.iter();
                    return Err(not_found(
                        &format!("Relationship '{id}' not found in system '{}'", system.id),
                        &id,
                        ids.map(|r| r.id.as_str()),
                    ));
                };
                let touched = relationships.save(loko, &root, &project, &removed)?;
                Ok(DeleteRelationshipResult {
                    deleted: true,
                    relationship_id: removed.id.clone(),
                    message: format!("Relationship '{id}' deleted"),
                    relationship: RelationshipEntry::from(&removed),
                    file: touched.file,
                    diagram_path: touched.diagram_path,
                    diagram_updated: touched.diagram_error.is_none(),
                    diagram_error: touched.diagram_error,
                })
            })
            .await
        })
        .await
    }
}
