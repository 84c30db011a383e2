//! The project model: a loko project read from disk as real projects are laid out
//! (`src/<system>/system.md`, `…/<container>/container.md`,
//! `…/<component>/component.md`, a diagram beside each), with what reading found
//! wrong kept as findings for `validate` instead of failing the read.
//!
//! An I/O module: loading blocks, and runs on the blocking pool (`project_tool::blocking`).
#![allow(
    clippy::disallowed_methods,
    reason = "an I/O module of loko: its callers run it on the blocking pool"
)]

use std::path::{Path, PathBuf};

use crate::loko::formats::markdown::{self, Document};
use crate::loko::project::fence::{ProjectRoot, io_failure};
use crate::loko::project::settings::{ProjectSettings, SETTINGS_FILE};
use crate::loko::project::slug::{same_entity, slugify};
use crate::loko::response::{Failure, LokoErrorCode};

/// A system's relationships file (loko v0.3's `[[relationships]]`), in its directory.
pub const RELATIONSHIPS_FILE: &str = "relationships.toml";

/// The levels' role names, as arguments name them.
pub const ROLES: [&str; 3] = ["system", "container", "component"];

/// The three levels of entities below a project.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    /// A software system (`system.md`).
    System,
    /// A container inside a system (`container.md`).
    Container,
    /// A component inside a container (`component.md`).
    Component,
}

impl Level {
    /// The role name: `system`, `container` or `component`.
    pub fn role(self) -> &'static str {
        match self {
            Self::System => "system",
            Self::Container => "container",
            Self::Component => "component",
        }
    }

    /// The capitalised role, for messages.
    pub fn title(self) -> &'static str {
        match self {
            Self::System => "System",
            Self::Container => "Container",
            Self::Component => "Component",
        }
    }

    /// The markdown file that makes a directory an entity of this level.
    pub fn markdown_file(self) -> String {
        format!("{}.md", self.role())
    }

    fn child(self) -> Option<Level> {
        match self {
            Self::System => Some(Self::Container),
            Self::Container => Some(Self::Component),
            Self::Component => None,
        }
    }

    /// The diagram file names to try, in the notes' lookup order.
    pub fn diagram_candidates(self, dir_name: &str) -> Vec<String> {
        let mut names = vec![format!("{}.d2", self.role()), format!("{dir_name}.d2")];
        if self != Self::System {
            names.push("system.d2".to_owned());
        }
        names.dedup();
        names
    }
}

/// A system, container or component.
#[derive(Debug, Clone, PartialEq)]
pub struct Entity {
    /// The level.
    pub level: Level,
    /// The id: the directory name.
    pub id: String,
    /// The directory, project-relative (`src/shop/api`).
    pub dir: String,
    /// The markdown file, project-relative.
    pub file: String,
    /// The parsed markdown.
    pub doc: std::sync::Arc<Document>,
    /// The diagram file, project-relative, when there is one.
    pub diagram: Option<String>,
    /// The diagram's D2 source (a component's arrows are relationships).
    pub diagram_source: Option<std::sync::Arc<str>>,
    /// A system's `relationships.toml`, as text, when it has one.
    pub relationships: Option<std::sync::Arc<str>>,
    /// The entities one level down, sorted by id.
    pub children: Vec<Entity>,
}

impl Entity {
    /// The display name: frontmatter `name`, else the first `# ` heading, else the id.
    pub fn name(&self) -> String {
        display_name(&self.doc, &self.id)
    }

    /// Frontmatter `description` (empty when missing).
    pub fn description(&self) -> String {
        markdown::text(&self.doc.frontmatter, "description").unwrap_or_default()
    }

    /// Frontmatter `technology`.
    pub fn technology(&self) -> Option<String> {
        markdown::text(&self.doc.frontmatter, "technology")
    }

    /// Whether this entity is the one `wanted` (an id or a name) means.
    pub fn matches(&self, wanted: &str) -> bool {
        same_entity(&self.id, &self.name(), wanted)
    }

    /// Every entity below this one, depth first.
    pub fn descendants(&self) -> impl Iterator<Item = &Entity> {
        self.children
            .iter()
            .flat_map(|c| std::iter::once(c).chain(c.children.iter()))
    }
}

/// The display name `doc` gives the entity `id`: frontmatter `name`, else the first `# `
/// heading, else the id.
pub fn display_name(doc: &Document, id: &str) -> String {
    markdown::text(&doc.frontmatter, "name")
        .or_else(|| markdown::first_heading(&doc.body))
        .unwrap_or_else(|| id.to_owned())
}

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Blocks a build.
    Error,
    /// Worth fixing; an error under `strict`.
    Warning,
    /// For information only.
    Info,
}

/// Something reading or checking the project found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// How serious it is.
    pub severity: Severity,
    /// A stable code, e.g. `ORPHANED_DIRECTORY`.
    pub code: &'static str,
    /// What is wrong, for a person.
    pub message: String,
    /// The project-relative file or directory it is about.
    pub location: String,
}

impl Finding {
    /// A finding.
    pub fn new(
        severity: Severity,
        code: &'static str,
        message: impl Into<String>,
        location: impl Into<String>,
    ) -> Self {
        Self {
            severity,
            code,
            message: message.into(),
            location: location.into(),
        }
    }
}

/// A loaded project.
#[derive(Debug, Clone)]
pub struct Project {
    /// The project directory.
    pub root: ProjectRoot,
    /// `loko.toml`.
    pub settings: ProjectSettings,
    /// The source directory, project-relative (`src`).
    pub source: String,
    /// The systems, sorted by id.
    pub systems: Vec<Entity>,
    /// What reading found wrong (orphans, broken frontmatter, naming conflicts).
    pub findings: Vec<Finding>,
    /// The newest modification time of a source file.
    pub updated_at: Option<std::time::SystemTime>,
    /// What tools derived from this project (its relationship graph), kept with it.
    pub memo: crate::loko::project::memo::Memo,
}

/// Every file and directory a project was read from, with its stamp (`None`: it did not
/// exist), so a later call can tell whether the project changed without reading it again.
pub type Stamps = Vec<(PathBuf, Option<crate::loko::project::file_cache::Stamp>)>;

impl Project {
    /// Reads the project at `root`. A directory with neither `loko.toml` nor a source
    /// directory is "Not a valid loko project".
    pub fn load(root: ProjectRoot) -> Result<Project, Failure> {
        Self::load_with(
            root,
            &crate::loko::project::file_cache::FileCache::default(),
        )
    }

    /// Reads the project at `root`, reusing the files of `cache` that did not change.
    pub fn load_with(
        root: ProjectRoot,
        cache: &crate::loko::project::file_cache::FileCache,
    ) -> Result<Project, Failure> {
        Self::read(root, cache).map(|(project, _)| project)
    }

    /// Reads the project at `root` (reusing the files of `cache` that did not change), and
    /// the stamps of everything it was read from.
    pub fn read(
        root: ProjectRoot,
        cache: &crate::loko::project::file_cache::FileCache,
    ) -> Result<(Project, Stamps), Failure> {
        let mut stamps = Stamps::new();
        let settings = read_settings(&root, &mut stamps)?;
        let source = settings
            .source
            .trim_start_matches("./")
            .trim_end_matches('/')
            .to_owned();
        let source = if source.is_empty() {
            ".".to_owned()
        } else {
            source
        };
        let source_dir = root.resolve(Path::new(&source))?;
        if !settings.found && !source_dir.is_dir() {
            return Err(
                Failure::new(LokoErrorCode::NotFound, "Not a valid loko project").details(format!(
                    "{} has no {SETTINGS_FILE} and no {source}/ directory",
                    root.path().display()
                )),
            );
        }
        stamps.push((root.path().to_owned(), dir_stamp(root.path())));
        stamps.push((source_dir.clone(), dir_stamp(&source_dir)));
        let mut reader = Reader {
            cache,
            root: &root,
            findings: Vec::new(),
            updated_at: None,
            stamps,
        };
        let systems = if source_dir.is_dir() {
            let top = reader.list(&source_dir)?;
            reader.read_level(&top.dirs, Level::System)?
        } else {
            Vec::new()
        };
        let Reader {
            findings,
            updated_at,
            stamps,
            ..
        } = reader;
        let source = root.relative(&source_dir);
        let project = Project {
            root,
            settings,
            source,
            systems,
            findings,
            updated_at,
            memo: Default::default(),
        };
        Ok((project, stamps))
    }

    /// The system `wanted` (an id or a name).
    pub fn system(&self, wanted: &str) -> Option<&Entity> {
        find(&self.systems, wanted)
    }

    /// The container `wanted`: `system/container`, or a container id or name that is
    /// unique in the project. `Err` lists the candidates when it is not unique.
    pub fn container(&self, wanted: &str) -> Result<Option<(&Entity, &Entity)>, Vec<String>> {
        if let Some((system, container)) = wanted.split_once('/') {
            return Ok(self
                .system(system)
                .and_then(|s| find(&s.children, container).map(|c| (s, c))));
        }
        let all: Vec<(&Entity, &Entity)> = self
            .systems
            .iter()
            .flat_map(|s| s.children.iter().map(move |c| (s, c)))
            .filter(|(_, c)| c.matches(wanted))
            .collect();
        match all.as_slice() {
            [] => Ok(None),
            [one] => Ok(Some(*one)),
            many => Err(many
                .iter()
                .map(|(s, c)| format!("{}/{}", s.id, c.id))
                .collect()),
        }
    }

    /// Every container, with its system.
    pub fn containers(&self) -> impl Iterator<Item = (&Entity, &Entity)> {
        self.systems
            .iter()
            .flat_map(|s| s.children.iter().map(move |c| (s, c)))
    }

    /// Every component, with its system and container.
    pub fn components(&self) -> impl Iterator<Item = (&Entity, &Entity, &Entity)> {
        self.containers()
            .flat_map(|(s, c)| c.children.iter().map(move |k| (s, c, k)))
    }

    /// The entity whose directory (project-relative) is `dir`, to change a copy of the
    /// project after a write.
    pub fn entity_mut(&mut self, dir: &str) -> Option<&mut Entity> {
        fn within<'a>(entities: &'a mut [Entity], dir: &str) -> Option<&'a mut Entity> {
            for entity in entities {
                if entity.dir == dir {
                    return Some(entity);
                }
                if dir.starts_with(&format!("{}/", entity.dir)) {
                    return within(&mut entity.children, dir);
                }
            }
            None
        }
        within(&mut self.systems, dir)
    }

    /// The qualified id of `entity`: its directory below the source directory,
    /// `system[/container[/component]]`.
    pub fn qualified_id(&self, entity: &Entity) -> String {
        entity
            .dir
            .strip_prefix(&format!("{}/", self.source))
            .unwrap_or(&entity.dir)
            .to_owned()
    }
}

/// The child of `entities` that `wanted` (an id or a name) means: an exact id first.
pub fn find<'a>(entities: &'a [Entity], wanted: &str) -> Option<&'a Entity> {
    entities
        .iter()
        .find(|e| e.id == wanted.trim())
        .or_else(|| entities.iter().find(|e| e.matches(wanted)))
}

fn read_settings(root: &ProjectRoot, stamps: &mut Stamps) -> Result<ProjectSettings, Failure> {
    let path = root.resolve(Path::new(SETTINGS_FILE))?;
    let stamp = std::fs::metadata(&path)
        .ok()
        .map(|m| crate::loko::project::file_cache::Stamp::of(&m));
    stamps.push((path.clone(), stamp));
    match std::fs::read_to_string(&path) {
        Ok(text) => ProjectSettings::parse(&text, &root.dir_name()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Ok(ProjectSettings::defaults(&root.dir_name()))
        }
        Err(e) => Err(io_failure(&path, &e)),
    }
}

struct Reader<'a> {
    cache: &'a crate::loko::project::file_cache::FileCache,
    root: &'a ProjectRoot,
    findings: Vec<Finding>,
    updated_at: Option<std::time::SystemTime>,
    stamps: Stamps,
}

/// The stamp of the directory `dir` (its modification time changes when an entry is
/// added, removed or renamed).
fn dir_stamp(dir: &Path) -> Option<crate::loko::project::file_cache::Stamp> {
    std::fs::metadata(dir)
        .ok()
        .map(|m| crate::loko::project::file_cache::Stamp::of(&m))
}

/// One directory read once: its files and its subdirectories (sorted, no dot-entries).
struct Listing {
    files: std::collections::BTreeSet<String>,
    dirs: Vec<PathBuf>,
}

impl Listing {
    fn has_d2(&self) -> bool {
        self.files.iter().any(|f| f.ends_with(".d2"))
    }
}

impl Reader<'_> {
    /// The entities of `level` in the subdirectories `dirs`.
    fn read_level(&mut self, dirs: &[PathBuf], level: Level) -> Result<Vec<Entity>, Failure> {
        let mut entities = Vec::new();
        for sub in dirs {
            let listing = self.list(sub)?;
            let rel = self.root.relative(sub);
            if listing.files.contains(&level.markdown_file()) {
                entities.push(self.read_entity(sub, &listing, level)?);
            } else if listing.has_d2() || self.has_child_entities(&listing, level) {
                self.findings.push(Finding::new(
                    Severity::Error,
                    missing_code(level),
                    format!(
                        "{} directory '{}' has no {}",
                        level.title(),
                        dir_name(sub),
                        level.markdown_file()
                    ),
                    format!("{rel}/"),
                ));
            } else {
                self.findings.push(Finding::new(
                    Severity::Warning,
                    "ORPHANED_DIRECTORY",
                    format!(
                        "Directory '{}' is not a {} (no {})",
                        dir_name(sub),
                        level.role(),
                        level.markdown_file()
                    ),
                    format!("{rel}/"),
                ));
            }
        }
        let mut seen: Vec<(String, String)> = Vec::new();
        for entity in &entities {
            let key = slugify(&entity.id);
            if let Some((_, first)) = seen.iter().find(|(k, _)| *k == key) {
                self.findings.push(Finding::new(
                    Severity::Error,
                    duplicate_code(level),
                    format!(
                        "{} id '{}' is not unique: '{}' is the same after normalisation",
                        level.title(),
                        entity.id,
                        first
                    ),
                    format!("{}/", entity.dir),
                ));
            } else {
                seen.push((key, entity.id.clone()));
            }
        }
        Ok(entities)
    }

    /// Whether a directory without its markdown file has children that are entities.
    fn has_child_entities(&mut self, listing: &Listing, level: Level) -> bool {
        let Some(child) = level.child() else {
            return false;
        };
        for d in &listing.dirs {
            self.stamps.push((d.clone(), dir_stamp(d)));
        }
        listing
            .dirs
            .iter()
            .any(|d| d.join(child.markdown_file()).is_file())
    }

    fn read_entity(
        &mut self,
        dir: &Path,
        listing: &Listing,
        level: Level,
    ) -> Result<Entity, Failure> {
        let id = dir_name(dir);
        let md = dir.join(level.markdown_file());
        let rel_dir = self.root.relative(dir);
        let file = format!("{rel_dir}/{}", level.markdown_file());
        let parsed = self.read_markdown(&md)?;
        let doc = parsed.doc.clone().unwrap_or_else(|problem| {
            self.findings.push(Finding::new(
                Severity::Error,
                "INVALID_FRONTMATTER",
                format!(
                    "Invalid YAML frontmatter in {}: {problem}",
                    level.markdown_file()
                ),
                file.clone(),
            ));
            std::sync::Arc::new(Document {
                frontmatter: Default::default(),
                body: parsed.text.to_string(),
            })
        });
        let present: Vec<String> = level
            .diagram_candidates(&id)
            .into_iter()
            .filter(|name| listing.files.contains(name))
            .collect();
        if present.len() > 1 {
            self.findings.push(Finding::new(
                Severity::Warning,
                "MULTIPLE_DIAGRAMS",
                format!(
                    "{} '{}' has {} diagrams ({}); {} is used",
                    level.title(),
                    id,
                    present.len(),
                    present.join(", "),
                    present[0]
                ),
                format!("{rel_dir}/"),
            ));
        }
        let diagram = present.first().map(|name| format!("{rel_dir}/{name}"));
        // A component's diagram must be read (its arrows are relationships); the others
        // are read when they can be, for the tools that look at them.
        let diagram_source = match present.first() {
            Some(name) if level == Level::Component => Some(self.read_text(&dir.join(name))?),
            Some(name) => self.read_text(&dir.join(name)).ok(),
            None => None,
        };
        let relationships = (level == Level::System && listing.files.contains(RELATIONSHIPS_FILE))
            .then(|| self.read_text(&dir.join(RELATIONSHIPS_FILE)).ok())
            .flatten();
        let children = match level.child() {
            Some(child) => self.read_level(&listing.dirs, child)?,
            None => Vec::new(),
        };
        Ok(Entity {
            level,
            id,
            dir: rel_dir,
            file,
            doc,
            diagram,
            diagram_source,
            relationships,
            children,
        })
    }

    /// The stamp of `path`, noting its modification time.
    fn stamp(&mut self, path: &Path) -> Result<crate::loko::project::file_cache::Stamp, Failure> {
        let metadata = std::fs::metadata(path).map_err(|e| io_failure(path, &e))?;
        let stamp = crate::loko::project::file_cache::Stamp::of(&metadata);
        if let Some(modified) = stamp.modified() {
            self.note_time(modified);
        }
        self.stamps.push((path.to_owned(), Some(stamp)));
        Ok(stamp)
    }

    /// A markdown file, parsed (from the cache when unchanged).
    fn read_markdown(
        &mut self,
        path: &Path,
    ) -> Result<std::sync::Arc<crate::loko::project::file_cache::ParsedMarkdown>, Failure> {
        let stamp = self.stamp(path)?;
        self.cache
            .markdown(path, stamp)
            .map_err(|e| io_failure(path, &e))
    }

    /// A text file (from the cache when unchanged).
    fn read_text(&mut self, path: &Path) -> Result<std::sync::Arc<str>, Failure> {
        let stamp = self.stamp(path)?;
        self.cache
            .text(path, stamp)
            .map_err(|e| io_failure(path, &e))
    }

    /// The files and subdirectories of `dir` (sorted, without dot-entries); a symlink
    /// that leads out of the project is reported and skipped.
    fn list(&mut self, dir: &Path) -> Result<Listing, Failure> {
        self.stamps.push((dir.to_owned(), dir_stamp(dir)));
        let entries = std::fs::read_dir(dir).map_err(|e| {
            Failure::new(
                LokoErrorCode::PermissionDenied,
                "Unable to read project structure",
            )
            .details(format!("{}: {e}", self.root.relative(dir)))
        })?;
        let mut listing = Listing {
            files: Default::default(),
            dirs: Vec::new(),
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            let is_dir = if kind.is_symlink() {
                let rel = self.root.relative(&path);
                if self.root.resolve(Path::new(&rel)).is_err() {
                    self.findings.push(Finding::new(
                        Severity::Error,
                        "PATH_OUTSIDE_PROJECT",
                        format!(
                            "'{name}' is a symlink that leads outside the project; it is ignored"
                        ),
                        if path.is_dir() {
                            format!("{rel}/")
                        } else {
                            rel
                        },
                    ));
                    continue;
                }
                path.is_dir()
            } else {
                kind.is_dir()
            };
            if is_dir {
                listing.dirs.push(path);
            } else {
                listing.files.insert(name);
            }
        }
        listing.dirs.sort();
        Ok(listing)
    }

    fn note_time(&mut self, modified: std::time::SystemTime) {
        self.updated_at = Some(self.updated_at.map_or(modified, |t| t.max(modified)));
    }
}

fn dir_name(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn missing_code(level: Level) -> &'static str {
    match level {
        Level::System => "MISSING_SYSTEM_MD",
        Level::Container => "MISSING_CONTAINER_MD",
        Level::Component => "MISSING_COMPONENT_MD",
    }
}

fn duplicate_code(level: Level) -> &'static str {
    match level {
        Level::System => "DUPLICATE_SYSTEM_ID",
        Level::Container => "DUPLICATE_CONTAINER_ID",
        Level::Component => "DUPLICATE_COMPONENT_ID",
    }
}
