//! `build_docs`: the project as a documentation site (HTML), markdown documents and a
//! PDF, into the configured output directory (`[paths] output`, default `dist/`).
//!
//! Diagrams are rendered by the real `d2` in parallel with a persistent cache; the
//! output is built next to the previous one and swapped in, so a failed or killed build
//! never leaves a half-written site; an incremental build (the default) re-renders and
//! re-writes only what changed. Progress goes out through [`crate::report`], one step
//! per diagram and per page.

mod diagrams;
mod html;
mod markdown_docs;
mod output;
mod pdf;
mod tree;
mod write;

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Instant;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use diagrams::CACHE_DIR;
pub use html::{LANDSCAPE, esc, markdown as render_markdown};
pub use output::{LOCK_FILE, MANIFEST};

use super::d2::D2;
use super::model::Project;
use super::output_paths::output_dir;
use super::project_tool::{answer, blocking, load_project, required_path};
use super::relationships;
use super::response::{Failure, LokoErrorCode, LokoResponse};
use crate::Toolpack;
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

/// The PDF's file name in the output directory.
pub const PDF_FILE: &str = "architecture.pdf";
/// The page the PDF is printed from.
pub const PRINT_PAGE: &str = "print.html";

/// `build_docs` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct BuildDocsRequest {
    /// Path to the loko project. Alias: `project_root`.
    #[serde(alias = "project_root")]
    pub project_path: String,
    /// `html`, `markdown`, `pdf` or `all` (default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["html", "markdown", "pdf", "all"]))]
    pub format: Option<String>,
    /// Only re-render and re-write what changed (default true); false rebuilds everything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incremental: Option<bool>,
}

/// What a build did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct BuildInfo {
    /// The output directory, project-relative, e.g. `dist/`.
    pub output_dir: String,
    /// How long the build took.
    pub duration_ms: u64,
    /// Files written by this build (files unchanged since the last build are kept, not rewritten).
    pub files_generated: u32,
    /// Diagrams d2 rendered in this build.
    pub diagrams_rendered: u32,
    /// Diagrams taken from the render cache.
    pub cache_hits: u32,
    /// Files in the output after the build.
    pub files_total: u32,
}

/// `build_docs` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct BuildDocsResult {
    /// Always `true` (a failure is the error envelope).
    pub success: bool,
    /// What the build did.
    pub build: BuildInfo,
    /// E.g. `Build complete: HTML, Markdown generated (PDF skipped - chromium not found)`.
    pub message: String,
}

/// The `build_docs` tool.
pub struct BuildDocs;

impl Tool for BuildDocs {
    type Input = BuildDocsRequest;
    type Output = LokoResponse<BuildDocsResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "build_docs",
        title: "loko: build the documentation",
        description: "Builds a loko project's documentation into its output directory: an HTML site (landscape, a page per system, container and component, diagrams, search, dark mode), markdown documents, and a PDF through headless Chromium. Diagrams are rendered by d2 in parallel and cached; incremental builds (default) redo only what changed; the previous output stays intact if a build fails.",
        toolset: Toolset::Loko,
        annotations: Annotations::REPLACES_LOCAL,
    };

    async fn run(toolpack: &Toolpack, r: BuildDocsRequest) -> Self::Output {
        answer(build(toolpack, r)).await
    }
}

/// Which outputs a build makes.
#[derive(Debug, Clone, Copy)]
struct Formats {
    html: bool,
    markdown: bool,
    pdf: bool,
}

impl Formats {
    fn parse(format: Option<&str>) -> Result<Formats, Failure> {
        let (html, markdown, pdf) = match format.map(str::trim) {
            None | Some("") | Some("all") => (true, true, true),
            Some("html") => (true, false, false),
            Some("markdown") => (false, true, false),
            Some("pdf") => (false, false, true),
            Some(_) => {
                return Err(Failure::invalid(
                    "format must be: html, markdown, pdf, or all",
                ));
            }
        };
        Ok(Formats {
            html,
            markdown,
            pdf,
        })
    }

    /// Whether this build makes the output file `path` (files of other formats from an
    /// earlier build are kept).
    fn makes(&self, path: &str) -> bool {
        if path.starts_with("markdown/") {
            self.markdown
        } else if path == PDF_FILE || path == PRINT_PAGE {
            self.pdf
        } else if path.starts_with("diagrams/") {
            true
        } else {
            self.html
        }
    }
}

/// A render job for every entity's diagram source, read through the project's file
/// cache (blocking file I/O: run it on the blocking pool).
fn diagram_jobs(toolpack: &Toolpack, project: &Project) -> Result<Vec<diagrams::Job>, Failure> {
    tree::docs(project)
        .iter()
        .filter_map(|doc| doc.entity.diagram.as_ref().map(|d| (doc.key.clone(), d)))
        .map(|(name, diagram)| {
            let (_, text) = toolpack
                .loko()
                .files
                .read(&project.root.path().join(diagram))
                .map_err(|e| super::fence::io_failure(Path::new(diagram), &e))?;
            Ok(diagrams::Job {
                name,
                source_path: diagram.clone(),
                source: text.to_string(),
            })
        })
        .collect()
}

async fn build(toolpack: &Toolpack, r: BuildDocsRequest) -> Result<BuildDocsResult, Failure> {
    let started = Instant::now();
    required_path(&r.project_path)?;
    let formats = Formats::parse(r.format.as_deref())?;
    let incremental = r.incremental.unwrap_or(true);
    let project = load_project(toolpack, Some(r.project_path.clone())).await?;
    if project.systems.is_empty() {
        return Err(Failure::invalid(
            "Project has no systems. Create at least one system first",
        ));
    }
    let output_rel = output_dir(&project);
    let output = project.root.resolve(Path::new(&output_rel))?;
    let source = project.root.resolve(Path::new(&project.source))?;
    if output == project.root.path() || source.starts_with(&output) {
        return Err(
            Failure::invalid("The output directory must not contain the sources")
                .details(format!("[paths] output = {output_rel}")),
        );
    }
    let d2 = D2::locate(toolpack.config())?;
    let _lock = output::lock(&project.root).await?;
    let recovered = output.clone();
    blocking(move || {
        output::recover(&recovered);
        Ok(())
    })
    .await?;

    // Read the diagram sources on the blocking pool; the project comes back with them.
    let (project, mut jobs) = blocking({
        let toolpack = toolpack.clone();
        move || {
            let jobs = diagram_jobs(&toolpack, &project)?;
            Ok((project, jobs))
        }
    })
    .await?;
    let docs = tree::docs(&project);
    let edges = relationships::by_source(relationships::collect(&project).0);
    jobs.insert(
        0,
        diagrams::Job {
            name: LANDSCAPE.to_owned(),
            source_path: "(system landscape)".to_owned(),
            source: html::landscape(&project, &edges),
        },
    );
    let chromium = formats
        .pdf
        .then(|| pdf::locate(toolpack.config()))
        .flatten();
    let pages = if formats.html { docs.len() + 1 } else { 0 }
        + if formats.markdown { docs.len() + 1 } else { 0 }
        + usize::from(chromium.is_some());
    let options = diagrams::Options {
        layout: project.settings.layout().to_owned(),
        theme: project.settings.theme_id(),
        cache: project
            .settings
            .d2_cache
            .then(|| project.root.path().join(CACHE_DIR)),
        read_cache: incremental,
        progress_total: (jobs.len() + pages) as f64,
    };
    let version = toolpack.loko().d2_version(&d2).await;
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let rendered = diagrams::render_all(&d2, &version, jobs, &options, workers).await;
    if !rendered.failures.is_empty() {
        let details: Vec<String> = rendered
            .failures
            .iter()
            .map(|(file, message)| format!("{file}: {message}"))
            .collect();
        return Err(Failure::new(
            LokoErrorCode::InvalidSyntax,
            "Failed to render diagrams (see details)",
        )
        .details(details.join("\n")));
    }

    let names: BTreeSet<String> = rendered.svgs.keys().cloned().collect();
    let site = html::Site {
        project: &project,
        docs: &docs,
        edges: &edges,
        rendered: &names,
    };
    let mut files: Vec<(String, Vec<u8>)> = rendered
        .svgs
        .iter()
        .map(|(name, svg)| (format!("diagrams/{name}.svg"), svg.clone()))
        .collect();
    if formats.html {
        files.extend(site.files());
    }
    if formats.markdown {
        files.extend(site.markdown_files());
    }
    if chromium.is_some() {
        files.push((PRINT_PAGE.to_owned(), site.print_page().into_bytes()));
        if !formats.html {
            files.push((
                "styles/style.css".to_owned(),
                html::STYLE.as_bytes().to_vec(),
            ));
        }
    }
    let written = write::write_output(
        output,
        files,
        formats,
        incremental,
        chromium.clone(),
        (
            options.progress_total - pages as f64,
            options.progress_total,
        ),
    )
    .await?;

    let mut made = Vec::new();
    if formats.html {
        made.push("HTML");
    }
    if formats.markdown {
        made.push("Markdown");
    }
    if formats.pdf && chromium.is_some() {
        made.push("PDF");
    }
    let mut message = if made.is_empty() {
        "Build complete".to_owned()
    } else {
        format!("Build complete: {} generated", made.join(", "))
    };
    if formats.pdf && chromium.is_none() {
        message
            .push_str(" (PDF skipped - chromium not found; install Chromium or set CHROMIUM_BIN)");
    }
    if written.generated == 0 {
        message.push_str("; nothing changed since the last build");
    }
    Ok(BuildDocsResult {
        success: true,
        build: BuildInfo {
            output_dir: format!("{output_rel}/"),
            duration_ms: started.elapsed().as_millis() as u64,
            files_generated: written.generated,
            diagrams_rendered: rendered.rendered,
            cache_hits: rendered.cache_hits,
            files_total: written.total,
        },
        message,
    })
}
