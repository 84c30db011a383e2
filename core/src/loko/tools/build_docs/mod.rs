//! `build_docs`: the project as a documentation site (HTML), markdown documents and a
//! PDF, into the configured output directory (`[paths] output`, default `dist/`).
//!
//! Diagrams are rendered by the real `d2` in parallel with a persistent cache; the
//! output is built next to the previous one and swapped in, so a failed or killed build
//! never leaves a half-written site; an incremental build (the default) re-renders and
//! re-writes only what changed. Progress goes out through [`crate::report`], one step
//! per diagram and per page.

pub(in crate::loko) mod diagrams;
mod html;
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) use html::markdown as markdown_html;
mod markdown_docs;
mod output;
mod pdf;
mod plan;
mod summary;
mod tree;
mod write;

use std::collections::BTreeSet;
use std::time::Instant;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use diagrams::CACHE_DIR;
pub(in crate::loko) use html::landscape;

use crate::Toolpack;
use crate::loko::response::{Failure, LokoErrorCode, LokoResponse};
use crate::loko::tools::project_tool::answer;
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};
use plan::Plan;

/// The PDF's file name in the output directory.
pub const PDF_FILE: &str = "architecture.pdf";
/// The page the PDF is printed from.
pub const PRINT_PAGE: &str = "print.html";

/// `build_docs` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct BuildDocsRequest {
    /// The project path.
    ///
    /// Alias: `project_root`.
    #[serde(alias = "project_root")]
    pub project_path: String,
    /// Default all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["html", "markdown", "pdf", "all"]))]
    pub format: Option<String>,
    /// Redo only what changed (default true).
    ///
    /// Only re-render and re-write what changed (default true); false rebuilds everything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incremental: Option<bool>,
    /// Inside the project (default: loko.toml's output).
    ///
    /// Where to build, inside the project (loko's argument): project-relative, or an
    /// absolute path under the project. Default: `[paths] output` of `loko.toml` (`dist`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_dir: Option<String>,
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

crate::tool::offline_bodies!(BuildDocsResult);

impl Tool for BuildDocs {
    type Input = BuildDocsRequest;
    type Output = LokoResponse<BuildDocsResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "build_docs",
        title: "loko: build the documentation",
        description: "Build a loko project's documentation: an HTML site with diagrams and search, \
markdown, or a PDF.",
        summary: "Builds the docs: an HTML site (search, dark mode, phone layout), markdown, a PDF; parallel cached d2 renders, incremental, never half-written",
        needs: "`d2` (+ Chromium for the PDF)",
        toolset: Toolset::Loko,
        annotations: Annotations::REPLACES_LOCAL_SLOWLY,
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

/// A build: plan, render, write, summarise.
async fn build(toolpack: &Toolpack, r: BuildDocsRequest) -> Result<BuildDocsResult, Failure> {
    let started = Instant::now();
    let mut plan = plan::plan(toolpack, r).await?;
    let rendered = render(toolpack, &mut plan).await?;
    let written = write(&plan, &rendered).await?;
    Ok(summary::summarise(
        &plan,
        &rendered,
        &written,
        started.elapsed(),
    ))
}

/// Renders every diagram of `plan` (its jobs are taken); any d2 failure fails the build,
/// naming every failed source.
async fn render(toolpack: &Toolpack, plan: &mut Plan) -> Result<diagrams::Rendered, Failure> {
    let version = toolpack.loko().d2_version(&plan.d2).await;
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let jobs = std::mem::take(&mut plan.jobs);
    let rendered = diagrams::render_all(&plan.d2, &version, jobs, &plan.options, workers).await;
    if rendered.failures.is_empty() {
        return Ok(rendered);
    }
    let details: Vec<String> = rendered
        .failures
        .iter()
        .map(|(file, message)| format!("{file}: {message}"))
        .collect();
    Err(Failure::new(
        LokoErrorCode::InvalidSyntax,
        "Failed to render diagrams (see details)",
    )
    .details(details.join("\n")))
}

/// Lays out every output file of `plan` (the SVGs `rendered`, the pages of each format)
/// and writes them (see [`write::write_output`]).
async fn write(plan: &Plan, rendered: &diagrams::Rendered) -> Result<write::Written, Failure> {
    let (formats, printed) = (plan.formats, plan.chromium.is_some());
    let docs = tree::docs(&plan.project);
    let names: BTreeSet<String> = rendered.svgs.keys().cloned().collect();
    let site = html::Site {
        project: &plan.project,
        docs: &docs,
        edges: &plan.edges,
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
    if printed {
        files.push((PRINT_PAGE.to_owned(), site.print_page().into_bytes()));
        if !formats.html {
            files.push((
                "styles/style.css".to_owned(),
                html::STYLE.as_bytes().to_vec(),
            ));
        }
    }
    let total = plan.options.progress_total;
    write::write_output(
        plan.output.clone(),
        files,
        formats,
        plan.incremental,
        plan.chromium.clone(),
        (total - plan.pages as f64, total),
    )
    .await
}
