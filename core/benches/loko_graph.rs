//! loko's graph and relationship tools on a generated 1,010-entity project (10 systems ×
//! 10 containers × 9 components, 3 relationships per component in relationships.toml,
//! 2,700 edges), interleaved in one run beside just reading the project's files:
//! `search_elements`, `find_relationships`, `query_dependencies`,
//! `query_related_components`, `analyze_coupling`, `list_relationships`,
//! `create_relationship` + `delete_relationship`, and `validate` without d2. Each median
//! is printed beside its budget (issue 29: 20 ms for search and the graph tools, 10 ms for
//! a relationship write, 100 ms for validate).
//!
//! With `LOKO_BIN` (a loko v0.3 binary) and `TOOLPACK_MCP_BIN` (the `toolpack-mcp`
//! binary), also times both servers over stdio on the same calls, interleaved.
//! Run: `cargo bench -p toolpack --bench loko_graph`.

mod support;

use std::time::Instant;

use serde_json::{Value, json};
use toolpack::{Config, Toolpack};
use toolpack_testkit::loko_project::{Shape, generate_graph, read_all};

/// Each timed call's budget, in milliseconds.
const BUDGETS: [(&str, f64); 9] = [
    ("search_elements", 20.0),
    ("find_relationships", 20.0),
    ("query_dependencies", 20.0),
    ("query_related_components", 20.0),
    ("analyze_coupling", 20.0),
    ("list_relationships", 20.0),
    ("create_relationship", 10.0),
    ("delete_relationship", 10.0),
    ("validate (no d2)", 100.0),
];

/// The calls, without `project_path`.
fn calls() -> Vec<(&'static str, &'static str, Value)> {
    vec![
        (
            "search_elements",
            "search_elements",
            json!({"query": "*component-4*", "type": "component"}),
        ),
        (
            "find_relationships",
            "find_relationships",
            json!({"source_pattern": "system-3/container-2/*"}),
        ),
        (
            "query_dependencies",
            "query_dependencies",
            json!({"system_id": "system-2", "container_id": "container-5", "component_id": "component-3", "target_component_id": "system-7/container-1/component-0"}),
        ),
        (
            "query_related_components",
            "query_related_components",
            json!({"component_id": "system-4/container-4/component-4"}),
        ),
        ("analyze_coupling", "analyze_coupling", json!({})),
        (
            "list_relationships",
            "list_relationships",
            json!({"system_name": "system-9"}),
        ),
        (
            "create_relationship",
            "create_relationship",
            json!({"system_name": "system-0", "source": "system-0/container-0/component-0", "target": "system-5/container-5/component-5", "label": "benchmarks"}),
        ),
        (
            "delete_relationship",
            "delete_relationship",
            json!({"system_name": "system-0", "relationship_id": relationship_id("system-0/container-0/component-0", "system-5/container-5/component-5", "benchmarks")}),
        ),
        ("validate (no d2)", "validate", json!({})),
    ]
}

fn relationship_id(source: &str, target: &str, label: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!("{source}->{target}:{label}").as_bytes());
    digest[..4].iter().map(|b| format!("{b:02x}")).collect()
}

fn with_project(arguments: &Value, project: &str, key: &str) -> Value {
    let mut arguments = arguments.clone();
    arguments[key] = json!(project);
    arguments
}

fn main() {
    let bench = support::rounds() == support::ROUNDS;
    let rounds = if bench { 200 } else { 3 };
    let runtime = support::runtime();
    let dir = tempfile::tempdir().unwrap();
    let shape = Shape {
        systems: 10,
        containers: 10,
        components: 9,
    };
    let edges = generate_graph(dir.path(), shape).unwrap();
    let p = dir.path().to_str().unwrap().to_owned();
    let config = Config::from_pairs([("D2_BIN", "/nonexistent/d2")]).unwrap();
    let toolpack = Toolpack::new(config).unwrap();
    let call = |tool: &str, arguments: Value| {
        let result = runtime
            .block_on(toolpack.call_json(tool, arguments))
            .unwrap();
        assert!(!result.is_error(), "{tool}: {}", result.body);
        result.body
    };
    let calls = calls();
    let mut labels = vec!["read every file"];
    labels.extend(calls.iter().map(|(label, _, _)| *label));
    let mut laps = support::Laps::new(&labels, rounds);
    for round in 0..laps.total_rounds(rounds) {
        let mut marks = vec![Instant::now()];
        std::hint::black_box(read_all(dir.path()));
        marks.push(Instant::now());
        for (_, tool, arguments) in &calls {
            std::hint::black_box(call(tool, with_project(arguments, &p, "project_path")));
            marks.push(Instant::now());
        }
        laps.record(round, &marks);
    }
    laps.report(&format!(
        "loko graph tools on a generated {}-entity project with {edges} relationships",
        shape.entities()
    ));
    for ((label, median), (_, budget)) in laps.medians().into_iter().skip(1).zip(BUDGETS) {
        let ms = median / 1e3;
        let verdict = if ms <= budget { "within" } else { "OVER" };
        println!("  {label:28} {ms:7.2} ms  {verdict} its {budget} ms budget");
    }
    if let (Ok(loko), Ok(ours)) = (std::env::var("LOKO_BIN"), std::env::var("TOOLPACK_MCP_BIN")) {
        beside_loko(&loko, &ours, &p, if bench { 30 } else { 2 });
    }
}

/// The same calls to loko v0.3 and `toolpack-mcp`, both over stdio, interleaved.
fn beside_loko(loko: &str, ours: &str, project: &str, rounds: usize) {
    let mut servers = [
        (
            "toolpack-mcp",
            support::stdio::StdioServer::start(ours, &[]).unwrap(),
        ),
        (
            "loko v0.3",
            support::stdio::StdioServer::start(loko, &["mcp"]).unwrap(),
        ),
    ];
    let calls = calls();
    let mut samples = vec![[Vec::new(), Vec::new()]; calls.len()];
    let mut failed = vec![[None, None]; calls.len()];
    for round in 0..rounds + 2 {
        for (i, (_, tool, arguments)) in calls.iter().enumerate() {
            for (s, (_, server)) in servers.iter_mut().enumerate() {
                let arguments = with_project(arguments, project, "project_root");
                let started = Instant::now();
                let answer = server.call(tool, arguments);
                if round >= 2 {
                    samples[i][s].push(started.elapsed().as_secs_f64() * 1e3);
                }
                if let Err(error) = answer {
                    failed[i][s] = Some(error.to_string());
                }
            }
        }
    }
    println!("the same calls over stdio, {rounds} interleaved rounds (medians):");
    for (((label, _, _), [ours, theirs]), failures) in calls.iter().zip(samples).zip(&failed) {
        let (ours, theirs) = (support::median(ours), support::median(theirs));
        println!(
            "  {label:28} toolpack-mcp {ours:8.2} ms  loko v0.3 {theirs:8.2} ms  loko/toolpack {:5.1}x",
            theirs / ours
        );
        for ((name, _), failure) in servers.iter().zip(failures) {
            if let Some(failure) = failure {
                println!(
                    "    {name} answered an error: {}",
                    &failure[..failure.len().min(160)]
                );
            }
        }
    }
}
