//! `create_system`, `create_container`, `create_component`: scaffold an entity's
//! directory, markdown and diagram. A new entity claims its markdown file with an
//! atomic create-if-absent, so concurrent calls never overwrite each other or lose one;
//! an existing entity (same id, or same name after slugging) is never overwritten.

mod batch;
mod scaffold;

use std::path::Path;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Toolpack;
use crate::loko::project::fence::{self, ProjectRoot, WriteMode, create_dir, write_atomic};
use crate::loko::project::model::{Entity, Level, Project};
use crate::loko::project::settings::SETTINGS_FILE;
use crate::loko::project::slug::checked_id;
use crate::loko::response::{Failure, LokoErrorCode, LokoResponse};
use crate::loko::tools::lookup;
use crate::loko::tools::project_tool::{answer, blocking, required_path};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};
pub use batch::{
    ComponentOutcome, CreateComponents, CreateComponentsRequest, CreateComponentsResult,
    NewComponent,
};
pub use scaffold::NewEntity;

/// Creates files only and never overwrites (a second call answers `ALREADY_EXISTS`).
const CREATES: Annotations = Annotations::CREATES_LOCAL;

/// `create_system` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct CreateSystemRequest {
    /// The project path.
    ///
    /// An empty directory becomes a project.
    ///
    /// Path to the loko project (created as a project, with a `loko.toml`, when it is
    /// an empty directory).
    ///
    /// Alias: `project_root`.
    #[serde(alias = "project_root")]
    pub project_path: String,
    /// e.g. `Payment Service`.
    ///
    /// The system's name, e.g. `Payment Service`; its id is the slug (`payment-service`).
    ///
    /// Alias: `name`.
    #[serde(alias = "name")]
    pub system_name: String,
    /// What it does.
    ///
    /// What the system does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `system` (default) or a template in `.loko/templates/`.
    ///
    /// Template: `system` (default) or a project template in `.loko/templates/<name>/`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    /// The technology.
    ///
    /// The system's main technology.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub technology: Option<String>,
    /// Responsibilities.
    ///
    /// loko v0.3; kept in the frontmatter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub responsibilities: Option<Vec<String>>,
    /// Users and actors.
    ///
    /// loko v0.3; kept in the frontmatter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_users: Option<Vec<String>>,
    /// What it depends on, e.g. `Database`.
    ///
    /// What the system depends on, e.g. `Database`, `Message Queue`.
    ///
    /// loko v0.3; kept in the frontmatter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dependencies: Option<Vec<String>>,
    /// Systems it integrates with.
    ///
    /// loko v0.3; kept in the frontmatter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_systems: Option<Vec<String>>,
    /// The primary language.
    ///
    /// loko v0.3; kept in the frontmatter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub primary_language: Option<String>,
    /// Framework.
    ///
    /// loko v0.3; kept in the frontmatter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub framework: Option<String>,
    /// The database.
    ///
    /// loko v0.3; kept in the frontmatter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub database: Option<String>,
    /// Tags.
    ///
    /// loko v0.3; kept in the frontmatter's `tags`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
}

/// `create_container` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct CreateContainerRequest {
    /// The project path.
    ///
    /// Alias: `project_root`.
    #[serde(alias = "project_root")]
    pub project_path: String,
    /// Its system.
    ///
    /// Its id or name.
    ///
    /// The parent system (id or name).
    pub system_name: String,
    /// e.g. `API Service`.
    ///
    /// Alias: `name`.
    #[serde(alias = "name")]
    pub container_name: String,
    /// What it does.
    ///
    /// What the container does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// e.g. `Web Service`, `Database`.
    ///
    /// Container type, e.g. `Web Service`, `Database` (a store is drawn as a cylinder).
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Its technology.
    ///
    /// The container's technology, e.g. `Node.js`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub technology: Option<String>,
    /// Tags.
    ///
    /// loko v0.3; kept in the frontmatter's `tags`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
}

/// `create_component` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct CreateComponentRequest {
    /// The project path.
    ///
    /// Alias: `project_root`.
    #[serde(alias = "project_root")]
    pub project_path: String,
    /// Its system.
    ///
    /// Its id or name.
    ///
    /// The parent system (id or name).
    pub system_name: String,
    /// Its container.
    ///
    /// Its id or name.
    ///
    /// The parent container (id or name).
    pub container_name: String,
    /// Its name.
    ///
    /// Alias: `name`.
    #[serde(alias = "name")]
    pub component_name: String,
    /// What it does.
    ///
    /// What the component does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its technology.
    ///
    /// The component's technology.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub technology: Option<String>,
    /// Tags.
    ///
    /// loko v0.3; kept in the frontmatter's `tags`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
}

/// The entity a create call made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct CreatedEntity {
    /// The id (directory name).
    pub id: String,
    /// The display name.
    pub name: String,
    /// The directory, project-relative.
    pub path: String,
}

/// `create_system` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct CreateSystemResult {
    /// Always `true` (a failure is the error envelope).
    pub success: bool,
    /// The new system.
    pub system: CreatedEntity,
    /// The files written, project-relative.
    pub files_created: Vec<String>,
    /// `System '<id>' created successfully`.
    pub message: String,
}

/// `create_container` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct CreateContainerResult {
    /// Always `true`.
    pub success: bool,
    /// The new container.
    pub container: CreatedEntity,
    /// The files written, project-relative.
    pub files_created: Vec<String>,
    /// `Container '<id>' created in system '<system>'`.
    pub message: String,
}

/// `create_component` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct CreateComponentResult {
    /// Always `true`.
    pub success: bool,
    /// The new component.
    pub component: CreatedEntity,
    /// The files written, project-relative.
    pub files_created: Vec<String>,
    /// `Component '<id>' created in container '<container>' of system '<system>'`.
    pub message: String,
}

/// What to create, where.
struct Plan {
    project_path: String,
    level: Level,
    /// The parents' ids or names, outermost first.
    parents: Vec<String>,
    name: String,
    description: Option<String>,
    technology: Option<String>,
    kind: Option<String>,
    template: Option<String>,
    /// loko v0.3's further frontmatter fields, in order (a list or a text each).
    extra: Vec<(&'static str, serde_json::Value)>,
}

/// `(key, value)` for the frontmatter, when `value` says something (a blank text or an
/// empty list says nothing).
fn field<T: Into<serde_json::Value>>(
    key: &'static str,
    value: Option<T>,
) -> Option<(&'static str, serde_json::Value)> {
    let value: serde_json::Value = value?.into();
    let blank = match &value {
        serde_json::Value::String(s) => s.trim().is_empty(),
        serde_json::Value::Array(items) => items.is_empty(),
        _ => false,
    };
    (!blank).then_some((key, value))
}

/// What a create call made.
struct Created {
    entity: CreatedEntity,
    files: Vec<String>,
    parents: Vec<String>,
}

/// The `create_system` tool.
pub struct CreateSystem;

crate::tool::offline_bodies!(CreateSystemResult);

impl Tool for CreateSystem {
    type Input = CreateSystemRequest;
    type Output = LokoResponse<CreateSystemResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "create_system",
        title: "loko: create a system",
        description: "Add a software system (its markdown and D2 diagram) to a loko project; an empty \
directory becomes one.",
        summary: "Scaffolds a system (`system.md` with frontmatter, `system.d2`); makes an empty directory a project",
        needs: "",
        toolset: Toolset::Loko,
        annotations: CREATES,
    };

    async fn run(toolpack: &Toolpack, r: CreateSystemRequest) -> Self::Output {
        let plan = Plan {
            project_path: r.project_path,
            level: Level::System,
            parents: Vec::new(),
            name: r.system_name,
            description: r.description,
            technology: r.technology,
            kind: None,
            template: r.template,
            extra: [
                field("responsibilities", r.responsibilities),
                field("key_users", r.key_users),
                field("dependencies", r.dependencies),
                field("external_systems", r.external_systems),
                field("primary_language", r.primary_language),
                field("framework", r.framework),
                field("database", r.database),
                field("tags", r.tags),
            ]
            .into_iter()
            .flatten()
            .collect(),
        };
        answer(async {
            let made = create(toolpack, plan).await?;
            Ok(CreateSystemResult {
                success: true,
                message: format!("System '{}' created successfully", made.entity.id),
                system: made.entity,
                files_created: made.files,
            })
        })
        .await
    }
}

/// The `create_container` tool.
pub struct CreateContainer;

crate::tool::offline_bodies!(CreateContainerResult);

impl Tool for CreateContainer {
    type Input = CreateContainerRequest;
    type Output = LokoResponse<CreateContainerResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "create_container",
        title: "loko: create a container",
        description: "Add a container (an app, service or database) to a system of a loko C4 architecture.",
        summary: "Scaffolds a container in a system",
        needs: "",
        toolset: Toolset::Loko,
        annotations: CREATES,
    };

    async fn run(toolpack: &Toolpack, r: CreateContainerRequest) -> Self::Output {
        let plan = Plan {
            project_path: r.project_path,
            level: Level::Container,
            parents: vec![r.system_name],
            name: r.container_name,
            description: r.description,
            technology: r.technology,
            kind: r.kind,
            template: None,
            extra: field("tags", r.tags).into_iter().collect(),
        };
        answer(async {
            let made = create(toolpack, plan).await?;
            Ok(CreateContainerResult {
                success: true,
                message: format!(
                    "Container '{}' created in system '{}'",
                    made.entity.id, made.parents[0]
                ),
                container: made.entity,
                files_created: made.files,
            })
        })
        .await
    }
}

/// The `create_component` tool.
pub struct CreateComponent;

crate::tool::offline_bodies!(CreateComponentResult);

impl Tool for CreateComponent {
    type Input = CreateComponentRequest;
    type Output = LokoResponse<CreateComponentResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "create_component",
        title: "loko: create a component",
        description: "Add a component (a module or class group) to a container of a loko C4 architecture.",
        summary: "Scaffolds a component in a container",
        needs: "",
        toolset: Toolset::Loko,
        annotations: CREATES,
    };

    async fn run(toolpack: &Toolpack, r: CreateComponentRequest) -> Self::Output {
        let plan = Plan {
            project_path: r.project_path,
            level: Level::Component,
            parents: vec![r.system_name, r.container_name],
            name: r.component_name,
            description: r.description,
            technology: r.technology,
            kind: None,
            template: None,
            extra: field("tags", r.tags).into_iter().collect(),
        };
        answer(async {
            let made = create(toolpack, plan).await?;
            Ok(CreateComponentResult {
                success: true,
                message: format!(
                    "Component '{}' created in container '{}' of system '{}'",
                    made.entity.id, made.parents[1], made.parents[0]
                ),
                component: made.entity,
                files_created: made.files,
            })
        })
        .await
    }
}

async fn create(toolpack: &Toolpack, plan: Plan) -> Result<Created, Failure> {
    let config = toolpack.config().clone();
    blocking(move || {
        required_path(&plan.project_path)?;
        let root = ProjectRoot::open(&config, Some(&plan.project_path))?;
        create_in(root, plan)
    })
    .await
}

fn create_in(root: ProjectRoot, plan: Plan) -> Result<Created, Failure> {
    let level = plan.level;
    let id =
        checked_id(level.title(), &plan.name).map_err(|(m, d)| Failure::invalid(m).details(d))?;
    let mut files = Vec::new();
    let project = match Project::load(root.clone()) {
        Ok(project) => project,
        Err(e) if level == Level::System && e.code == LokoErrorCode::NotFound => {
            let settings = root.resolve(Path::new(SETTINGS_FILE))?;
            write_atomic(
                &settings,
                scaffold::settings_file(&root.dir_name()).as_bytes(),
                WriteMode::CreateNew,
            )?;
            files.push(SETTINGS_FILE.to_owned());
            Project::load(root.clone())?
        }
        Err(e) => return Err(e),
    };
    let (siblings, parent_dir, parents) = parent_of(&project, &plan.parents)?;
    let name = plan.name.trim().to_owned();
    if let Some(existing) = siblings.iter().find(|e| e.matches(&name) || e.matches(&id)) {
        return Err(already_exists(level, &existing.id, &parents));
    }
    let entity = NewEntity {
        id: id.clone(),
        name: name.clone(),
        description: plan.description.unwrap_or_default().trim().to_owned(),
        technology: plan.technology.unwrap_or_default().trim().to_owned(),
        kind: plan.kind.unwrap_or_default().trim().to_owned(),
        extra: plan.extra,
    };
    let (markdown, diagram) = match &plan.template {
        Some(t) if !is_builtin(t) => template(&root, t, &entity)?,
        _ => (entity.markdown(level), Some(entity.diagram(level))),
    };
    let dir_rel = format!("{parent_dir}/{id}");
    let dir = root.resolve(Path::new(&dir_rel))?;
    create_dir(&root, &dir)?;
    let md = dir.join(level.markdown_file());
    write_atomic(&md, markdown.as_bytes(), WriteMode::CreateNew).map_err(|e| match e.code {
        LokoErrorCode::AlreadyExists => already_exists(level, &id, &parents),
        _ => e,
    })?;
    files.push(root.relative(&md));
    let has_diagram = level
        .diagram_candidates(&id)
        .iter()
        .any(|n| fence::is_file(&dir.join(n)));
    if let (Some(diagram), false) = (diagram, has_diagram) {
        let d2 = dir.join(format!("{}.d2", level.role()));
        write_atomic(&d2, diagram.as_bytes(), WriteMode::CreateNew)?;
        files.push(root.relative(&d2));
    }
    Ok(Created {
        entity: CreatedEntity {
            id,
            name,
            path: dir_rel,
        },
        files,
        parents,
    })
}

/// The siblings a new entity joins, its parent directory and its parents' ids.
fn parent_of<'a>(
    project: &'a Project,
    parents: &[String],
) -> Result<(&'a [Entity], String, Vec<String>), Failure> {
    let mut siblings: &[Entity] = &project.systems;
    let mut dir = project.source.clone();
    let mut ids = Vec::new();
    let mut parent: Option<&Entity> = None;
    for (depth, wanted) in parents.iter().enumerate() {
        let found = match parent {
            None => lookup::system(project, wanted)?,
            Some(p) => {
                lookup::child_of(p, [Level::Container, Level::Component][depth - 1], wanted)?
            }
        };
        ids.push(found.id.clone());
        dir = found.dir.clone();
        siblings = &found.children;
        parent = Some(found);
    }
    Ok((siblings, dir, ids))
}

fn already_exists(level: Level, id: &str, parents: &[String]) -> Failure {
    let message = match (level, parents) {
        (Level::Container, [system]) => {
            format!("Container '{id}' already exists in system '{system}'")
        }
        (Level::Component, [_, container]) => {
            format!("Component '{id}' already exists in container '{container}'")
        }
        _ => format!("System '{id}' already exists"),
    };
    Failure::new(LokoErrorCode::AlreadyExists, message)
}

fn is_builtin(template: &str) -> bool {
    matches!(template.trim(), "" | "system" | "default" | "standard")
}

/// A project template's `system.md` (required) and `system.d2` (optional), filled in.
fn template(
    root: &ProjectRoot,
    name: &str,
    entity: &NewEntity,
) -> Result<(String, Option<String>), Failure> {
    let not_found = || Failure::not_found(format!("Template '{name}' not found"));
    if name.contains(['/', '\\']) || name.starts_with('.') {
        return Err(not_found());
    }
    let dir = root
        .resolve(&Path::new(".loko/templates").join(name))
        .map_err(|_| not_found())?;
    let markdown = fence::read_text(&dir.join("system.md")).ok_or_else(not_found)?;
    let diagram = fence::read_text(&dir.join("system.d2"));
    // The template's own frontmatter, with the call's further fields after its first line.
    let mut markdown = entity.fill(&markdown);
    if let Some(rest) = markdown.strip_prefix("---\n") {
        markdown = format!("---\n{}{rest}", entity.extra_frontmatter());
    }
    Ok((markdown, diagram.map(|d| entity.fill(&d))))
}
