//! Component relationships in all three forms the notes list: component frontmatter
//! `relationships: {target: "description"}`, D2 arrows `a -> b` in component diagrams,
//! and `src/<system>/relationships.toml`. Ids are qualified (`system/container/component`)
//! so equal component ids in different containers never collide.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::Value;

use super::model::{Finding, Project, Severity};
use super::slug::slugify;

/// The file of system-level relationships.
pub use super::model::RELATIONSHIPS_FILE;

/// One edge between components.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relationship {
    /// The source component, qualified.
    pub source: String,
    /// The target as written.
    pub target_written: String,
    /// The target component, qualified, when it resolves.
    pub target: Option<String>,
    /// What the relationship does.
    pub label: String,
    /// The file it was read from, project-relative.
    pub location: String,
}

/// Every relationship of `project`, deduplicated by `source->target`, plus findings
/// about files that could not be read.
pub fn collect(project: &Project) -> (Vec<Relationship>, Vec<Finding>) {
    let index = Index::new(
        project
            .components()
            .map(|(s, c, k)| (s.id.clone(), c.id.clone(), k.id.clone())),
    );
    let mut findings = Vec::new();
    let mut edges = Vec::new();
    for (system, container, component) in project.components() {
        let source = format!("{}/{}/{}", system.id, container.id, component.id);
        let here = (system.id.as_str(), container.id.as_str());
        for (target, label) in frontmatter_edges(component.doc.frontmatter.get("relationships")) {
            edges.push(Relationship {
                target: index.resolve(here, &target),
                source: source.clone(),
                target_written: target,
                label,
                location: component.file.clone(),
            });
        }
        if let (Some(diagram), Some(text)) = (&component.diagram, &component.diagram_source) {
            for (from, to, label) in d2_arrows(text) {
                let from_id = if from == component.id {
                    Some(source.clone())
                } else {
                    index.resolve(here, &from)
                };
                let to_id = index.resolve(here, &to);
                if let (Some(from_id), Some(to_id)) = (from_id, to_id) {
                    edges.push(Relationship {
                        source: from_id,
                        target_written: to,
                        target: Some(to_id),
                        label,
                        location: diagram.clone(),
                    });
                }
            }
        }
    }
    for system in &project.systems {
        let file = format!("{}/{RELATIONSHIPS_FILE}", system.dir);
        let Some(text) = &system.relationships else {
            continue;
        };
        match text.parse::<toml::Table>() {
            Ok(table) => {
                let list = table
                    .get("relationships")
                    .and_then(|v| v.as_array())
                    .cloned()
                    .unwrap_or_default();
                for item in list.iter().filter_map(|v| v.as_table()) {
                    let field = |k: &str| {
                        item.get(k)
                            .and_then(|v| v.as_str())
                            .unwrap_or("")
                            .to_owned()
                    };
                    let (from, to) = (field("source"), field("target"));
                    let Some(source) = index.resolve((system.id.as_str(), ""), &from) else {
                        findings.push(Finding::new(
                            Severity::Error,
                            "dangling_reference",
                            format!("Relationship source '{from}' is not a known component"),
                            file.clone(),
                        ));
                        continue;
                    };
                    edges.push(Relationship {
                        target: index.resolve((system.id.as_str(), ""), &to),
                        source,
                        target_written: to,
                        label: field("label"),
                        location: file.clone(),
                    });
                }
            }
            Err(e) => findings.push(Finding::new(
                Severity::Error,
                "INVALID_SYNTAX",
                format!("Invalid {RELATIONSHIPS_FILE}: {}", e.to_string().trim()),
                file,
            )),
        }
    }
    let mut seen = BTreeSet::new();
    edges.retain(|e| {
        seen.insert(format!(
            "{}->{}",
            e.source,
            e.target.as_deref().unwrap_or(&e.target_written)
        ))
    });
    (edges, findings)
}

/// `edges` grouped by their source component (qualified id), in order.
pub fn by_source(edges: Vec<Relationship>) -> BTreeMap<String, Vec<Relationship>> {
    let mut grouped: BTreeMap<String, Vec<Relationship>> = BTreeMap::new();
    for edge in edges {
        grouped.entry(edge.source.clone()).or_default().push(edge);
    }
    grouped
}

/// The `{target: description}` pairs of a frontmatter `relationships` value (a map, or
/// a list of ids or of `{target, description}` maps).
fn frontmatter_edges(value: Option<&Value>) -> Vec<(String, String)> {
    match value {
        Some(Value::Object(map)) => map
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().map(str::to_owned).unwrap_or_default()))
            .collect(),
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|item| match item {
                Value::String(s) => Some((s.clone(), String::new())),
                Value::Object(m) => {
                    let target = m.get("target").and_then(Value::as_str)?;
                    let label = m
                        .get("description")
                        .or_else(|| m.get("label"))
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    Some((target.to_owned(), label.to_owned()))
                }
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Every component by the slug of its id: `(system, container, component)` ids.
pub(crate) struct Index {
    by_component: HashMap<String, Vec<(String, String, String)>>,
}

impl Index {
    /// The index of `components` (`(system, container, component)` ids).
    pub(crate) fn new(components: impl IntoIterator<Item = (String, String, String)>) -> Self {
        let mut by_component: HashMap<String, Vec<(String, String, String)>> = HashMap::new();
        for entry in components {
            by_component
                .entry(slugify(&entry.2))
                .or_default()
                .push(entry);
        }
        Self { by_component }
    }

    /// The qualified id `written` means, seen from `(system, container)`: a qualified
    /// `system/container/component` or `container/component`, else a component id in the
    /// same container, then the same system, then anywhere if it is unique.
    pub(crate) fn resolve(&self, here: (&str, &str), written: &str) -> Option<String> {
        let written = written.trim().trim_matches('"');
        let same = |a: &str, b: &str| a == b || slugify(a) == slugify(b);
        let parts: Vec<&str> = written.split('/').collect();
        let candidates = |k: &str| {
            self.by_component
                .get(&slugify(k))
                .map(Vec::as_slice)
                .unwrap_or_default()
        };
        let found: Vec<&(String, String, String)> = match parts.as_slice() {
            [s, c, k] => candidates(k)
                .iter()
                .filter(|(is, ic, _)| same(is, s) && same(ic, c))
                .collect(),
            [c, k] => candidates(k)
                .iter()
                .filter(|(is, ic, _)| is == here.0 && same(ic, c))
                .collect(),
            [k] => {
                let all = candidates(k);
                let local: Vec<_> = all
                    .iter()
                    .filter(|e| e.0 == here.0 && e.1 == here.1)
                    .collect();
                let system: Vec<_> = all.iter().filter(|e| e.0 == here.0).collect();
                let anywhere: Vec<_> = all.iter().collect();
                [local, system, anywhere]
                    .into_iter()
                    .find(|v| !v.is_empty())
                    .unwrap_or_default()
            }
            _ => Vec::new(),
        };
        match found.as_slice() {
            [(s, c, k)] => Some(format!("{s}/{c}/{k}")),
            _ => None,
        }
    }
}

/// The `a -> b: label` arrows of a D2 source (also `<-`, read the other way).
pub fn d2_arrows(source: &str) -> Vec<(String, String, String)> {
    let mut arrows = Vec::new();
    for line in source.lines() {
        let line = line.trim();
        if line.starts_with('#') {
            continue;
        }
        let (edge, label) = match line.split_once(':') {
            Some((e, l)) => (
                e,
                l.trim()
                    .trim_matches('"')
                    .trim_end_matches('{')
                    .trim()
                    .trim_matches('"')
                    .to_owned(),
            ),
            None => (line, String::new()),
        };
        let clean = |s: &str| s.trim().trim_matches('"').to_owned();
        if let Some((a, b)) = edge.split_once("->") {
            arrows.push((clean(a), clean(b), label));
        } else if let Some((a, b)) = edge.split_once("<-") {
            arrows.push((clean(b), clean(a), label));
        }
    }
    arrows
        .retain(|(a, b, _)| !a.is_empty() && !b.is_empty() && !a.contains(' ') && !b.contains(' '));
    arrows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_are_read_with_labels() {
        let arrows = d2_arrows(
            "# c\na -> b: \"reads\"\nc <- d\nx -> y: {\n  style.stroke: red\n}\nnot an arrow\n",
        );
        assert_eq!(
            arrows,
            [
                ("a".into(), "b".into(), "reads".into()),
                ("d".into(), "c".into(), String::new()),
                ("x".into(), "y".into(), String::new()),
            ]
        );
    }

    #[test]
    fn targets_resolve_nearest_first_and_qualified_ids_are_exact() {
        let index = Index::new(
            [
                ("s", "c", "k"),
                ("s", "d", "k"),
                ("s", "d", "only"),
                ("t", "c", "k"),
            ]
            .iter()
            .map(|(a, b, c)| ((*a).into(), (*b).into(), (*c).into())),
        );
        assert_eq!(index.resolve(("s", "c"), "k").as_deref(), Some("s/c/k"));
        assert_eq!(
            index.resolve(("s", "c"), "only").as_deref(),
            Some("s/d/only")
        );
        assert_eq!(index.resolve(("s", "c"), "t/c/k").as_deref(), Some("t/c/k"));
        assert_eq!(index.resolve(("s", "c"), "d/k").as_deref(), Some("s/d/k"));
        assert_eq!(index.resolve(("t", "x"), "k").as_deref(), Some("t/c/k"));
        assert_eq!(index.resolve(("u", "x"), "k"), None, "ambiguous");
        assert_eq!(index.resolve(("s", "c"), "nope"), None);
    }
}
