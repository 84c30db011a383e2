//! Component relationships in all three forms a loko project holds: component
//! frontmatter `relationships` (`{target: "description"}` or a list), D2 arrows
//! `a -> b` in component diagrams, and `src/<system>/relationships.toml` (loko v0.3's
//! `[[relationships]]`). Every form is read with loko v0.3's paths (see [`Index`]), and
//! ids are qualified (`system/container/component`) so equal ids in different
//! containers never collide.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::Value;

use crate::loko::formats::relationship_file::{self, StoredRelationship};
use crate::loko::project::model::{Finding, Project, Severity};
use crate::loko::project::slug::slugify;

/// The file of system-level relationships.
pub use crate::loko::project::model::RELATIONSHIPS_FILE;

/// One edge between two nodes of the graph (components, or a container that has none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relationship {
    /// The source, qualified.
    pub source: String,
    /// The target as written.
    pub target_written: String,
    /// The target, qualified, when it resolves.
    pub target: Option<String>,
    /// What the relationship does.
    pub label: String,
    /// `sync`, `async` or `event` (`sync` where the source does not say).
    pub kind: String,
    /// The technology, when the source says.
    pub technology: Option<String>,
    /// The file it was read from, project-relative.
    pub location: String,
}

/// Every relationship of `project`, deduplicated by `source->target` (the first one
/// read wins: frontmatter, then diagrams, then `relationships.toml`), plus findings
/// about what could not be read or resolved.
pub fn collect(project: &Project) -> (Vec<Relationship>, Vec<Finding>) {
    let index = Index::of(project);
    let mut findings = Vec::new();
    let mut edges = Vec::new();
    for (system, container, component) in project.components() {
        let source = format!("{}/{}/{}", system.id, container.id, component.id);
        let here = Here {
            system: &system.id,
            container: Some(&container.id),
        };
        let sources = [source.clone()];
        // Frontmatter and diagrams name one node each (a container is not fanned out).
        let node = |written: &str| index.node(here, written).map(|n| vec![n]);
        for written in frontmatter_edges(component.doc.frontmatter.get("relationships")) {
            let targets = node(&written.target);
            push_edges(&mut edges, targets, &sources, written, &component.file);
        }
        if let (Some(diagram), Some(text)) = (&component.diagram, &component.diagram_source) {
            for (from, to, label) in d2_arrows(text) {
                let from_ids = if from == component.id {
                    Some(sources.to_vec())
                } else {
                    node(&from).ok()
                };
                // An arrow between names the project does not know is a drawing, not an edge.
                if let (Some(from_ids), Ok(targets)) = (from_ids, node(&to)) {
                    let written = Written::plain(to, label);
                    push_edges(&mut edges, Ok(targets), &from_ids, written, diagram);
                }
            }
        }
    }
    for system in &project.systems {
        let file = format!("{}/{RELATIONSHIPS_FILE}", system.dir);
        let Some(text) = &system.relationships else {
            continue;
        };
        let here = Here {
            system: &system.id,
            container: None,
        };
        match relationship_file::parse(text) {
            Ok(stored) => {
                for item in stored.relationships {
                    let Ok(sources) = index.resolve(here, &item.source) else {
                        findings.push(Finding::new(
                            Severity::Error,
                            "dangling_reference",
                            format!(
                                "Relationship source '{}' is not a known container or component",
                                item.source
                            ),
                            file.clone(),
                        ));
                        continue;
                    };
                    let targets = index.resolve(here, &item.target);
                    push_edges(&mut edges, targets, &sources, Written::stored(&item), &file);
                }
            }
            Err(e) => findings.push(Finding::new(
                Severity::Error,
                "INVALID_SYNTAX",
                format!("Invalid {RELATIONSHIPS_FILE}: {e}"),
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

/// The relationships of a project and the findings about them: [`collect`]'s answer.
#[derive(Debug, Clone, Default)]
pub struct Collected {
    /// Every relationship, deduplicated.
    pub edges: Vec<Relationship>,
    /// What could not be read or resolved.
    pub findings: Vec<Finding>,
}

/// [`collect`] of `project`, made once per loaded project.
pub fn of(project: &Project) -> std::sync::Arc<Collected> {
    project.memo.get_or_init(|| {
        let (edges, findings) = collect(project);
        Collected { edges, findings }
    })
}

/// `edges` grouped by their source (qualified id), in order.
pub fn by_source(edges: Vec<Relationship>) -> BTreeMap<String, Vec<Relationship>> {
    let mut grouped: BTreeMap<String, Vec<Relationship>> = BTreeMap::new();
    for edge in edges {
        grouped.entry(edge.source.clone()).or_default().push(edge);
    }
    grouped
}

/// A relationship as a source wrote it, before its target is resolved.
struct Written {
    target: String,
    label: String,
    kind: String,
    technology: Option<String>,
}

impl Written {
    fn plain(target: String, label: String) -> Self {
        Self {
            target,
            label,
            kind: "sync".to_owned(),
            technology: None,
        }
    }

    fn stored(item: &StoredRelationship) -> Self {
        Self {
            target: item.target.clone(),
            label: item.label.clone(),
            kind: item.kind.clone(),
            technology: item.technology.clone(),
        }
    }
}

/// One edge from each of `sources` to each of `targets` (a dangling edge when
/// `written.target` means no node), without self-edges.
fn push_edges(
    edges: &mut Vec<Relationship>,
    targets: Result<Vec<String>, Unresolved>,
    sources: &[String],
    written: Written,
    location: &str,
) {
    let targets = targets.ok();
    for source in sources {
        let edge = |target: Option<String>| Relationship {
            source: source.clone(),
            target_written: written.target.clone(),
            target,
            label: written.label.clone(),
            kind: written.kind.clone(),
            technology: written.technology.clone(),
            location: location.to_owned(),
        };
        match &targets {
            Some(targets) => edges.extend(
                targets
                    .iter()
                    .filter(|t| *t != source)
                    .map(|t| edge(Some(t.clone()))),
            ),
            None => edges.push(edge(None)),
        }
    }
}

/// The relationships a component's frontmatter `relationships` value writes: a map of
/// `{target: "description"}`, or a list of ids or of `{target, description|label,
/// type, technology}` maps.
fn frontmatter_edges(value: Option<&Value>) -> Vec<Written> {
    let text = |m: &serde_json::Map<String, Value>, key: &str| {
        m.get(key).and_then(Value::as_str).map(str::to_owned)
    };
    match value {
        Some(Value::Object(map)) => map
            .iter()
            .map(|(k, v)| Written::plain(k.clone(), v.as_str().unwrap_or_default().to_owned()))
            .collect(),
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|item| match item {
                Value::String(s) => Some(Written::plain(s.clone(), String::new())),
                Value::Object(m) => Some(Written {
                    target: text(m, "target")?,
                    label: text(m, "description")
                        .or_else(|| text(m, "label"))
                        .unwrap_or_default(),
                    kind: text(m, "type").unwrap_or_else(|| "sync".to_owned()),
                    technology: text(m, "technology"),
                }),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Where a path is written: in a system's `relationships.toml` (no container), or in a
/// component of a container.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Here<'a> {
    /// The system.
    pub(crate) system: &'a str,
    /// The container, for paths written inside one.
    pub(crate) container: Option<&'a str>,
}

/// Why a path means no node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Unresolved {
    /// Nothing has that path.
    Unknown,
    /// A short id that several containers or components share (their qualified ids).
    Ambiguous(Vec<String>),
    /// The path is malformed (empty segments, more than three).
    Malformed,
}

/// The containers and components of a project, for resolving loko v0.3's paths:
///
/// - `system/container/component` is a component;
/// - `system/container` is a container;
/// - `id` is the short id of a container or component: the one in the same container
///   first, then in the same system, then the only one in the project.
///
/// In `relationships.toml` a container is fanned out to its components (the container
/// itself when it has none), as loko v0.3 reads it; frontmatter and diagram arrows name
/// the container itself.
///
/// Ids compare exactly or by slug (`Order Handler` finds `order-handler`).
pub(crate) struct Index {
    /// Components by container (`system/container`), in order.
    components: BTreeMap<String, Vec<String>>,
    /// Qualified ids of containers and components by the slug of their short id.
    short: HashMap<String, Vec<String>>,
    /// Qualified ids by their slugged form, for exact paths written with other spelling.
    slugged: HashMap<String, String>,
}

impl Index {
    /// The index of `project`, made once per loaded project.
    pub(crate) fn of(project: &Project) -> std::sync::Arc<Self> {
        project.memo.get_or_init(|| Self::build(project))
    }

    fn build(project: &Project) -> Self {
        let mut index = Index {
            components: BTreeMap::new(),
            short: HashMap::new(),
            slugged: HashMap::new(),
        };
        for (system, container) in project.containers() {
            let id = format!("{}/{}", system.id, container.id);
            index.add(&id, &container.id);
            let components = container
                .children
                .iter()
                .map(|k| {
                    let qualified = format!("{id}/{}", k.id);
                    index.add(&qualified, &k.id);
                    qualified
                })
                .collect();
            index.components.insert(id, components);
        }
        index
    }

    fn add(&mut self, qualified: &str, short: &str) {
        self.short
            .entry(slugify(short))
            .or_default()
            .push(qualified.to_owned());
        self.slugged
            .insert(slug_path(qualified), qualified.to_owned());
    }

    /// The node `written` means exactly (a container is not fanned out), seen from `here`.
    pub(crate) fn node(&self, here: Here<'_>, written: &str) -> Result<String, Unresolved> {
        let written = written.trim().trim_matches('"');
        let parts: Vec<&str> = written.split('/').collect();
        if parts.iter().any(|p| p.trim().is_empty()) || parts.len() > 3 {
            return Err(Unresolved::Malformed);
        }
        if parts.len() > 1 {
            let exact = self.slugged.get(&slug_path(written));
            return exact.cloned().ok_or(Unresolved::Unknown);
        }
        let all = self
            .short
            .get(&slugify(written))
            .map(Vec::as_slice)
            .unwrap_or_default();
        let in_system = |q: &&String| q.starts_with(&format!("{}/", here.system));
        let in_container = |q: &&String| {
            here.container.is_some_and(|c| {
                q.strip_prefix(&format!("{}/{c}/", here.system))
                    .is_some_and(|rest| !rest.contains('/'))
            })
        };
        let tiers: [Vec<&String>; 3] = [
            all.iter().filter(in_container).collect(),
            all.iter().filter(in_system).collect(),
            all.iter().collect(),
        ];
        match tiers.into_iter().find(|tier| !tier.is_empty()) {
            None => Err(Unresolved::Unknown),
            Some(tier) if tier.len() == 1 => Ok(tier[0].clone()),
            Some(tier) => Err(Unresolved::Ambiguous(tier.into_iter().cloned().collect())),
        }
    }

    /// The components `written` means, seen from `here` (a container fanned out).
    pub(crate) fn resolve(&self, here: Here<'_>, written: &str) -> Result<Vec<String>, Unresolved> {
        let node = self.node(here, written)?;
        Ok(match self.components.get(&node) {
            Some(components) if !components.is_empty() => components.clone(),
            _ => vec![node],
        })
    }

    /// Every qualified container and component id, for suggestions.
    pub(crate) fn ids(&self) -> impl Iterator<Item = &String> {
        self.slugged.values()
    }
}

fn slug_path(path: &str) -> String {
    path.split('/').map(slugify).collect::<Vec<_>>().join("/")
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
        if let Some((a, b)) = edge.split_once("<->") {
            arrows.push((clean(a), clean(b), label));
        } else if let Some((a, b)) = edge.split_once("->") {
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
            "# c\na -> b: \"reads\"\nc <- d\nx -> y: {\n  style.stroke: red\n}\nnot an arrow\np <-> q: \"both\"\n",
        );
        assert_eq!(
            arrows,
            [
                ("a".into(), "b".into(), "reads".into()),
                ("d".into(), "c".into(), String::new()),
                ("x".into(), "y".into(), String::new()),
                ("p".into(), "q".into(), "both".into()),
            ]
        );
    }

    fn index() -> Index {
        let mut index = Index {
            components: BTreeMap::new(),
            short: HashMap::new(),
            slugged: HashMap::new(),
        };
        for (container, components) in [
            ("s/c", &["s/c/k"][..]),
            ("s/d", &["s/d/k", "s/d/only"][..]),
            ("t/c", &["t/c/k"][..]),
            ("t/empty", &[][..]),
        ] {
            index.add(container, container.rsplit('/').next().unwrap());
            for k in components {
                index.add(k, k.rsplit('/').next().unwrap());
            }
            index.components.insert(
                container.to_owned(),
                components.iter().map(|k| (*k).to_owned()).collect(),
            );
        }
        index
    }

    #[test]
    fn paths_mean_what_loko_v0_3_means() {
        let index = index();
        let in_c = Here {
            system: "s",
            container: Some("c"),
        };
        let in_s = Here {
            system: "s",
            container: None,
        };
        let ok = |here, w: &str| index.resolve(here, w).unwrap();
        // Three segments: a component; two: a container, fanned out.
        assert_eq!(ok(in_c, "t/c/k"), ["t/c/k"]);
        assert_eq!(ok(in_s, "s/d"), ["s/d/k", "s/d/only"]);
        assert_eq!(
            ok(in_s, "t/empty"),
            ["t/empty"],
            "a container without components"
        );
        assert_eq!(index.resolve(in_s, "d/k"), Err(Unresolved::Unknown));
        // One segment: nearest first, then the only one.
        assert_eq!(ok(in_c, "k"), ["s/c/k"]);
        assert_eq!(ok(in_c, "only"), ["s/d/only"]);
        assert_eq!(ok(in_s, "empty"), ["t/empty"]);
        assert!(matches!(
            index.resolve(in_s, "k"),
            Err(Unresolved::Ambiguous(c)) if c == ["s/c/k", "s/d/k"]
        ));
        assert_eq!(index.resolve(in_c, "nope"), Err(Unresolved::Unknown));
        for bad in ["", "s//k", "a/b/c/d", "/s/c"] {
            assert_eq!(
                index.resolve(in_c, bad),
                Err(Unresolved::Malformed),
                "{bad}"
            );
        }
        // Other spellings of the same ids.
        assert_eq!(ok(in_c, "S/D/Only"), ["s/d/only"]);
    }
}
