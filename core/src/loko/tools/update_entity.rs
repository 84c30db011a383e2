//! `update_system`, `update_container`, `update_component`: change an entity's
//! description, technology, tags (and a system's loko v0.3 fields) in its markdown
//! frontmatter. Only the keys changed are rewritten: the markdown body and every other
//! frontmatter key stay as they are (loko v0.3 rewrites the whole file and loses them).
//! A blank text keeps the current value; a list replaces the current one (`[]` clears
//! it). The file is replaced atomically.

use std::path::Path;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::Toolpack;
use crate::loko::formats::frontmatter_edit;
use crate::loko::formats::markdown::{self, Document};
use crate::loko::project::fence::{self, WriteMode, write_atomic};
use crate::loko::project::model::{Entity, Level, display_name};
use crate::loko::response::{Failure, LokoErrorCode, LokoResponse};
use crate::loko::tools::lookup;
use crate::loko::tools::project_tool::{answer, edit};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

/// Rewrites values in place; the same call twice leaves the same file.
const UPDATES: Annotations = Annotations::REPLACES_LOCAL;

/// `update_system` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct UpdateSystemRequest {
    /// The project path.
    ///
    /// Alias: `project_root`.
    #[serde(alias = "project_root")]
    pub project_path: String,
    /// The system.
    ///
    /// Its id or name.
    pub system_name: String,
    /// The description.
    ///
    /// A new description (blank keeps the current one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The technology.
    ///
    /// A new technology (blank keeps the current one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub technology: Option<String>,
    /// The responsibilities.
    ///
    /// Replaces the key responsibilities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub responsibilities: Option<Vec<String>>,
    /// The key users.
    ///
    /// Replaces the key users.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_users: Option<Vec<String>>,
    /// The dependencies.
    ///
    /// Replaces the dependencies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dependencies: Option<Vec<String>>,
    /// The external systems.
    ///
    /// Replaces the external systems.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_systems: Option<Vec<String>>,
    /// The primary language.
    ///
    /// A new primary language (blank keeps the current one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub primary_language: Option<String>,
    /// The framework.
    ///
    /// A new framework (blank keeps the current one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub framework: Option<String>,
    /// The database.
    ///
    /// A new database (blank keeps the current one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub database: Option<String>,
    /// The tags.
    ///
    /// Replaces the tags.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
}

/// `update_container` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct UpdateContainerRequest {
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
    /// The container.
    ///
    /// The container.
    ///
    /// Its id or name.
    pub container_name: String,
    /// The description.
    ///
    /// A new description (blank keeps the current one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The technology.
    ///
    /// A new technology (blank keeps the current one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub technology: Option<String>,
    /// The tags.
    ///
    /// Replaces the tags.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
}

/// `update_component` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct UpdateComponentRequest {
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
    /// The component.
    ///
    /// The component (id or name).
    pub component_name: String,
    /// The description.
    ///
    /// A new description (blank keeps the current one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The technology.
    ///
    /// A new technology (blank keeps the current one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub technology: Option<String>,
    /// The tags.
    ///
    /// Replaces the tags.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
}

/// An entity after an update: what its frontmatter says now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct UpdatedEntity {
    /// The id (directory name).
    pub id: String,
    /// The display name.
    pub name: String,
    /// The description.
    pub description: String,
    /// The technology, when it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub technology: Option<String>,
    /// The tags.
    pub tags: Vec<String>,
    /// A system's key responsibilities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub responsibilities: Option<Vec<String>>,
    /// A system's key users.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_users: Option<Vec<String>>,
    /// A system's dependencies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dependencies: Option<Vec<String>>,
    /// A system's external systems.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_systems: Option<Vec<String>>,
    /// A system's primary language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub primary_language: Option<String>,
    /// A system's framework.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub framework: Option<String>,
    /// A system's database.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub database: Option<String>,
}

/// The answer of the update tools: the entity, and what changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct UpdateEntityResult {
    /// `system`, `container` or `component`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The entity as it is now.
    pub entity: UpdatedEntity,
    /// The frontmatter keys whose value changed (empty: the file was not written).
    pub changed: Vec<String>,
    /// The markdown file, project-relative.
    pub file: String,
    /// `System '<id>' updated (description, tags)`, or `… unchanged`.
    pub message: String,
}

/// `(key, value)` when a text says something (blank keeps the current value).
fn text(key: &'static str, value: Option<String>) -> Option<(&'static str, Value)> {
    let value = value?.trim().to_owned();
    (!value.is_empty()).then_some((key, Value::String(value)))
}

/// `(key, list)` when a list is given (its blank items dropped).
fn list(key: &'static str, value: Option<Vec<String>>) -> Option<(&'static str, Value)> {
    let items = value?
        .into_iter()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .map(Value::String)
        .collect();
    Some((key, Value::Array(items)))
}

macro_rules! update_tool {
    ($tool:ident, $request:ty, $name:literal, $title:literal, $level:expr, $summary:literal, $description:literal) => {
        #[doc = concat!("The `", $name, "` tool.")]
        pub struct $tool;

        impl Tool for $tool {
            type Input = $request;
            type Output = LokoResponse<UpdateEntityResult>;
            const SPEC: ToolSpec = ToolSpec {
                name: $name,
                title: $title,
                description: $description,
                summary: $summary,
                needs: "",
                toolset: Toolset::Loko,
                annotations: UPDATES,
            };

            async fn run(toolpack: &Toolpack, r: $request) -> Self::Output {
                let (project_path, path, changes) = r.into_change();
                answer(update(toolpack, project_path, $level, path, changes)).await
            }
        }
    };
}

update_tool!(
    UpdateSystem,
    UpdateSystemRequest,
    "update_system",
    "loko: update a system",
    Level::System,
    "Changes a system's description, technology, tags and loko v0.3 fields in place",
    "Change a system's description, technology, tags and other fields in place; a blank text keeps a value, a list replaces one."
);
update_tool!(
    UpdateContainer,
    UpdateContainerRequest,
    "update_container",
    "loko: update a container",
    Level::Container,
    "Changes a container's description, technology and tags in place",
    "Change a container's description, technology and tags in place; a blank text keeps a value, a list replaces one."
);
update_tool!(
    UpdateComponent,
    UpdateComponentRequest,
    "update_component",
    "loko: update a component",
    Level::Component,
    "Changes a component's description, technology and tags in place",
    "Change a component's description, technology and tags in place; a blank text keeps a value, a list replaces one."
);

/// The project, the path of ids or names to the entity, and the keys to set.
type Change = (String, Vec<String>, Vec<(&'static str, Value)>);

impl UpdateSystemRequest {
    fn into_change(self) -> Change {
        let changes = [
            text("description", self.description),
            text("technology", self.technology),
            list("responsibilities", self.responsibilities),
            list("key_users", self.key_users),
            list("dependencies", self.dependencies),
            list("external_systems", self.external_systems),
            text("primary_language", self.primary_language),
            text("framework", self.framework),
            text("database", self.database),
            list("tags", self.tags),
        ];
        let path = vec![self.system_name];
        (
            self.project_path,
            path,
            changes.into_iter().flatten().collect(),
        )
    }
}

impl UpdateContainerRequest {
    fn into_change(self) -> Change {
        let changes = [
            text("description", self.description),
            text("technology", self.technology),
            list("tags", self.tags),
        ];
        let path = vec![self.system_name, self.container_name];
        (
            self.project_path,
            path,
            changes.into_iter().flatten().collect(),
        )
    }
}

impl UpdateComponentRequest {
    fn into_change(self) -> Change {
        let changes = [
            text("description", self.description),
            text("technology", self.technology),
            list("tags", self.tags),
        ];
        let path = vec![self.system_name, self.container_name, self.component_name];
        (
            self.project_path,
            path,
            changes.into_iter().flatten().collect(),
        )
    }
}

async fn update(
    toolpack: &Toolpack,
    project_path: String,
    level: Level,
    path: Vec<String>,
    changes: Vec<(&'static str, Value)>,
) -> Result<UpdateEntityResult, Failure> {
    edit(toolpack, project_path, move |root, loko| {
        let project = loko.project(root.clone())?;
        let entity = lookup::at_path(&project, &path)?;
        let file = root.resolve(Path::new(&entity.file))?;
        let text = fence::read_text(&file).ok_or_else(|| {
            Failure::internal("Unable to read the entity's file").details(entity.file.clone())
        })?;
        let current = markdown::parse(&text).map_err(|e| invalid_frontmatter(entity, e))?;
        let changes: Vec<(&str, Value)> = changes
            .into_iter()
            .filter(|(key, value)| current.frontmatter.get(*key) != Some(value))
            .collect();
        let doc = if changes.is_empty() {
            current
        } else {
            let edited = frontmatter_edit::set(&text, &changes)
                .map_err(|e| invalid_frontmatter(entity, e))?;
            write_atomic(&file, edited.as_bytes(), WriteMode::Replace)?;
            let doc = markdown::parse(&edited).map_err(|e| invalid_frontmatter(entity, e))?;
            let mut now = (*project).clone();
            now.memo = Default::default();
            if let Some(changed) = now.entity_mut(&entity.dir) {
                changed.doc = std::sync::Arc::new(doc.clone());
            }
            loko.projects
                .replace(&root, now, std::slice::from_ref(&file));
            doc
        };
        let changed: Vec<String> = changes.iter().map(|(k, _)| (*k).to_owned()).collect();
        let message = match changed.as_slice() {
            [] => format!("{} '{}' unchanged", level.title(), entity.id),
            keys => format!(
                "{} '{}' updated ({})",
                level.title(),
                entity.id,
                keys.join(", ")
            ),
        };
        Ok(UpdateEntityResult {
            kind: level.role().to_owned(),
            entity: updated(entity, &doc),
            changed,
            file: entity.file.clone(),
            message,
        })
    })
    .await
}

fn invalid_frontmatter(entity: &Entity, problem: String) -> Failure {
    Failure::new(
        LokoErrorCode::InvalidSyntax,
        format!("Invalid YAML frontmatter in {}", entity.file),
    )
    .details(problem)
}

/// What `doc` (the entity's markdown now) says about `entity`.
fn updated(entity: &Entity, doc: &Document) -> UpdatedEntity {
    let frontmatter = &doc.frontmatter;
    let text = |key: &str| markdown::text(frontmatter, key);
    let system_list = |key: &str| {
        (entity.level == Level::System && frontmatter.contains_key(key))
            .then(|| markdown::list(frontmatter, key))
    };
    let system_text = |key: &str| text(key).filter(|_| entity.level == Level::System);
    UpdatedEntity {
        id: entity.id.clone(),
        name: display_name(doc, &entity.id),
        description: text("description").unwrap_or_default(),
        technology: text("technology"),
        tags: markdown::list(frontmatter, "tags"),
        responsibilities: system_list("responsibilities"),
        key_users: system_list("key_users"),
        dependencies: system_list("dependencies"),
        external_systems: system_list("external_systems"),
        primary_language: system_text("primary_language"),
        framework: system_text("framework"),
        database: system_text("database"),
    }
}
crate::tool::offline_bodies!(UpdateEntityResult);
