//! `render_diagram`: one entity's D2 diagram (or the system landscape) as SVG, rendered by
//! the real `d2` with the project's layout and theme through the same cache `build_docs`
//! uses (`.loko/cache/d2/`), so a diagram the docs were built with is never rendered
//! again. The architecture view shows these beside the tree.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Toolpack;
use crate::loko::formats::d2::D2;
use crate::loko::project::model::Project;
use crate::loko::project::relationships;
use crate::loko::response::{Failure, LokoErrorCode, LokoResponse};
use crate::loko::tools::build_docs::{diagrams, landscape};
use crate::loko::tools::lookup;
use crate::loko::tools::project_tool::{answer, blocking, load_project};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

/// `render_diagram` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct RenderDiagramRequest {
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
    /// `system`, `system/container` or `system/container/component`; absent: the landscape.
    ///
    /// Whose diagram: `system`, `system/container` or `system/container/component` (ids
    /// or names). Absent: the system landscape, drawn from the systems and their
    /// relationships as `build_docs` draws it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

/// `render_diagram` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct RenderDiagramResult {
    /// The entity drawn, as `system[/container[/component]]` ids; absent for the landscape.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Its display name (the project's name for the landscape).
    pub name: String,
    /// The D2 file, project-relative; absent for the landscape, which is generated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_path: Option<String>,
    /// The SVG d2 rendered.
    pub svg: String,
    /// Whether it came from the render cache rather than from a d2 run.
    pub cached: bool,
}

/// The `render_diagram` tool.
pub struct RenderDiagram;

crate::tool::offline_bodies!(RenderDiagramResult);

impl Tool for RenderDiagram {
    type Input = RenderDiagramRequest;
    type Output = LokoResponse<RenderDiagramResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "render_diagram",
        title: "loko: render a diagram",
        description: "Render one element's D2 diagram of a loko project, or the system landscape, to SVG.",
        summary: "One entity's D2 diagram (or the landscape) as SVG, through the render cache",
        needs: "`d2`",
        toolset: Toolset::Loko,
        annotations: Annotations::READ_ONLY_LOCAL,
    };

    async fn run(toolpack: &Toolpack, r: RenderDiagramRequest) -> Self::Output {
        answer(render(toolpack, r)).await
    }
}

/// What to render, found in the project.
struct Drawn {
    target: Option<String>,
    name: String,
    source_path: Option<String>,
    source: String,
}

async fn render(
    toolpack: &Toolpack,
    r: RenderDiagramRequest,
) -> Result<RenderDiagramResult, Failure> {
    let path = target_path(r.target.as_deref())?;
    let project = load_project(toolpack, r.project_path).await?;
    let drawn = match &path {
        None => Drawn {
            target: None,
            name: project.settings.name.clone(),
            source_path: None,
            source: landscape(
                &project,
                &relationships::by_source(relationships::of(&project).edges.clone()),
            ),
        },
        Some(path) => entity_diagram(toolpack, &project, path).await?,
    };
    let config = toolpack.config().clone();
    let d2 = blocking(move || D2::locate(&config)).await?;
    let version = toolpack.loko().d2_version(&d2).await;
    let options = diagrams::Options::of(&project, true, 1.0);
    let job = diagrams::Job {
        name: String::new(),
        source_path: drawn
            .source_path
            .clone()
            .unwrap_or_else(|| "(system landscape)".to_owned()),
        source: drawn.source,
    };
    let mut rendered = diagrams::render_all(&d2, &version, vec![job], &options, 1).await;
    if let Some((file, message)) = rendered.failures.pop() {
        return Err(Failure::new(
            LokoErrorCode::InvalidSyntax,
            "d2 could not render the diagram",
        )
        .details(format!("{file}: {message}")));
    }
    let svg = rendered
        .svgs
        .pop_first()
        .map(|(_, svg)| String::from_utf8_lossy(&svg).into_owned())
        .ok_or_else(|| Failure::internal("d2 rendered nothing"))?;
    Ok(RenderDiagramResult {
        target: drawn.target,
        name: drawn.name,
        source_path: drawn.source_path,
        svg,
        cached: rendered.cache_hits == 1,
    })
}

/// `target` as its ids, outermost first (`None`: the landscape).
fn target_path(target: Option<&str>) -> Result<Option<Vec<&str>>, Failure> {
    let Some(target) = target.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    let parts: Vec<&str> = target.split('/').map(str::trim).collect();
    if parts.len() > 3 || parts.iter().any(|p| p.is_empty()) {
        return Err(Failure::invalid(
            "target must be system, system/container or system/container/component",
        )
        .details(format!("target = {target}")));
    }
    Ok(Some(parts))
}

/// The entity `path` names and its diagram's source (read from the project when the
/// loaded project does not hold it).
async fn entity_diagram(
    toolpack: &Toolpack,
    project: &Project,
    path: &[&str],
) -> Result<Drawn, Failure> {
    let entity = lookup::at_path(project, path)?;
    let Some(file) = entity.diagram.clone() else {
        return Err(Failure::not_found(format!(
            "{} '{}' has no diagram",
            entity.level.title(),
            entity.id
        ))
        .details("update_diagram adds one"));
    };
    let source = match &entity.diagram_source {
        Some(text) => text.to_string(),
        None => {
            let (loko, root, file) = (
                toolpack.loko(),
                project.root.path().to_owned(),
                file.clone(),
            );
            blocking(move || loko.read_project_file(&root, &file)).await?
        }
    };
    Ok(Drawn {
        target: Some(project.qualified_id(entity)),
        name: entity.name(),
        source_path: Some(file),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::target_path;

    #[test]
    fn a_target_is_one_to_three_ids() {
        assert_eq!(target_path(None).unwrap(), None);
        assert_eq!(target_path(Some("  ")).unwrap(), None);
        assert_eq!(target_path(Some("shop")).unwrap(), Some(vec!["shop"]));
        assert_eq!(
            target_path(Some("shop / api/cart")).unwrap(),
            Some(vec!["shop", "api", "cart"])
        );
        for bad in ["a/b/c/d", "a//b", "/a", "a/"] {
            let failure = target_path(Some(bad)).unwrap_err();
            assert_eq!(failure.code, super::LokoErrorCode::InvalidInput, "{bad}");
        }
    }
}
