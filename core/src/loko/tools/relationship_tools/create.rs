//! `create_relationship`: adds an edge to a system's `relationships.toml`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{RelationshipEntry, SystemRelationships};
use crate::Toolpack;
use crate::loko::formats::relationship_file::{StoredRelationship, relationship_id};
use crate::loko::project::model::Project;
use crate::loko::project::relationships::{Here, Index};
use crate::loko::response::{Failure, LokoResponse};
use crate::loko::tools::choice;
use crate::loko::tools::graph_tools::unresolved;
use crate::loko::tools::lookup;
use crate::loko::tools::project_tool::{answer, edit};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

/// The relationship types.
pub(crate) const TYPES: [&str; 3] = ["sync", "async", "event"];
/// The directions.
const DIRECTIONS: [&str; 2] = ["forward", "bidirectional"];

/// `create_relationship` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct CreateRelationshipRequest {
    /// The project path.
    ///
    /// Alias: `project_root`.
    #[serde(alias = "project_root")]
    pub project_path: String,
    /// The system that keeps it.
    ///
    /// The system whose `relationships.toml` keeps the edge (id or name).
    pub system_name: String,
    /// `system/container/component`, `system/container` or a short id.
    ///
    /// The source: `system/container/component`, `system/container` (all its
    /// components) or a short id, counted from the project.
    pub source: String,
    /// As `source`.
    ///
    /// The target, in the same forms.
    pub target: String,
    /// What the source does, e.g. `Reads orders from`.
    ///
    /// What the source does with the target, e.g. `Reads orders from`.
    pub label: String,
    /// Default sync.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["sync", "async", "event"]))]
    pub kind: Option<String>,
    /// e.g. `gRPC`.
    ///
    /// The technology, e.g. `gRPC`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub technology: Option<String>,
    /// Default forward.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["forward", "bidirectional"]))]
    pub direction: Option<String>,
}

/// `create_relationship` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct CreateRelationshipResult {
    /// `false` when the same relationship (same id) was there already; nothing was added.
    pub created: bool,
    /// The relationship.
    pub relationship: RelationshipEntry,
    /// The relationships file, project-relative.
    pub file: String,
    /// The D2 diagram whose `# relationships` section is kept in step, project-relative.
    pub diagram_path: String,
    /// Whether that section is in step (`false`, with `diagram_error`, when writing the
    /// diagram failed; the relationship itself is saved).
    pub diagram_updated: bool,
    /// Why the diagram could not be written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagram_error: Option<String>,
    /// `Relationship '<id>' created` (or `already exists`).
    pub message: String,
}

/// The `create_relationship` tool.
pub struct CreateRelationship;

crate::tool::offline_bodies!(CreateRelationshipResult);

impl Tool for CreateRelationship {
    type Input = CreateRelationshipRequest;
    type Output = LokoResponse<CreateRelationshipResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "create_relationship",
        title: "loko: create a relationship",
        description: "Connect two elements with a relationship (who calls or depends on whom) and draw \
it in the system's diagram.",
        summary: "Adds an edge to a system's relationships.toml and its diagram",
        needs: "",
        toolset: Toolset::Loko,
        annotations: Annotations {
            idempotent: true,
            ..Annotations::CREATES_LOCAL
        },
    };

    async fn run(toolpack: &Toolpack, r: CreateRelationshipRequest) -> Self::Output {
        answer(async {
            let checked = Checked::of(&r)?;
            edit(toolpack, r.project_path, move |root, loko| {
                let project = loko.project(root.clone())?;
                let system = lookup::system(&project, &r.system_name)?;
                let (source, target) = checked.stored_paths(&project, &system.id)?;
                let new = StoredRelationship {
                    id: relationship_id(&source, &target, &checked.label),
                    source,
                    target,
                    label: checked.label,
                    kind: checked.kind,
                    technology: checked.technology,
                    direction: checked.direction,
                };
                let mut relationships = SystemRelationships::of(system)?;
                let existing = relationships.document.get(&new.id).cloned();
                let created = existing.is_none();
                let relationship = existing.unwrap_or(new);
                if created {
                    relationships.document.push(relationship.clone());
                }
                let touched = relationships.save(loko, &root, &project, &relationship)?;
                Ok(CreateRelationshipResult {
                    created,
                    message: format!(
                        "Relationship '{}' {}",
                        relationship.id,
                        if created { "created" } else { "already exists" }
                    ),
                    relationship: RelationshipEntry::from(&relationship),
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

/// The arguments, checked before the project is read.
struct Checked {
    source: String,
    target: String,
    label: String,
    kind: String,
    technology: Option<String>,
    direction: String,
}

impl Checked {
    fn of(r: &CreateRelationshipRequest) -> Result<Self, Failure> {
        let label = r.label.trim();
        if label.is_empty() {
            return Err(Failure::invalid("label is required"));
        }
        let (source, target) = (path("source", &r.source)?, path("target", &r.target)?);
        if source == target {
            return Err(Failure::invalid(
                "source and target must differ (no self-references)",
            ));
        }
        Ok(Self {
            source,
            target,
            label: label.to_owned(),
            kind: choice::or_first("type", r.kind.as_deref(), &TYPES)?,
            technology: r
                .technology
                .as_deref()
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::to_owned),
            direction: choice::or_first("direction", r.direction.as_deref(), &DIRECTIONS)?,
        })
    }

    /// The paths to store: as given when loko reads them as the same element (a
    /// qualified id, or a short id unique in the project), else the qualified id.
    fn stored_paths(&self, project: &Project, system: &str) -> Result<(String, String), Failure> {
        let index = Index::of(project);
        let here = Here {
            system,
            container: None,
        };
        let anywhere = Here {
            system: "",
            container: None,
        };
        let stored = |given: &str| -> Result<String, Failure> {
            let node = index
                .node(here, given)
                .map_err(|why| unresolved(given, why, index.ids()))?;
            let as_loko_reads = index.node(anywhere, given).ok();
            let exact = node == given || node.rsplit('/').next() == Some(given);
            Ok(if exact && as_loko_reads.as_deref() == Some(&node) {
                given.to_owned()
            } else {
                node
            })
        };
        let (source, target) = (stored(&self.source)?, stored(&self.target)?);
        let same = |p: &str| index.node(here, p).ok();
        if same(&source) == same(&target) {
            return Err(
                Failure::invalid("source and target must differ (no self-references)")
                    .details(format!("both are {source}")),
            );
        }
        Ok((source, target))
    }
}

/// `value` trimmed, refused when it is not a relative element path.
fn path(field: &str, value: &str) -> Result<String, Failure> {
    let value = value.trim();
    let refuse = |why: &str| {
        Err(
            Failure::invalid(format!("{field} '{value}' is not an element path"))
                .details(why.to_owned()),
        )
    };
    if value.is_empty() {
        return Err(Failure::invalid(format!("{field} is required")));
    }
    if value.starts_with('/') || value.contains('\\') {
        return refuse("it must count from the project, without a leading / or \\");
    }
    if value.split('/').any(|p| p == ".." || p == ".") {
        return refuse("'..' and '.' segments are not allowed");
    }
    if value.split('/').any(|p| p.trim().is_empty()) {
        return refuse("it has an empty segment");
    }
    if value.split('/').count() > 3 {
        return refuse("use system/container/component, system/container or a short id");
    }
    Ok(value.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_that_leave_the_project_or_are_empty_are_refused() {
        for bad in [
            "",
            " ",
            "/shop/api",
            "shop/../x",
            "shop//api",
            "a/b/c/d",
            "a\\b",
            "./a",
        ] {
            assert!(path("source", bad).is_err(), "{bad}");
        }
        assert_eq!(path("source", " shop/api ").unwrap(), "shop/api");
    }
}
