//! Graph checks on component relationships, with the reference CLI's codes:
//! `circular_dependency` (with the cycle's path), `dangling_reference`,
//! `high_coupling` (≥ 5 outgoing) and `isolated_component` (no edges at all, in a
//! project that has edges: as in loko v0.3, a project without any relationship yet, such
//! as a fresh one, lists no component as isolated).

use std::collections::{BTreeMap, BTreeSet};

use crate::loko::project::model::{Finding, Project, Severity};
use crate::loko::project::relationships::Relationship;

/// Outgoing dependencies from which a component counts as highly coupled.
pub const HIGH_COUPLING: usize = 5;

/// The graph findings of `project` with its `edges`.
pub fn check(project: &Project, edges: &[Relationship]) -> Vec<Finding> {
    let mut findings = Vec::new();
    let dir_of: BTreeMap<String, String> = project
        .components()
        .map(|(s, c, k)| (format!("{}/{}/{}", s.id, c.id, k.id), format!("{}/", k.dir)))
        .collect();
    let mut out: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    let mut touched: BTreeSet<&str> = BTreeSet::new();
    for edge in edges {
        match &edge.target {
            Some(target) => {
                out.entry(&edge.source).or_default().insert(target);
                touched.insert(&edge.source);
                touched.insert(target);
            }
            None => findings.push(Finding::new(
                Severity::Error,
                "dangling_reference",
                format!(
                    "'{}' depends on '{}', which is not a known component",
                    edge.source, edge.target_written
                ),
                edge.location.clone(),
            )),
        }
    }
    for cycle in cycles(&out) {
        let first = cycle[0];
        let path = cycle
            .iter()
            .chain(std::iter::once(&first))
            .copied()
            .collect::<Vec<_>>()
            .join(" → ");
        findings.push(Finding::new(
            Severity::Error,
            "circular_dependency",
            format!("Circular dependency: {path}"),
            dir_of.get(first).cloned().unwrap_or_default(),
        ));
    }
    for (source, targets) in &out {
        if targets.len() >= HIGH_COUPLING {
            findings.push(Finding::new(
                Severity::Warning,
                "high_coupling",
                format!(
                    "'{source}' depends on {} components (≥ {HIGH_COUPLING})",
                    targets.len()
                ),
                dir_of.get(*source).cloned().unwrap_or_default(),
            ));
        }
    }
    // loko v0.3's zero-edge rule: in a graph with no edge, nothing is isolated.
    let has_edges = !out.is_empty();
    for (id, dir) in dir_of.iter().filter(|_| has_edges) {
        if !touched.contains(id.as_str()) {
            findings.push(Finding::new(
                Severity::Info,
                "isolated_component",
                format!("'{id}' has no relationships"),
                dir.clone(),
            ));
        }
    }
    findings
}

/// Every elementary cycle found by a depth-first search, each once, starting at its
/// smallest id.
fn cycles<'a>(out: &BTreeMap<&'a str, BTreeSet<&'a str>>) -> Vec<Vec<&'a str>> {
    let mut found: BTreeSet<Vec<&'a str>> = BTreeSet::new();
    let mut state: BTreeMap<&str, u8> = BTreeMap::new();
    let mut stack: Vec<&'a str> = Vec::new();
    fn visit<'a>(
        node: &'a str,
        out: &BTreeMap<&'a str, BTreeSet<&'a str>>,
        state: &mut BTreeMap<&'a str, u8>,
        stack: &mut Vec<&'a str>,
        found: &mut BTreeSet<Vec<&'a str>>,
    ) {
        state.insert(node, 1);
        stack.push(node);
        for next in out.get(node).into_iter().flatten() {
            match state.get(next).copied().unwrap_or(0) {
                0 => visit(next, out, state, stack, found),
                1 => {
                    let start = stack.iter().position(|n| n == next).unwrap_or(0);
                    let mut cycle = stack[start..].to_vec();
                    let min = cycle
                        .iter()
                        .enumerate()
                        .min_by_key(|(_, n)| **n)
                        .map_or(0, |(i, _)| i);
                    cycle.rotate_left(min);
                    found.insert(cycle);
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(node, 2);
    }
    for node in out.keys() {
        if state.get(node).copied().unwrap_or(0) == 0 {
            visit(node, out, &mut state, &mut stack, &mut found);
        }
    }
    found.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycles_are_found_once_with_their_path() {
        let mut out: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        out.entry("b").or_default().insert("c");
        out.entry("c").or_default().insert("b");
        out.entry("a").or_default().insert("b");
        out.entry("x").or_default().insert("x");
        assert_eq!(cycles(&out), vec![vec!["b", "c"], vec!["x"]]);
        out.clear();
        out.entry("a").or_default().insert("b");
        assert!(cycles(&out).is_empty());
    }
}
