//! The markdown output: one document per system, container and component plus an index
//! (`markdown/README.md`), with links between them and the rendered diagrams.

use std::fmt::Write;

use super::html::{LANDSCAPE, Site};
use super::tree::Doc;
use crate::loko::project::model::Level;

impl Site<'_> {
    /// Every markdown document, by path relative to the output root.
    pub fn markdown_files(&self) -> Vec<(String, Vec<u8>)> {
        let mut files = vec![(
            "markdown/README.md".to_owned(),
            self.markdown_index().into_bytes(),
        )];
        for doc in self.docs {
            files.push((
                format!("markdown/{}", doc.markdown_name()),
                self.markdown_doc(doc).into_bytes(),
            ));
        }
        files
    }

    fn diagram_line(&self, svg: &str, name: &str) -> String {
        if self.rendered.contains(svg.trim_end_matches(".svg")) {
            format!("![{name}](../diagrams/{svg})\n\n")
        } else {
            String::new()
        }
    }

    fn markdown_index(&self) -> String {
        let project = self.project;
        let mut md = format!("# {}\n\n", project.settings.name);
        if !project.settings.description.is_empty() {
            let _ = write!(md, "{}\n\n", project.settings.description);
        }
        md.push_str(&self.diagram_line(&format!("{LANDSCAPE}.svg"), "System landscape"));
        md.push_str("## Table of Contents\n\n");
        for doc in self.docs {
            let indent = "  ".repeat(doc.parents.len());
            let _ = writeln!(
                md,
                "{indent}- [{}]({}) ({})",
                doc.entity.name(),
                doc.markdown_name(),
                doc.entity.level.role()
            );
        }
        md
    }

    fn markdown_doc(&self, doc: &Doc) -> String {
        let e = doc.entity;
        let mut crumbs = vec!["[Home](README.md)".to_owned()];
        for parent in &doc.parents {
            if let Some(p) = self.doc_of(parent) {
                crumbs.push(format!("[{}]({})", parent.name(), p.markdown_name()));
            }
        }
        let mut md = format!("{}\n\n# {}\n\n", crumbs.join(" / "), e.name());
        let _ = write!(md, "*{}*", e.level.title());
        if let Some(t) = e.technology() {
            let _ = write!(md, " · **{t}**");
        }
        md.push_str("\n\n");
        if !e.description().is_empty() {
            let _ = write!(md, "{}\n\n", e.description());
        }
        if let Some(svg) = doc.svg() {
            md.push_str(&self.diagram_line(&svg, &format!("{} diagram", e.name())));
        }
        let body = e.doc.body.trim();
        let heading = format!("# {}", e.name());
        let body = body.strip_prefix(&heading).unwrap_or(body).trim();
        if !body.is_empty() {
            let _ = write!(md, "{body}\n\n");
        }
        let children: Vec<&Doc> = self.children_of(e).collect();
        if !children.is_empty() {
            let title = if e.level == Level::System {
                "Containers"
            } else {
                "Components"
            };
            let _ = write!(md, "## {title}\n\n");
            for child in children {
                let _ = writeln!(
                    md,
                    "- [{}]({}): {}",
                    child.entity.name(),
                    child.markdown_name(),
                    child.entity.description()
                );
            }
            md.push('\n');
        }
        md
    }
}
