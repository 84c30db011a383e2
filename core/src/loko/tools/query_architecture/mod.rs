//! `query_architecture`: the project, a system or a container at three detail levels,
//! as JSON or as TOON text (the same answer, fewer tokens).

mod tables;
mod types;

use std::collections::BTreeMap;

pub use types::*;

use crate::Toolpack;
use crate::loko::formats::toon;
use crate::loko::json_value::JsonValue;
use crate::loko::project::model::{Entity, Project};
use crate::loko::project::relationships::{self, Relationship};
use crate::loko::response::{Failure, LokoResponse};
use crate::loko::tools::project_tool::{EntityRef, answer, load_project};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

/// Frontmatter keys shown as fields of [`EntityDetail`]; the rest go to `frontmatter`.
const NAMED_KEYS: [&str; 6] = [
    "name",
    "description",
    "technology",
    "tags",
    "relationships",
    "id",
];

/// The `query_architecture` tool.
pub struct QueryArchitecture;

crate::tool::offline_bodies!(ArchitectureView);

impl Tool for QueryArchitecture {
    type Input = QueryArchitectureRequest;
    type Output = LokoResponse<ArchitectureView>;
    const SPEC: ToolSpec = ToolSpec {
        name: "query_architecture",
        title: "loko: query the architecture",
        description: "A loko project's, system's or container's architecture: counts, the tree of names, or \
every field with relationships; as JSON or TOON.",
        summary: "The architecture at a scope (project, system, container) and detail (summary, structure, full), as JSON or TOON",
        needs: "",
        toolset: Toolset::Loko,
        annotations: Annotations::READ_ONLY_LOCAL,
    };

    async fn run(toolpack: &Toolpack, input: QueryArchitectureRequest) -> Self::Output {
        answer(async {
            let query = Query::from_request(&input)?;
            let project = load_project(toolpack, input.project_path).await?;
            let view = query.view(&project)?;
            if query.toon {
                let json =
                    serde_json::to_value(&view).map_err(|e| Failure::internal(e.to_string()))?;
                // Summaries are short lists of ids; structure and full detail become
                // tab-delimited tables (tabs cost fewer tokens than commas in prose).
                let text = match view {
                    ArchitectureView::ProjectSummary(_)
                    | ArchitectureView::SystemSummary(_)
                    | ArchitectureView::ContainerSummary(_) => toon::encode(&json),
                    _ => toon::encode_with(&tables::tables(&json), toon::Delimiter::Tab),
                }
                .map_err(Failure::internal)?;
                return Ok(ArchitectureView::Toon(ToonView {
                    kind: query.detail,
                    format: "toon".to_owned(),
                    toon: text,
                }));
            }
            Ok(view)
        })
        .await
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    Project,
    System,
    Container,
}

#[derive(Debug, Clone)]
struct Query {
    scope: Scope,
    target: Option<String>,
    detail: Detail,
    toon: bool,
}

impl Query {
    /// The checked arguments, with loko's `system_name`/`container_name` spelling.
    fn from_request(r: &QueryArchitectureRequest) -> Result<Self, Failure> {
        let alias_target = match (&r.system_name, &r.container_name) {
            (Some(s), Some(c)) => Some((Scope::Container, format!("{s}/{c}"))),
            (Some(s), None) => Some((Scope::System, s.clone())),
            (None, Some(c)) => Some((Scope::Container, c.clone())),
            (None, None) => None,
        };
        let scope = match r.scope.as_deref().map(str::trim) {
            None | Some("") => alias_target.as_ref().map_or(Scope::Project, |(s, _)| *s),
            Some("project") => Scope::Project,
            Some("system") => Scope::System,
            Some("container") => Scope::Container,
            Some(_) => {
                return Err(Failure::invalid(
                    "scope must be: project, system, or container",
                ));
            }
        };
        let detail = match r.detail.as_deref().map(str::trim) {
            None | Some("") | Some("summary") => Detail::Summary,
            Some("structure") => Detail::Structure,
            Some("full") => Detail::Full,
            Some(_) => {
                return Err(Failure::invalid(
                    "detail must be: summary, structure, or full",
                ));
            }
        };
        let toon = match r.format.as_deref().map(str::trim) {
            None | Some("") | Some("json") => false,
            Some("toon") | Some("text") => true,
            Some(_) => return Err(Failure::invalid("format must be: json or toon")),
        };
        let target = r
            .target
            .clone()
            .filter(|t| !t.trim().is_empty())
            .or_else(|| alias_target.map(|(_, t)| t));
        if detail == Detail::Full && (target.is_none() || scope == Scope::Project) {
            return Err(Failure::invalid(
                "full detail requires target (system or container)",
            ));
        }
        if scope != Scope::Project && target.is_none() {
            let kind = if scope == Scope::System {
                "system"
            } else {
                "container"
            };
            return Err(Failure::invalid(format!(
                "target is required for {kind} scope"
            )));
        }
        Ok(Self {
            scope,
            target,
            detail,
            toon,
        })
    }

    fn view(&self, project: &Project) -> Result<ArchitectureView, Failure> {
        let target = self.target.as_deref().unwrap_or_default();
        Ok(match self.scope {
            Scope::Project => match self.detail {
                Detail::Structure => ArchitectureView::ProjectStructure(ProjectStructure {
                    kind: Detail::Structure,
                    systems: project.systems.iter().map(|s| outline(s, false)).collect(),
                }),
                _ => ArchitectureView::ProjectSummary(ProjectSummary {
                    kind: Detail::Summary,
                    systems: project.systems.len() as u32,
                    containers: project.containers().count() as u32,
                    components: project.components().count() as u32,
                    system_names: project.systems.iter().map(Entity::name).collect(),
                }),
            },
            Scope::System => {
                let system = project
                    .system(target)
                    .ok_or_else(|| Failure::not_found(format!("System '{target}' not found")))?;
                match self.detail {
                    Detail::Summary => ArchitectureView::SystemSummary(SystemSummary {
                        kind: Detail::Summary,
                        system: system.id.clone(),
                        name: system.name(),
                        containers: system.children.len() as u32,
                        components: system
                            .children
                            .iter()
                            .map(|c| c.children.len() as u32)
                            .sum(),
                        container_names: ids(&system.children),
                    }),
                    Detail::Structure => ArchitectureView::SystemStructure(SystemStructure {
                        kind: Detail::Structure,
                        system: outline(system, true),
                    }),
                    Detail::Full => ArchitectureView::SystemFull(SystemFull {
                        kind: Detail::Full,
                        system: detail(project, system, &edges_of(project)),
                    }),
                }
            }
            Scope::Container => {
                let (system, container) = project
                    .container(target)
                    .map_err(|candidates| {
                        Failure::invalid(format!(
                            "Container '{target}' is in more than one system; use system/container"
                        ))
                        .details(candidates.join(", "))
                    })?
                    .ok_or_else(|| Failure::not_found(format!("Container '{target}' not found")))?;
                match self.detail {
                    Detail::Summary => ArchitectureView::ContainerSummary(ContainerSummary {
                        kind: Detail::Summary,
                        system: system.id.clone(),
                        container: container.id.clone(),
                        name: container.name(),
                        components: container.children.len() as u32,
                        component_names: ids(&container.children),
                    }),
                    Detail::Structure => ArchitectureView::ContainerStructure(ContainerStructure {
                        kind: Detail::Structure,
                        system: system.id.clone(),
                        container: container_outline(container, true),
                    }),
                    Detail::Full => ArchitectureView::ContainerFull(ContainerFull {
                        kind: Detail::Full,
                        system: system.id.clone(),
                        container: detail(project, container, &edges_of(project)),
                    }),
                }
            }
        })
    }
}

fn ids(entities: &[Entity]) -> Vec<String> {
    entities.iter().map(|e| e.id.clone()).collect()
}

fn non_empty(text: String) -> Option<String> {
    (!text.is_empty()).then_some(text)
}

fn outline(system: &Entity, deep: bool) -> SystemOutline {
    SystemOutline {
        id: system.id.clone(),
        name: system.name(),
        description: non_empty(system.description()),
        containers: system
            .children
            .iter()
            .map(|c| container_outline(c, deep))
            .collect(),
    }
}

fn container_outline(container: &Entity, deep: bool) -> ContainerOutline {
    ContainerOutline {
        id: container.id.clone(),
        name: container.name(),
        description: deep.then(|| non_empty(container.description())).flatten(),
        components: deep.then(|| container.children.iter().map(EntityRef::from).collect()),
    }
}

/// Outgoing relationships by source component (qualified id).
fn edges_of(project: &Project) -> BTreeMap<String, Vec<Relationship>> {
    relationships::by_source(relationships::of(project).edges.clone())
}

fn detail(
    project: &Project,
    entity: &Entity,
    edges: &BTreeMap<String, Vec<Relationship>>,
) -> EntityDetail {
    use crate::loko::project::model::Level;
    let others: serde_json::Map<String, serde_json::Value> = entity
        .doc
        .frontmatter
        .iter()
        .filter(|(k, _)| !NAMED_KEYS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let frontmatter = (!others.is_empty()).then(|| JsonValue(serde_json::Value::Object(others)));
    let children = || {
        Some(
            entity
                .children
                .iter()
                .map(|c| detail(project, c, edges))
                .collect(),
        )
    };
    EntityDetail {
        id: entity.id.clone(),
        name: entity.name(),
        description: entity.description(),
        technology: entity.technology(),
        tags: crate::loko::formats::markdown::list(&entity.doc.frontmatter, "tags"),
        path: entity.dir.clone(),
        diagram: entity.diagram.clone(),
        frontmatter,
        containers: (entity.level == Level::System).then(children).flatten(),
        components: (entity.level == Level::Container).then(children).flatten(),
        relationships: (entity.level == Level::Component).then(|| {
            edges
                .get(&project.qualified_id(entity))
                .map(|list| {
                    list.iter()
                        .map(|e| RelationshipView {
                            target: e.target.clone().unwrap_or_else(|| e.target_written.clone()),
                            description: e.label.clone(),
                            resolved: e.target.is_some(),
                        })
                        .collect()
                })
                .unwrap_or_default()
        }),
    }
}
