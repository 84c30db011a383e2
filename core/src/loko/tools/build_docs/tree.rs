//! The documents of a build: one per system, container and component, each with its
//! output names (qualified, so equal component ids in different containers never
//! collide), its parents for breadcrumbs, and its diagram.

use crate::loko::project::model::{Entity, Level, Project};
use crate::loko::project::output_paths::svg_name;

/// One entity's document.
#[derive(Debug, Clone)]
pub struct Doc<'a> {
    /// The entity.
    pub entity: &'a Entity,
    /// Its parents, outermost first.
    pub parents: Vec<&'a Entity>,
    /// The qualified name used in file names: `shop`, `shop_api`, `shop_api_cart`.
    pub key: String,
}

impl Doc<'_> {
    /// The HTML page, relative to the site root.
    pub fn html_path(&self) -> String {
        let dir = match self.entity.level {
            Level::System => "systems",
            Level::Container => "containers",
            Level::Component => "components",
        };
        format!("{dir}/{}.html", self.key)
    }

    /// The markdown document's file name (in `markdown/`).
    pub fn markdown_name(&self) -> String {
        format!("{}.md", self.key)
    }

    /// The diagram's SVG file name, when the entity has a diagram.
    pub fn svg(&self) -> Option<String> {
        self.entity
            .diagram
            .as_ref()
            .map(|_| format!("{}.svg", self.key))
    }
}

/// Every document, depth first (a system, its containers and their components).
pub fn docs(project: &Project) -> Vec<Doc<'_>> {
    let mut out = Vec::new();
    for system in &project.systems {
        walk(project, system, Vec::new(), &mut out);
    }
    out
}

fn walk<'a>(
    project: &'a Project,
    entity: &'a Entity,
    parents: Vec<&'a Entity>,
    out: &mut Vec<Doc<'a>>,
) {
    out.push(Doc {
        entity,
        parents: parents.clone(),
        key: svg_name(project, entity),
    });
    let mut next = parents;
    next.push(entity);
    for child in &entity.children {
        walk(project, child, next.clone(), out);
    }
}
