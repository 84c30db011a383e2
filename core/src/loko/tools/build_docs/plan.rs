//! The first step of a build: everything checked, located and read before any d2 runs
//! (the request, the project, the output directory, d2 and Chromium, the diagram
//! sources), under the build lock.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::diagrams;
use super::html::{self, LANDSCAPE};
use super::output::{self, BuildLock};
use super::{BuildDocsRequest, Formats, tree};
use crate::Toolpack;
use crate::loko::formats::d2::D2;
use crate::loko::project::binaries;
use crate::loko::project::model::Project;
use crate::loko::project::output_paths::output_dir;
use crate::loko::project::relationships::{self, Relationship};
use crate::loko::response::{Failure, LokoErrorCode};
use crate::loko::tools::project_tool::{blocking, load_project, required_path};

/// What a build will do, and what it holds while doing it.
pub(super) struct Plan {
    /// The project, its diagram sources read.
    pub project: std::sync::Arc<Project>,
    /// Its relationships, by source.
    pub edges: BTreeMap<String, Vec<Relationship>>,
    /// The output directory as configured (relative to the project).
    pub output_rel: String,
    /// The output directory (absolute).
    pub output: PathBuf,
    /// Which outputs to make.
    pub formats: Formats,
    /// Whether unchanged diagrams and files are reused.
    pub incremental: bool,
    /// The d2 that renders.
    pub d2: D2,
    /// The Chromium that prints the PDF, when a PDF is asked for and one is found.
    pub chromium: Option<PathBuf>,
    /// One render job per diagram, the landscape first.
    pub jobs: Vec<diagrams::Job>,
    /// How to render them.
    pub options: diagrams::Options,
    /// How many pages (progress steps after the diagrams) the build writes.
    pub pages: usize,
    /// Held until the build is done: one build per project at a time.
    pub _lock: BuildLock,
}

/// `asked` (an output directory a call names) as a project-relative path: an absolute
/// path must lie under the project (`..` is refused when the path is resolved).
fn within(project: &Project, asked: &str) -> Result<String, Failure> {
    let path = Path::new(asked);
    let relative = if path.is_absolute() {
        path.strip_prefix(project.root.path()).map_err(|_| {
            Failure::new(
                LokoErrorCode::PermissionDenied,
                "Path leads outside the project directory",
            )
            .details(format!("output_dir = {asked}"))
        })?
    } else {
        path
    };
    let relative = relative.to_string_lossy();
    let relative = relative.trim_start_matches("./").trim_end_matches('/');
    Ok(if relative.is_empty() {
        ".".to_owned()
    } else {
        relative.to_owned()
    })
}

/// Checks `r`, loads the project, takes the build lock and reads the diagram sources.
pub(super) async fn plan(toolpack: &Toolpack, r: BuildDocsRequest) -> Result<Plan, Failure> {
    required_path(&r.project_path)?;
    let formats = Formats::parse(r.format.as_deref())?;
    let incremental = r.incremental.unwrap_or(true);
    let project = load_project(toolpack, Some(r.project_path.clone())).await?;
    if project.systems.is_empty() {
        return Err(Failure::invalid(
            "Project has no systems. Create at least one system first",
        ));
    }
    let output_rel = match r
        .output_dir
        .as_deref()
        .map(str::trim)
        .filter(|o| !o.is_empty())
    {
        Some(asked) => within(&project, asked)?,
        None => output_dir(&project),
    };
    // Every file the plan needs is read on the blocking pool; the project comes back.
    let (project, output, d2, chromium, lock_file, mut jobs) = blocking({
        let (toolpack, output_rel) = (toolpack.clone(), output_rel.clone());
        move || {
            let output = project.root.resolve(Path::new(&output_rel))?;
            let source = project.root.resolve(Path::new(&project.source))?;
            if output == project.root.path() || source.starts_with(&output) {
                return Err(
                    Failure::invalid("The output directory must not contain the sources")
                        .details(format!("[paths] output = {output_rel}")),
                );
            }
            let d2 = D2::locate(toolpack.config())?;
            let chromium = formats
                .pdf
                .then(|| binaries::chromium(toolpack.config()))
                .flatten();
            let lock_file = output::open_lock(&project.root)?;
            let jobs = diagram_jobs(&toolpack, &project)?;
            Ok((project, output, d2, chromium, lock_file, jobs))
        }
    })
    .await?;
    let lock = output::lock(lock_file).await?;
    let recovered = output.clone();
    blocking(move || {
        output::recover(&recovered);
        Ok(())
    })
    .await?;
    let edges = relationships::by_source(relationships::of(&project).edges.clone());
    jobs.insert(
        0,
        diagrams::Job {
            name: LANDSCAPE.to_owned(),
            source_path: "(system landscape)".to_owned(),
            source: html::landscape(&project, &edges),
        },
    );
    let docs = tree::docs(&project).len();
    let pages = if formats.html { docs + 1 } else { 0 }
        + if formats.markdown { docs + 1 } else { 0 }
        + usize::from(chromium.is_some());
    let options = diagrams::Options::of(&project, incremental, (jobs.len() + pages) as f64);
    Ok(Plan {
        project,
        edges,
        output_rel,
        output,
        formats,
        incremental,
        d2,
        chromium,
        jobs,
        options,
        pages,
        _lock: lock,
    })
}

/// A render job for every entity's diagram source, read through the project's file
/// cache (blocking file I/O: run it on the blocking pool).
fn diagram_jobs(toolpack: &Toolpack, project: &Project) -> Result<Vec<diagrams::Job>, Failure> {
    let loko = toolpack.loko();
    tree::docs(project)
        .iter()
        .filter_map(|doc| doc.entity.diagram.as_ref().map(|d| (doc.key.clone(), d)))
        .map(|(name, diagram)| {
            Ok(diagrams::Job {
                name,
                source_path: diagram.clone(),
                source: loko.read_project_file(project.root.path(), diagram)?,
            })
        })
        .collect()
}
