//! `update_diagram`: replaces a system's or container's D2 source after the real `d2`
//! accepts it (a syntax error is `INVALID_SYNTAX` with line and column, and the file is
//! left untouched), writes it atomically, and renders it to SVG in the output directory.

use std::path::Path;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Toolpack;
use crate::loko::formats::d2::D2;
use crate::loko::project::fence::{WriteMode, create_dir, write_atomic};
use crate::loko::project::model::{Entity, Project};
use crate::loko::project::output_paths::{output_dir, svg_name};
use crate::loko::response::{Failure, LokoErrorCode, LokoResponse};
use crate::loko::tools::project_tool::{answer, blocking, load_project, required_path};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

/// The largest D2 source accepted, in bytes.
pub const MAX_D2_BYTES: usize = 1 << 20;

/// `update_diagram` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct UpdateDiagramRequest {
    /// The project path.
    ///
    /// Alias: `project_root`.
    #[serde(alias = "project_root")]
    pub project_path: String,
    /// `system` or `container`.
    ///
    /// `system` or `container` (`component` also works). Optional with `system_name`/`container_name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["system", "container", "component"]))]
    pub scope: Option<String>,
    /// `system`, `system/container` or `system/container/component`.
    ///
    /// The system id, or the container as `system/container` (a unique container id
    /// alone works), or `system/container/component`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The new D2 source.
    ///
    /// Alias: `d2_source`.
    #[serde(alias = "d2_source")]
    pub d2_code: String,
    /// The system (loko's spelling of the target).
    ///
    /// loko's spelling of the target: the system.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_name: Option<String>,
    /// The container inside `system_name`.
    ///
    /// loko's spelling of the target: the container inside `system_name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container_name: Option<String>,
}

/// Where the diagram went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct DiagramLocation {
    /// The D2 source file, project-relative.
    pub path: String,
    /// The rendered SVG, project-relative.
    pub rendered_to: String,
}

/// `update_diagram` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct UpdateDiagramResult {
    /// Always `true`.
    pub success: bool,
    /// The source and the SVG.
    pub diagram: DiagramLocation,
    /// `Diagram updated and rendered successfully`.
    pub message: String,
}

/// The `update_diagram` tool.
pub struct UpdateDiagram;

crate::tool::offline_bodies!(UpdateDiagramResult);

impl Tool for UpdateDiagram {
    type Input = UpdateDiagramRequest;
    type Output = LokoResponse<UpdateDiagramResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "update_diagram",
        title: "loko: update a diagram",
        description: "Replace the D2 diagram of a system or container after d2 checks it, and render \
it to SVG.",
        summary: "Replaces a system's or container's D2 diagram after the real `d2` accepts it, and renders it",
        needs: "`d2`",
        toolset: Toolset::Loko,
        annotations: Annotations::REPLACES_LOCAL,
    };

    async fn run(toolpack: &Toolpack, r: UpdateDiagramRequest) -> Self::Output {
        answer(update(toolpack, r)).await
    }
}

async fn update(
    toolpack: &Toolpack,
    r: UpdateDiagramRequest,
) -> Result<UpdateDiagramResult, Failure> {
    required_path(&r.project_path)?;
    let target = target_path(&r)?;
    if r.d2_code.trim().is_empty() {
        return Err(Failure::invalid("d2_code must not be empty"));
    }
    if r.d2_code.len() > MAX_D2_BYTES {
        return Err(Failure::invalid(format!(
            "d2_code must be at most {MAX_D2_BYTES} bytes"
        )));
    }
    let project = load_project(toolpack, Some(r.project_path.clone())).await?;
    let entity = find_target(&project, &target)?.clone();
    let config = toolpack.config().clone();
    let d2 = blocking(move || D2::locate(&config)).await?;
    if let Err(syntax) = d2.validate(&r.d2_code).await? {
        return Err(Failure::new(
            LokoErrorCode::InvalidSyntax,
            format!("D2 syntax error: {syntax}"),
        )
        .details(syntax.to_string()));
    }
    let source_rel = entity
        .diagram
        .clone()
        .unwrap_or_else(|| format!("{}/{}.d2", entity.dir, entity.level.role()));
    let svg_rel = format!(
        "{}/diagrams/{}.svg",
        output_dir(&project),
        svg_name(&project, &entity)
    );
    let code = r.d2_code.clone();
    let (root, paths) = (project.root.clone(), (source_rel.clone(), svg_rel.clone()));
    let svg_abs = blocking(move || {
        let source_abs = root.resolve(Path::new(&paths.0))?;
        let svg_abs = root.resolve(Path::new(&paths.1))?;
        write_atomic(&source_abs, code.as_bytes(), WriteMode::Replace)?;
        Ok(svg_abs)
    })
    .await?;
    let svg = d2
        .render(
            &r.d2_code,
            project.settings.layout(),
            project.settings.theme_id(),
        )
        .await
        .map_err(|e| Failure {
            details: Some(format!(
                "{} (the D2 source was saved to {source_rel})",
                e.details.unwrap_or_default()
            )),
            ..e
        })?;
    let root = project.root.clone();
    blocking(move || {
        if let Some(dir) = svg_abs.parent() {
            create_dir(&root, dir)?;
        }
        write_atomic(&svg_abs, &svg, WriteMode::Replace)
    })
    .await?;
    Ok(UpdateDiagramResult {
        success: true,
        diagram: DiagramLocation {
            path: source_rel,
            rendered_to: svg_rel,
        },
        message: "Diagram updated and rendered successfully".to_owned(),
    })
}

/// The target as `system[/container[/component]]` (or a lone container id), from
/// `scope` + `target` or loko's `system_name` + `container_name`.
fn target_path(r: &UpdateDiagramRequest) -> Result<Target, Failure> {
    let target = r.target.as_deref().map(str::trim).filter(|t| !t.is_empty());
    let scope = r.scope.as_deref().map(str::trim).filter(|s| !s.is_empty());
    let parts: Vec<String> = match (target, &r.system_name, &r.container_name) {
        (Some(t), _, _) => t.split('/').map(str::to_owned).collect(),
        (None, Some(s), Some(c)) => vec![s.clone(), c.clone()],
        (None, Some(s), None) => vec![s.clone()],
        _ => {
            return Err(Failure::invalid(
                "target is required (a system id, or system/container)",
            ));
        }
    };
    match (scope, parts.len()) {
        (None | Some("system"), 1)
        | (None | Some("container"), 2)
        | (None | Some("component"), 3) => Ok(Target::Path(parts)),
        (Some("container"), 1) => Ok(Target::Container(parts.concat())),
        (Some("system" | "container" | "component"), _) => Err(Failure::invalid(
            "target does not match scope (system: id, container: system/container)",
        )),
        _ => Err(Failure::invalid("scope must be: system or container")),
    }
}

/// What a diagram update is about.
enum Target {
    /// `system[/container[/component]]`.
    Path(Vec<String>),
    /// A container id or name, unique in the project.
    Container(String),
}

fn find_target<'a>(project: &'a Project, target: &Target) -> Result<&'a Entity, Failure> {
    let not_found =
        |what: &str| Failure::not_found("System/Container not found").details(what.to_owned());
    match target {
        Target::Container(id) => match project.container(id) {
            Ok(Some((_, container))) => Ok(container),
            Ok(None) => Err(not_found(id)),
            Err(candidates) => Err(Failure::invalid(format!(
                "Container '{id}' is in more than one system; use system/container"
            ))
            .details(candidates.join(", "))),
        },
        Target::Path(path) => {
            let joined = path.join("/");
            let (system, rest) = path.split_first().ok_or_else(|| not_found(&joined))?;
            let mut entity = project.system(system).ok_or_else(|| not_found(&joined))?;
            for wanted in rest {
                entity = crate::loko::project::model::find(&entity.children, wanted)
                    .ok_or_else(|| not_found(&joined))?;
            }
            Ok(entity)
        }
    }
}
