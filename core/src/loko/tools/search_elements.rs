//! `search_elements`: systems, containers and components whose id or name match a glob.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Toolpack;
use crate::loko::formats::markdown;
use crate::loko::project::model::{Entity, Project, ROLES};
use crate::loko::response::{Failure, LokoResponse};
use crate::loko::tools::choice;
use crate::loko::tools::glob;
use crate::loko::tools::project_tool::{answer, load_project};
use crate::loko::tools::relationship_tools::{limit, summary};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

/// `search_elements` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct SearchElementsRequest {
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
    /// A glob (`*`, `?`) for the id or name, e.g. `*payment*`.
    ///
    /// A glob (`*` any run, `?` one character; case is ignored) for the qualified id,
    /// the id or the name, e.g. `*payment*`.
    pub query: String,
    /// `system`, `container` or `component`.
    ///
    /// Only `system`, `container` or `component` elements.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["system", "container", "component"]))]
    pub kind: Option<String>,
    /// Only this technology.
    ///
    /// Only elements with this technology (case ignored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub technology: Option<String>,
    /// Only this tag.
    ///
    /// Only elements with this tag (case ignored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// Default 20, at most 100.
    ///
    /// The most results (default 20, at most 100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
}

/// An element found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct FoundElement {
    /// The qualified id: `system`, `system/container` or `system/container/component`
    /// (directory names).
    pub id: String,
    /// The display name.
    pub name: String,
    /// `system`, `container` or `component`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The description.
    pub description: String,
    /// The technology, when it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub technology: Option<String>,
    /// The tags.
    pub tags: Vec<String>,
    /// The parent's qualified id (none for a system).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_id: Option<String>,
}

/// `search_elements` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct SearchElementsResult {
    /// The elements found, systems first, then containers, then components, each by id,
    /// up to the limit.
    pub results: Vec<FoundElement>,
    /// How many elements match in all.
    pub total_matched: u32,
    /// A sentence on the result.
    pub message: String,
}

/// The `search_elements` tool.
pub struct SearchElements;

crate::tool::offline_bodies!(SearchElementsResult);

impl Tool for SearchElements {
    type Input = SearchElementsRequest;
    type Output = LokoResponse<SearchElementsResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "search_elements",
        title: "loko: search elements",
        description: "Find systems, containers and components by id or name pattern, type, technology \
or tag.",
        summary: "Systems, containers and components whose id or name match a glob",
        needs: "",
        toolset: Toolset::Loko,
        annotations: Annotations::READ_ONLY_LOCAL,
    };

    async fn run(toolpack: &Toolpack, r: SearchElementsRequest) -> Self::Output {
        answer(async {
            let query = r.query.trim().to_owned();
            if query.is_empty() {
                return Err(Failure::invalid("query is required (a glob such as *api*)"));
            }
            let given =
                |v: Option<String>| v.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
            let kind = r.kind.map(|k| k.to_lowercase());
            let kind = choice::optional("type", kind.as_deref(), &ROLES)?;
            let (technology, tag) = (given(r.technology), given(r.tag));
            let limit = limit(r.limit);
            let project = load_project(toolpack, r.project_path).await?;
            let mut found: Vec<FoundElement> = elements(&project)
                .into_iter()
                .filter(|e| {
                    kind.as_deref().is_none_or(|k| e.kind == k)
                        && (glob::matches(&query, &e.id)
                            || glob::matches(&query, e.id.rsplit('/').next().unwrap_or(&e.id))
                            || glob::matches(&query, &e.name))
                        && technology.as_deref().is_none_or(|t| {
                            e.technology
                                .as_deref()
                                .is_some_and(|et| et.eq_ignore_ascii_case(t))
                        })
                        && tag
                            .as_deref()
                            .is_none_or(|t| e.tags.iter().any(|et| et.eq_ignore_ascii_case(t)))
                })
                .collect();
            let total = found.len() as u32;
            found.truncate(limit as usize);
            Ok(SearchElementsResult {
                message: summary(total, found.len() as u32, "element"),
                results: found,
                total_matched: total,
            })
        })
        .await
    }
}

/// Every element of `project`: systems, then containers, then components, each by id.
fn elements(project: &Project) -> Vec<FoundElement> {
    let element = |e: &Entity, id: String, parent: Option<String>| FoundElement {
        name: e.name(),
        kind: e.level.role().to_owned(),
        description: e.description(),
        technology: e.technology(),
        tags: markdown::list(&e.doc.frontmatter, "tags"),
        parent_id: parent,
        id,
    };
    let systems = project
        .systems
        .iter()
        .map(|s| element(s, s.id.clone(), None));
    let containers = project
        .containers()
        .map(|(s, c)| element(c, format!("{}/{}", s.id, c.id), Some(s.id.clone())));
    let components = project.components().map(|(s, c, k)| {
        let parent = format!("{}/{}", s.id, c.id);
        element(k, format!("{parent}/{}", k.id), Some(parent))
    });
    systems.chain(containers).chain(components).collect()
}
