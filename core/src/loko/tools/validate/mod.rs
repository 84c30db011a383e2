//! `validate`: every rule of the contract (errors block a build, warnings do not unless
//! `strict`), the D2 syntax of every diagram with the real `d2`, and graph checks on
//! component relationships. Each finding has a code, a message and a project-relative
//! location.

mod graph;

use std::path::Path;

use futures_util::StreamExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Toolpack;
use crate::loko::formats::d2::D2;
use crate::loko::formats::markdown;
use crate::loko::project::fence;
use crate::loko::project::model::{Finding, Project, Severity};
use crate::loko::project::output_paths::{output_dir, svg_name};
use crate::loko::project::relationships;
use crate::loko::response::{Failure, LokoResponse};
use crate::loko::tools::project_tool::{answer, blocking, load_project, required_path};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

pub use graph::HIGH_COUPLING;

/// `validate` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct ValidateRequest {
    /// The project path.
    ///
    /// Alias: `project_root`.
    #[serde(alias = "project_root")]
    pub project_path: String,
    /// Warnings fail too.
    ///
    /// Treat warnings as errors (default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strict: Option<bool>,
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct ValidationIssue {
    /// A stable code, e.g. `ORPHANED_CONTAINER` or `circular_dependency`.
    pub code: String,
    /// What is wrong, for a person.
    pub message: String,
    /// The project-relative file or directory (a directory ends with `/`).
    pub location: String,
}

/// The findings, by severity.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct ValidationReport {
    /// Errors: they block a build.
    pub errors: Vec<ValidationIssue>,
    /// Warnings: errors too under `strict`.
    pub warnings: Vec<ValidationIssue>,
    /// For information only (e.g. `isolated_component`); never fail validation.
    pub infos: Vec<ValidationIssue>,
}

/// `validate` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct ValidateResult {
    /// No errors (and, under `strict`, no warnings).
    pub success: bool,
    /// The findings.
    pub validation: ValidationReport,
    /// E.g. `Validation passed with 1 warning`.
    pub message: String,
}

/// The `validate` tool.
pub struct Validate;

crate::tool::offline_bodies!(ValidateResult);

impl Tool for Validate {
    type Input = ValidateRequest;
    type Output = LokoResponse<ValidateResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "validate",
        title: "loko: validate the project",
        description: "Check a loko project for errors: ids, files, frontmatter, D2 syntax, orphans, missing \
descriptions, dependency cycles and coupling.",
        summary: "Checks ids, files, frontmatter, D2 syntax, orphans, descriptions, and the component graph (cycles, dangling references, coupling)",
        needs: "nothing (`d2` for D2 syntax)",
        toolset: Toolset::Loko,
        annotations: Annotations::READ_ONLY_LOCAL,
    };

    async fn run(toolpack: &Toolpack, r: ValidateRequest) -> Self::Output {
        answer(async {
            required_path(&r.project_path)?;
            let project = load_project(toolpack, Some(r.project_path)).await?;
            // Every rule that reads files runs on the blocking pool; only d2 is awaited.
            let reader = toolpack.clone();
            let disk_cache = project.settings.d2_cache.then(|| {
                project
                    .root
                    .path()
                    .join(crate::loko::tools::build_docs::CACHE_DIR)
            });
            let (mut findings, sources, source_dir) = blocking(move || {
                let mut findings = project.findings.clone();
                let collected = relationships::of(&project);
                let (edges, problems) = (&collected.edges, &collected.findings);
                findings.extend(problems.iter().cloned());
                findings.extend(structure(&project));
                findings.extend(graph::check(&project, edges));
                let (outdated, sources) = diagram_sources(&reader, &project);
                findings.extend(outdated);
                let d2 = (!sources.is_empty()).then(|| D2::locate(reader.config()));
                Ok((findings, (sources, d2), project.source.clone() + "/"))
            })
            .await?;
            findings.extend(syntax(toolpack, sources, source_dir, disk_cache).await);
            Ok(report(findings, r.strict.unwrap_or(false)))
        })
        .await
    }
}

fn report(mut findings: Vec<Finding>, strict: bool) -> ValidateResult {
    findings
        .sort_by(|a, b| (a.severity, &a.location, a.code).cmp(&(b.severity, &b.location, b.code)));
    let of = |severity: Severity| -> Vec<ValidationIssue> {
        findings
            .iter()
            .filter(|f| f.severity == severity)
            .map(|f| ValidationIssue {
                code: f.code.to_owned(),
                message: f.message.clone(),
                location: f.location.clone(),
            })
            .collect()
    };
    let validation = ValidationReport {
        errors: of(Severity::Error),
        warnings: of(Severity::Warning),
        infos: of(Severity::Info),
    };
    let (e, w) = (validation.errors.len(), validation.warnings.len());
    let success = e == 0 && (!strict || w == 0);
    let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let message = match (success, e, w) {
        (true, _, 0) => "Validation passed".to_owned(),
        (true, _, w) => format!("Validation passed with {}", count(w, "warning")),
        (false, 0, w) => format!("Validation failed (strict): {}", count(w, "warning")),
        (false, e, 0) => format!("Validation failed with {}", count(e, "error")),
        (false, e, w) => format!(
            "Validation failed with {} and {}",
            count(e, "error"),
            count(w, "warning")
        ),
    };
    ValidateResult {
        success,
        validation,
        message,
    }
}

/// The contract's structural warnings, and parent references in frontmatter.
fn structure(project: &Project) -> Vec<Finding> {
    let mut findings = Vec::new();
    for system in &project.systems {
        for entity in std::iter::once(system).chain(system.descendants()) {
            if entity.description().is_empty() {
                findings.push(Finding::new(
                    Severity::Warning,
                    "MISSING_DESCRIPTION",
                    format!(
                        "{} '{}' has no description",
                        entity.level.title(),
                        entity.id
                    ),
                    entity.file.clone(),
                ));
            }
        }
        if system.children.is_empty() {
            findings.push(Finding::new(
                Severity::Warning,
                "EMPTY_SYSTEM",
                format!("System '{}' has no containers", system.id),
                format!("{}/", system.dir),
            ));
        }
        let diagram = system
            .diagram_source
            .as_deref()
            .unwrap_or_default()
            .to_lowercase();
        let body = system.doc.body.to_lowercase();
        for container in &system.children {
            let names = [container.id.to_lowercase(), container.name().to_lowercase()];
            if !names
                .iter()
                .any(|n| diagram.contains(n) || body.contains(n))
            {
                findings.push(Finding::new(
                    Severity::Warning,
                    "ORPHANED_CONTAINER",
                    format!("Container '{}' exists but not referenced", container.id),
                    format!("{}/", container.dir),
                ));
            }
            if let Some(parent) = markdown::text(&container.doc.frontmatter, "system")
                && !system.matches(&parent)
            {
                findings.push(Finding::new(
                    Severity::Error,
                    "UNKNOWN_SYSTEM",
                    format!(
                        "Container '{}' references system '{parent}', which is not its system '{}'",
                        container.id, system.id
                    ),
                    container.file.clone(),
                ));
            }
            for component in &container.children {
                if let Some(parent) = markdown::text(&component.doc.frontmatter, "container")
                    && !container.matches(&parent)
                {
                    findings.push(Finding::new(
                        Severity::Error,
                        "UNKNOWN_CONTAINER",
                        format!("Component '{}' references container '{parent}', which is not its container '{}'", component.id, container.id),
                        component.file.clone(),
                    ));
                }
            }
        }
    }
    findings
}

/// Renders older than their source, and every diagram's `(file, source)` for the d2
/// check (blocking file I/O: run it on the blocking pool).
fn diagram_sources(
    toolpack: &Toolpack,
    project: &Project,
) -> (Vec<Finding>, Vec<(String, String)>) {
    let mut findings = Vec::new();
    let entities: Vec<_> = project
        .systems
        .iter()
        .flat_map(|s| std::iter::once(s).chain(s.descendants()))
        .collect();
    let output = output_dir(project);
    let mut sources = Vec::new();
    for entity in &entities {
        let Some(diagram) = &entity.diagram else {
            continue;
        };
        let path = project.root.path().join(diagram);
        let Ok((stamp, source)) = toolpack.loko().files.read(&path) else {
            continue;
        };
        let svg = project.root.path().join(Path::new(&format!(
            "{output}/diagrams/{}.svg",
            svg_name(project, entity)
        )));
        let rendered = fence::modified(&svg);
        if let (Some(src), Some(out)) = (stamp.modified(), rendered)
            && out < src
        {
            findings.push(Finding::new(
                Severity::Warning,
                "OUTDATED_DIAGRAM",
                format!(
                    "The rendered diagram of '{}' is older than its source; rebuild the docs",
                    entity.id
                ),
                diagram.clone(),
            ));
        }
        sources.push((diagram.clone(), source.to_string()));
    }
    (findings, sources)
}

/// Every diagram's `(file, source)`, and the d2 to check them with (none looked for when
/// there is nothing to check).
type Diagrams = (Vec<(String, String)>, Option<Result<D2, Failure>>);

/// D2 syntax of every diagram source (checked by d2 in parallel, results cached by
/// source and d2 version); `source_dir` locates the finding when d2 is missing.
async fn syntax(
    toolpack: &Toolpack,
    (sources, d2): Diagrams,
    source_dir: String,
    disk_cache: Option<std::path::PathBuf>,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    let d2 = match d2 {
        None => return findings,
        Some(Ok(d2)) => d2,
        Some(Err(e)) => {
            findings.push(Finding::new(
                Severity::Warning,
                "D2_NOT_AVAILABLE",
                format!("Diagrams were not checked: {}", e.message),
                source_dir,
            ));
            return findings;
        }
    };
    let checker = toolpack.loko().syntax_checker(d2, disk_cache).await;
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let results: Vec<_> = futures_util::stream::iter(sources)
        .map(|(file, source)| {
            let checker = checker.clone();
            async move { (file, checker.check(&source).await) }
        })
        .buffer_unordered(workers)
        .collect()
        .await;
    for (file, result) in results {
        match result {
            Ok(None) => {}
            Ok(Some(syntax)) => findings.push(Finding::new(
                Severity::Error,
                "D2_SYNTAX_ERROR",
                format!("D2 syntax error: {syntax}"),
                file,
            )),
            Err(e) => findings.push(Finding::new(
                Severity::Warning,
                "D2_NOT_AVAILABLE",
                format!(
                    "The diagram was not checked: {} {}",
                    e.message,
                    e.details.unwrap_or_default()
                ),
                file,
            )),
        }
    }
    findings
}
