//! The relationship tools: `create_relationship`, `delete_relationship` and
//! `list_relationships` work on a system's `relationships.toml` (loko v0.3's format, so
//! loko reads what they write and the other way round) and keep the system's D2
//! relationship section in step ([`crate::loko::formats::diagram_section`]); `find_relationships`
//! searches the whole graph.

mod create;
mod delete;
mod find;
mod list;

use std::path::Path;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::loko::LokoState;
use crate::loko::formats::diagram_section;
use crate::loko::formats::relationship_file::{self, RelationshipsDocument, StoredRelationship};
use crate::loko::project::fence::{self, ProjectRoot, WriteMode, write_atomic};
use crate::loko::project::model::{Entity, Project, RELATIONSHIPS_FILE};
use crate::loko::project::relationships::Index;
use crate::loko::response::{Failure, LokoErrorCode};

pub use create::{CreateRelationship, CreateRelationshipRequest, CreateRelationshipResult};
pub use delete::{DeleteRelationship, DeleteRelationshipRequest, DeleteRelationshipResult};
pub use find::{
    FindRelationships, FindRelationshipsRequest, FindRelationshipsResult, FoundRelationship,
};
pub(crate) use find::{limit, summary};
pub use list::{ListRelationships, ListRelationshipsRequest, ListRelationshipsResult};

/// A relationship of `relationships.toml`, as answers show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct RelationshipEntry {
    /// The id (loko's: 8 hex digits of sha256 of `source->target:label`).
    pub id: String,
    /// The source path, as stored.
    pub source: String,
    /// The target path, as stored.
    pub target: String,
    /// What the relationship does.
    pub label: String,
    /// `sync`, `async` or `event`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The technology, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub technology: Option<String>,
    /// `forward` or `bidirectional`.
    pub direction: String,
}

impl From<&StoredRelationship> for RelationshipEntry {
    fn from(r: &StoredRelationship) -> Self {
        Self {
            id: r.id.clone(),
            source: r.source.clone(),
            target: r.target.clone(),
            label: r.label.clone(),
            kind: r.kind.clone(),
            technology: r.technology.clone(),
            direction: r.direction.clone(),
        }
    }
}

/// What writing a relationship change did to the files.
pub(crate) struct FilesTouched {
    pub(crate) file: String,
    pub(crate) diagram_path: String,
    pub(crate) diagram_error: Option<String>,
}

/// A system's relationships file, read for an edit.
pub(crate) struct SystemRelationships<'a> {
    pub(crate) system: &'a Entity,
    pub(crate) document: RelationshipsDocument,
}

impl<'a> SystemRelationships<'a> {
    /// The relationships of `system` (none when it has no file); `INVALID_SYNTAX` when
    /// the file does not parse.
    pub(crate) fn of(system: &'a Entity) -> Result<Self, Failure> {
        let document = match &system.relationships {
            Some(text) => relationship_file::parse(text).map_err(|e| {
                Failure::new(
                    LokoErrorCode::InvalidSyntax,
                    format!("Invalid {RELATIONSHIPS_FILE} of system '{}'", system.id),
                )
                .details(e)
            })?,
            None => RelationshipsDocument::default(),
        };
        Ok(Self { system, document })
    }

    /// The relationships file, project-relative.
    pub(crate) fn file(&self) -> String {
        format!("{}/{RELATIONSHIPS_FILE}", self.system.dir)
    }

    /// Saves the document atomically, then brings the section of the diagram that
    /// draws `changed` in step; the loaded project of `loko` is brought in step too.
    pub(crate) fn save(
        &self,
        loko: &LokoState,
        root: &ProjectRoot,
        project: &Project,
        changed: &StoredRelationship,
    ) -> Result<FilesTouched, Failure> {
        let file = self.file();
        let path = root.resolve(Path::new(&file))?;
        let toml = self.document.render();
        write_atomic(&path, toml.as_bytes(), WriteMode::Replace)?;
        let mut now = project.clone();
        // The entities are as they were: their index holds; the graph does not.
        now.memo = project.memo.only::<Index>();
        if let Some(system) = now.entity_mut(&self.system.dir) {
            system.relationships = Some(toml.into());
        }
        let mut touched = vec![path];
        let (drawer, diagram) = self.diagram_of(project, changed);
        let drawn: Vec<&StoredRelationship> = self
            .document
            .relationships
            .iter()
            .filter(|r| self.diagram_of(project, r).1 == diagram)
            .collect();
        let written = root.resolve(Path::new(&diagram)).and_then(|path| {
            let existing = fence::read_text(&path);
            let text = diagram_section::with_section(existing.as_deref(), drawn);
            if existing.as_deref() != Some(text.as_str()) {
                write_atomic(&path, text.as_bytes(), WriteMode::Replace)?;
            }
            if let Some(entity) = now.entity_mut(&drawer) {
                entity.diagram = Some(diagram.clone());
                entity.diagram_source = Some(text.into());
            }
            touched.push(path);
            Ok(())
        });
        loko.projects.replace(root, now, &touched);
        Ok(FilesTouched {
            file,
            diagram_path: diagram,
            diagram_error: written.err().map(|e| match e.details {
                Some(details) => format!("{}: {details}", e.message),
                None => e.message,
            }),
        })
    }

    /// The diagram that draws `relationship`, project-relative: the container's when
    /// both ends are components of the same container of this system (as loko
    /// chooses), else the system's.
    /// Answers the drawing entity's directory and the diagram.
    fn diagram_of(&self, project: &Project, relationship: &StoredRelationship) -> (String, String) {
        fn container<'p>(path: &'p str, system: &str) -> Option<&'p str> {
            let parts: Vec<&str> = path.trim().split('/').collect();
            match parts.as_slice() {
                [s, c, _] if *s == system => Some(*c),
                _ => None,
            }
        }
        let container = |path| container(path, &self.system.id);
        let shared = match (
            container(&relationship.source),
            container(&relationship.target),
        ) {
            (Some(a), Some(b)) if a == b => project
                .system(&self.system.id)
                .and_then(|s| s.children.iter().find(|c| c.id == a)),
            _ => None,
        };
        let entity = shared.unwrap_or(self.system);
        let diagram = entity
            .diagram
            .clone()
            .unwrap_or_else(|| format!("{}/{}.d2", entity.dir, entity.level.role()));
        (entity.dir.clone(), diagram)
    }
}
