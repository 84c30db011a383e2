//! `analyze_coupling`: the isolated, highly coupled and central components of a system
//! or of the whole project.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::DependencyGraph;
use crate::Toolpack;
use crate::loko::project::model::Level;
use crate::loko::response::LokoResponse;
use crate::loko::tools::lookup;
use crate::loko::tools::project_tool::{answer, load_project};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

/// A component counts as highly coupled with more dependencies than this (loko's rule).
pub const HIGHLY_COUPLED_ABOVE: usize = 2;
/// A component counts as central with more dependents than this (loko's rule).
pub const CENTRAL_ABOVE: usize = 2;

/// `analyze_coupling` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct AnalyzeCouplingRequest {
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
    /// Omit for the whole project.
    ///
    /// The system to analyse (id or name); the whole project when omitted. Alias:
    /// `system_name`.
    #[serde(
        default,
        alias = "system_name",
        skip_serializing_if = "Option::is_none"
    )]
    pub system_id: Option<String>,
}

/// A component and a count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct CouplingCount {
    /// The component, qualified.
    pub id: String,
    /// How many dependencies (highly coupled) or dependents (central).
    pub count: u32,
}

/// `analyze_coupling` answer. Only edges with both ends in the scope count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct AnalyzeCouplingResult {
    /// The system analysed, or `project`.
    pub scope: String,
    /// Systems in the scope.
    pub total_systems: u32,
    /// Containers in the scope.
    pub total_containers: u32,
    /// Components in the scope.
    pub total_components: u32,
    /// Edges in the scope (component to component, after fanning out container paths).
    pub total_relationships: u32,
    /// Components with no edge either way, by id (none when the scope has no edge at
    /// all: a fresh project is not "isolated").
    pub isolated_components: Vec<String>,
    /// Components with more than 2 dependencies, most first.
    pub highly_coupled_components: Vec<CouplingCount>,
    /// Components with more than 2 dependents, most first.
    pub central_components: Vec<CouplingCount>,
    /// What the lists mean.
    pub note: String,
}

/// The `analyze_coupling` tool.
pub struct AnalyzeCoupling;

crate::tool::offline_bodies!(AnalyzeCouplingResult);

impl Tool for AnalyzeCoupling {
    type Input = AnalyzeCouplingRequest;
    type Output = LokoResponse<AnalyzeCouplingResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "analyze_coupling",
        title: "loko: analyse coupling",
        description: "Find isolated, tightly coupled and central components of a loko project or one system.",
        summary: "Isolated, highly coupled and central components of a system or the project",
        needs: "",
        toolset: Toolset::Loko,
        annotations: Annotations::READ_ONLY_LOCAL,
    };

    async fn run(toolpack: &Toolpack, r: AnalyzeCouplingRequest) -> Self::Output {
        answer(async {
            let project = load_project(toolpack, r.project_path).await?;
            let system = match r.system_id.filter(|s| !s.trim().is_empty()) {
                Some(s) => Some(lookup::system(&project, &s)?),
                None => None,
            };
            let graph = DependencyGraph::of(&project);
            let prefix = system.map(|s| format!("{}/", s.id));
            let inside = |id: &str| prefix.as_deref().is_none_or(|p| id.starts_with(p));
            let components: Vec<&String> = graph
                .nodes
                .iter()
                .filter(|(id, n)| n.level == Level::Component && inside(id))
                .map(|(id, _)| id)
                .collect();
            let scoped = |ids: Vec<&String>| -> usize {
                ids.into_iter().filter(|id| inside(id)).count()
            };
            let ranked = |count: &dyn Fn(&str) -> usize, above: usize| {
                let mut ranked: Vec<CouplingCount> = components
                    .iter()
                    .map(|id| CouplingCount {
                        id: (*id).clone(),
                        count: count(id) as u32,
                    })
                    .filter(|c| c.count as usize > above)
                    .collect();
                ranked.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.id.cmp(&b.id)));
                ranked
            };
            let out = |id: &str| scoped(graph.dependencies(id).collect());
            let incoming = |id: &str| scoped(graph.dependents(id).collect());
            let edges = graph
                .nodes
                .keys()
                .filter(|id| inside(id))
                .map(|id| out(id))
                .sum::<usize>();
            let isolated = components
                .iter()
                .filter(|id| edges > 0 && out(id) == 0 && incoming(id) == 0)
                .map(|id| (*id).clone())
                .collect();
            let containers = graph
                .nodes
                .iter()
                .filter(|(id, n)| n.level == Level::Container && inside(id))
                .count();
            Ok(AnalyzeCouplingResult {
                scope: system.map_or_else(|| "project".to_owned(), |s| s.id.clone()),
                total_systems: system.map_or(project.systems.len(), |_| 1) as u32,
                total_containers: containers as u32,
                total_components: components.len() as u32,
                total_relationships: edges as u32,
                isolated_components: isolated,
                highly_coupled_components: ranked(&out, HIGHLY_COUPLED_ABOVE),
                central_components: ranked(&incoming, CENTRAL_ABOVE),
                note: "Isolated components have no relationships; highly coupled ones have more than 2 dependencies; central ones have more than 2 dependents.".to_owned(),
            })
        })
        .await
    }
}
