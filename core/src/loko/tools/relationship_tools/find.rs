//! `find_relationships`: edges of the whole graph whose source or target match a glob.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::create::TYPES;
use crate::Toolpack;
use crate::loko::response::{Failure, LokoResponse};
use crate::loko::tools::choice;
use crate::loko::tools::glob;
use crate::loko::tools::graph_tools::DependencyGraph;
use crate::loko::tools::project_tool::{answer, load_project};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

/// Results when the call gives no limit.
pub const DEFAULT_LIMIT: u32 = 20;
/// The most results one call answers.
pub const MAX_LIMIT: u32 = 100;

/// `find_relationships` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct FindRelationshipsRequest {
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
    /// A glob (`*`, `?`) for the source id.
    ///
    /// A glob for the source's qualified id (`*` any run, `?` one character; case is
    /// ignored), e.g. `shop/api/` then `*` for everything in that container.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_pattern: Option<String>,
    /// A glob for the target's qualified id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_pattern: Option<String>,
    /// `sync`, `async` or `event`.
    ///
    /// Alias: `type`.
    #[serde(default, alias = "type", skip_serializing_if = "Option::is_none")]
    pub relationship_type: Option<String>,
    /// Default 20, at most 100.
    ///
    /// The most results (default 20, at most 100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
}

/// An edge found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct FoundRelationship {
    /// The source, qualified.
    pub source_id: String,
    /// The target, qualified.
    pub target_id: String,
    /// `sync`, `async` or `event` (`sync` where the source of the edge does not say).
    #[serde(rename = "type")]
    pub kind: String,
    /// What the relationship does.
    pub description: String,
    /// The technology, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub technology: Option<String>,
    /// The file that says so, project-relative.
    pub location: String,
}

/// `find_relationships` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct FindRelationshipsResult {
    /// The edges found, by source then target, up to the limit.
    pub relationships: Vec<FoundRelationship>,
    /// How many edges match in all.
    pub total_matched: u32,
    /// A sentence on the result.
    pub message: String,
}

/// The `find_relationships` tool.
pub struct FindRelationships;

crate::tool::offline_bodies!(FindRelationshipsResult);

impl Tool for FindRelationships {
    type Input = FindRelationshipsRequest;
    type Output = LokoResponse<FindRelationshipsResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "find_relationships",
        title: "loko: find relationships",
        description: "Find relationships (links) across the whole loko project whose ends match a glob pattern.",
        summary: "Edges of the whole graph whose ends match a glob",
        needs: "",
        toolset: Toolset::Loko,
        annotations: Annotations::READ_ONLY_LOCAL,
    };

    async fn run(toolpack: &Toolpack, r: FindRelationshipsRequest) -> Self::Output {
        answer(async {
            let pattern = |p: Option<String>| p.filter(|p| !p.trim().is_empty());
            let (source, target) = (pattern(r.source_pattern), pattern(r.target_pattern));
            if source.is_none() && target.is_none() {
                return Err(Failure::invalid(
                    "give source_pattern or target_pattern (or both)",
                ));
            }
            let kind = r.relationship_type.map(|t| t.to_lowercase());
            let kind = choice::optional("relationship_type", kind.as_deref(), &TYPES)?;
            let limit = limit(r.limit);
            let project = load_project(toolpack, r.project_path).await?;
            let graph = DependencyGraph::of(&project);
            let mut found: Vec<FoundRelationship> = graph
                .edges
                .iter()
                .filter_map(|e| Some((e, e.target.as_ref()?)))
                .filter(|(e, t)| {
                    source
                        .as_deref()
                        .is_none_or(|p| glob::matches(p, &e.source))
                        && target.as_deref().is_none_or(|p| glob::matches(p, t))
                        && kind.as_deref().is_none_or(|k| e.kind == k)
                })
                .map(|(e, t)| FoundRelationship {
                    source_id: e.source.clone(),
                    target_id: t.clone(),
                    kind: e.kind.clone(),
                    description: e.label.clone(),
                    technology: e.technology.clone(),
                    location: e.location.clone(),
                })
                .collect();
            found.sort_by(|a, b| (&a.source_id, &a.target_id).cmp(&(&b.source_id, &b.target_id)));
            let total = found.len() as u32;
            found.truncate(limit as usize);
            Ok(FindRelationshipsResult {
                message: summary(total, found.len() as u32, "relationship"),
                relationships: found,
                total_matched: total,
            })
        })
        .await
    }
}

/// The limit a call asks for, within `1..=MAX_LIMIT` (0 or none: the default).
pub(crate) fn limit(asked: Option<u32>) -> u32 {
    match asked {
        None | Some(0) => DEFAULT_LIMIT,
        Some(n) => n.min(MAX_LIMIT),
    }
}

/// `Found 3 relationships`, or `Showing 20 of 45 …` when the limit cut the list.
pub(crate) fn summary(total: u32, shown: u32, noun: &str) -> String {
    let plural = if total == 1 { "" } else { "s" };
    match (total, shown) {
        (0, _) => format!("No {noun}s found"),
        (t, s) if s < t => format!("Showing {s} of {t} matching {noun}s (raise limit for more)"),
        (t, _) => format!("Found {t} {noun}{plural}"),
    }
}
