//! Where a project's built output goes: the output directory and the name of each
//! entity's rendered diagram. `update_diagram` renders there, `build_docs` builds there,
//! and `validate` compares renders with their sources there.

use crate::loko::project::model::{Entity, Project};

/// The output directory, project-relative, from `[paths] output`.
pub(crate) fn output_dir(project: &Project) -> String {
    let out = project
        .settings
        .output
        .trim_start_matches("./")
        .trim_end_matches('/');
    if out.is_empty() {
        "dist".to_owned()
    } else {
        out.to_owned()
    }
}

/// The SVG name of an entity's diagram: `<sys>`, `<sys>_<cont>`, `<sys>_<cont>_<comp>`.
pub(crate) fn svg_name(project: &Project, entity: &Entity) -> String {
    project.qualified_id(entity).replace('/', "_")
}
