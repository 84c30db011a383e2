//! The graph tools: `query_dependencies`, `query_related_components` and
//! `analyze_coupling`, on the project's one relationship graph
//! ([`crate::loko::project::relationships::collect`]: frontmatter, component diagrams and
//! `relationships.toml`). Nodes are components, and containers that have none; ids
//! are qualified (`system/container/component`).

mod analyze_coupling;
mod query_dependencies;
mod query_related;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::loko::project::model::{Level, Project};
use crate::loko::project::relationships::{self, Relationship};

pub use analyze_coupling::{
    AnalyzeCoupling, AnalyzeCouplingRequest, AnalyzeCouplingResult, CouplingCount,
};
pub(crate) use query_dependencies::unresolved;
pub use query_dependencies::{
    QueryDependencies, QueryDependenciesRequest, QueryDependenciesResult,
};
pub use query_related::{
    QueryRelatedComponents, QueryRelatedComponentsRequest, QueryRelatedComponentsResult,
};

/// A node in an answer, as loko shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct NodeRef {
    /// The qualified id (`system/container/component`, or `system/container`).
    pub id: String,
    /// The display name.
    pub name: String,
    /// `container` or `component`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The C4 level: 2 for a container, 3 for a component.
    pub level: u32,
}

/// A node of the graph.
#[derive(Debug, Clone)]
pub(crate) struct GraphNode {
    pub(crate) name: String,
    pub(crate) level: Level,
}

/// The project's relationship graph, with edges both ways (each neighbour once, in id
/// order).
#[derive(Debug, Default)]
pub(crate) struct DependencyGraph {
    pub(crate) nodes: BTreeMap<String, GraphNode>,
    out: BTreeMap<String, BTreeSet<String>>,
    incoming: BTreeMap<String, BTreeSet<String>>,
    /// The edges whose target resolved, in the order read.
    pub(crate) edges: Vec<Relationship>,
}

impl DependencyGraph {
    /// The graph of `project`, made once per loaded project.
    pub(crate) fn of(project: &Project) -> Arc<Self> {
        project.memo.get_or_init(|| Self::build(project))
    }

    fn build(project: &Project) -> Self {
        let mut graph = Self::default();
        for (s, c) in project.containers() {
            let node = GraphNode {
                name: c.name(),
                level: Level::Container,
            };
            graph.nodes.insert(format!("{}/{}", s.id, c.id), node);
        }
        for (s, c, k) in project.components() {
            let node = GraphNode {
                name: k.name(),
                level: Level::Component,
            };
            graph
                .nodes
                .insert(format!("{}/{}/{}", s.id, c.id, k.id), node);
        }
        for edge in relationships::of(project).edges.iter().cloned() {
            let Some(target) = edge.target.clone() else {
                continue;
            };
            graph
                .out
                .entry(edge.source.clone())
                .or_default()
                .insert(target.clone());
            graph
                .incoming
                .entry(target)
                .or_default()
                .insert(edge.source.clone());
            graph.edges.push(edge);
        }
        graph
    }

    /// What `id` depends on.
    pub(crate) fn dependencies(&self, id: &str) -> impl Iterator<Item = &String> {
        self.out.get(id).into_iter().flatten()
    }

    /// What depends on `id`.
    pub(crate) fn dependents(&self, id: &str) -> impl Iterator<Item = &String> {
        self.incoming.get(id).into_iter().flatten()
    }

    /// The shortest path of dependencies from `from` to `to` (both included), when there
    /// is one.
    pub(crate) fn path(&self, from: &str, to: &str) -> Option<Vec<String>> {
        let mut previous: BTreeMap<&str, &str> = BTreeMap::new();
        let mut queue = VecDeque::from([from]);
        let mut seen = BTreeSet::from([from]);
        while let Some(node) = queue.pop_front() {
            if node == to {
                let mut path = vec![to.to_owned()];
                let mut at = to;
                while let Some(before) = previous.get(at) {
                    path.push((*before).to_owned());
                    at = before;
                }
                path.reverse();
                return Some(path);
            }
            for next in self.dependencies(node) {
                if seen.insert(next) {
                    previous.insert(next, node);
                    queue.push_back(next);
                }
            }
        }
        None
    }

    /// `id` as an answer shows it.
    pub(crate) fn node_ref(&self, id: &str) -> NodeRef {
        let (name, level) = self
            .nodes
            .get(id)
            .map_or((id.to_owned(), Level::Component), |n| {
                (n.name.clone(), n.level)
            });
        NodeRef {
            id: id.to_owned(),
            name,
            kind: level.role().to_owned(),
            level: c4_level(level),
        }
    }

    /// The answer form of `ids`.
    pub(crate) fn node_refs<'a>(&self, ids: impl IntoIterator<Item = &'a String>) -> Vec<NodeRef> {
        ids.into_iter().map(|id| self.node_ref(id)).collect()
    }
}

/// The C4 level of `level`: 1 system, 2 container, 3 component.
pub(crate) fn c4_level(level: Level) -> u32 {
    match level {
        Level::System => 1,
        Level::Container => 2,
        Level::Component => 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_shortest_and_follow_the_arrows() {
        let mut graph = DependencyGraph::default();
        for (a, b) in [("a", "b"), ("b", "c"), ("a", "c"), ("c", "d")] {
            graph.out.entry(a.into()).or_default().insert(b.into());
            graph.incoming.entry(b.into()).or_default().insert(a.into());
        }
        assert_eq!(graph.path("a", "d").unwrap(), ["a", "c", "d"]);
        assert_eq!(graph.path("a", "a").unwrap(), ["a"]);
        assert_eq!(graph.path("d", "a"), None);
        assert_eq!(graph.dependents("c").collect::<Vec<_>>(), ["a", "b"]);
    }
}
