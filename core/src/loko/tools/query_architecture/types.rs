//! `query_architecture` arguments and answers: one record per scope and detail level.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::loko::json_value::JsonValue;
use crate::loko::tools::project_tool::EntityRef;

/// `query_architecture` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct QueryArchitectureRequest {
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
    /// Default project.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["project", "system", "container"]))]
    pub scope: Option<String>,
    /// The system, or `system/container`.
    ///
    /// For `system`/`container` scope: the system id, or the container as
    /// `system/container` (a container id alone works when it is unique). Ids or names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Default summary; full needs a target.
    ///
    /// `summary` (default), `structure` or `full` (which needs a target).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["summary", "structure", "full"]))]
    pub detail: Option<String>,
    /// Default json; toon takes fewer tokens.
    ///
    /// `json` (default) or `toon` (the same answer as TOON text, fewer tokens; `text` is
    /// accepted as `toon`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["json", "toon"]))]
    pub format: Option<String>,
    /// The system (instead of scope and target).
    ///
    /// loko's spelling: the system (instead of `scope` + `target`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_name: Option<String>,
    /// The container inside `system_name`.
    ///
    /// loko's spelling: the container inside `system_name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container_name: Option<String>,
}

/// The detail level of an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(rename_all = "lowercase")]
pub enum Detail {
    /// Counts and ids.
    Summary,
    /// The tree of ids and names.
    Structure,
    /// Everything the files say about one system or container.
    Full,
}

/// A `query_architecture` answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
#[serde(untagged)]
pub enum ArchitectureView {
    /// `scope: project, detail: summary`.
    ProjectSummary(ProjectSummary),
    /// `scope: system, detail: summary`.
    SystemSummary(SystemSummary),
    /// `scope: container, detail: summary`.
    ContainerSummary(ContainerSummary),
    /// `scope: project, detail: structure`.
    ProjectStructure(ProjectStructure),
    /// `scope: system, detail: structure`.
    SystemStructure(SystemStructure),
    /// `scope: container, detail: structure`.
    ContainerStructure(ContainerStructure),
    /// `scope: system, detail: full`.
    SystemFull(SystemFull),
    /// `scope: container, detail: full`.
    ContainerFull(ContainerFull),
    /// `format: toon`: one of the above as TOON text.
    Toon(ToonView),
}

/// Counts and system ids of the whole project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct ProjectSummary {
    /// `summary`.
    #[serde(rename = "type")]
    pub kind: Detail,
    /// How many systems.
    pub systems: u32,
    /// How many containers.
    pub containers: u32,
    /// How many components.
    pub components: u32,
    /// The systems' names, as loko v0.3 lists them (`Online Shop`, not its id
    /// `online-shop`).
    pub system_names: Vec<String>,
}

/// Counts and container ids of one system.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct SystemSummary {
    /// `summary`.
    #[serde(rename = "type")]
    pub kind: Detail,
    /// The system id.
    pub system: String,
    /// The system's name.
    pub name: String,
    /// How many containers.
    pub containers: u32,
    /// How many components.
    pub components: u32,
    /// The container ids.
    pub container_names: Vec<String>,
}

/// Counts and component ids of one container.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct ContainerSummary {
    /// `summary`.
    #[serde(rename = "type")]
    pub kind: Detail,
    /// The system id.
    pub system: String,
    /// The container id.
    pub container: String,
    /// The container's name.
    pub name: String,
    /// How many components.
    pub components: u32,
    /// The component ids.
    pub component_names: Vec<String>,
}

/// A system in a structure answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct SystemOutline {
    /// The id.
    pub id: String,
    /// The name.
    pub name: String,
    /// The description, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its containers.
    pub containers: Vec<ContainerOutline>,
}

/// A container in a structure answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct ContainerOutline {
    /// The id.
    pub id: String,
    /// The name.
    pub name: String,
    /// The description (system and container scope only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its components (system and container scope only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub components: Option<Vec<EntityRef>>,
}

/// The structure of the whole project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct ProjectStructure {
    /// `structure`.
    #[serde(rename = "type")]
    pub kind: Detail,
    /// The systems.
    pub systems: Vec<SystemOutline>,
}

/// The structure of one system.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct SystemStructure {
    /// `structure`.
    #[serde(rename = "type")]
    pub kind: Detail,
    /// The system.
    pub system: SystemOutline,
}

/// The structure of one container.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct ContainerStructure {
    /// `structure`.
    #[serde(rename = "type")]
    pub kind: Detail,
    /// The system id.
    pub system: String,
    /// The container.
    pub container: ContainerOutline,
}

/// A relationship of a component.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct RelationshipView {
    /// The target component, qualified (`system/container/component`) when it
    /// resolves, else as written.
    pub target: String,
    /// What the relationship does.
    pub description: String,
    /// Whether the target is a known component.
    pub resolved: bool,
}

/// Everything the files say about a system, container or component.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct EntityDetail {
    /// The id.
    pub id: String,
    /// The name.
    pub name: String,
    /// The description.
    pub description: String,
    /// The technology, when stated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub technology: Option<String>,
    /// Tags.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// The directory, project-relative.
    pub path: String,
    /// The diagram file, project-relative.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagram: Option<String>,
    /// Every other frontmatter key, as written (e.g. `responsibilities`, `code_annotations`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frontmatter: Option<JsonValue>,
    /// A system's containers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub containers: Option<Vec<EntityDetail>>,
    /// A container's components.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub components: Option<Vec<EntityDetail>>,
    /// A component's outgoing relationships (all three forms, deduplicated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relationships: Option<Vec<RelationshipView>>,
}

/// One system in full detail.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct SystemFull {
    /// `full`.
    #[serde(rename = "type")]
    pub kind: Detail,
    /// The system.
    pub system: EntityDetail,
}

/// One container in full detail.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct ContainerFull {
    /// `full`.
    #[serde(rename = "type")]
    pub kind: Detail,
    /// The system id.
    pub system: String,
    /// The container.
    pub container: EntityDetail,
}

/// An answer as TOON text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct ToonView {
    /// The detail level.
    #[serde(rename = "type")]
    pub kind: Detail,
    /// `toon`.
    pub format: String,
    /// The JSON answer encoded as TOON (spec v4.0).
    pub toon: String,
}
