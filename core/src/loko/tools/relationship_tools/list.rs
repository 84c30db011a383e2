//! `list_relationships`: a system's `relationships.toml`, filtered by source and target.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{RelationshipEntry, SystemRelationships};
use crate::Toolpack;
use crate::loko::project::relationships::{Here, Index};
use crate::loko::response::LokoResponse;
use crate::loko::tools::lookup;
use crate::loko::tools::project_tool::{answer, load_project};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

/// `list_relationships` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct ListRelationshipsRequest {
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
    pub system_name: String,
    /// Only edges from this element.
    ///
    /// Only edges from this element (a path as stored, or any path of the same element).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Only edges to this element.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

/// `list_relationships` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct ListRelationshipsResult {
    /// The system's id.
    pub system: String,
    /// How many relationships are listed.
    pub count: u32,
    /// The relationships, in file order.
    pub relationships: Vec<RelationshipEntry>,
}

/// The `list_relationships` tool.
pub struct ListRelationships;

crate::tool::offline_bodies!(ListRelationshipsResult);

impl Tool for ListRelationships {
    type Input = ListRelationshipsRequest;
    type Output = LokoResponse<ListRelationshipsResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "list_relationships",
        title: "loko: list relationships",
        description: "One system's relationships (links) in a loko project, optionally from or to an element.",
        summary: "A system's relationships.toml edges, filtered by source and target",
        needs: "",
        toolset: Toolset::Loko,
        annotations: Annotations::READ_ONLY_LOCAL,
    };

    async fn run(toolpack: &Toolpack, r: ListRelationshipsRequest) -> Self::Output {
        answer(async {
            let project = load_project(toolpack, r.project_path).await?;
            let system = lookup::system(&project, &r.system_name)?;
            let stored = SystemRelationships::of(system)?;
            let index = Index::of(&project);
            let here = Here {
                system: &system.id,
                container: None,
            };
            let same = |filter: &Option<String>, path: &str| match filter.as_deref().map(str::trim) {
                None | Some("") => true,
                Some(f) => {
                    f == path
                        || matches!((index.node(here, f), index.node(here, path)), (Ok(a), Ok(b)) if a == b)
                }
            };
            let relationships: Vec<RelationshipEntry> = stored
                .document
                .relationships
                .iter()
                .filter(|rel| same(&r.source, &rel.source) && same(&r.target, &rel.target))
                .map(RelationshipEntry::from)
                .collect();
            Ok(ListRelationshipsResult {
                system: system.id.clone(),
                count: relationships.len() as u32,
                relationships,
            })
        })
        .await
    }
}
