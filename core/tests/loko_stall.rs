//! No loko tool stalls the executor: every one runs on a `current_thread` runtime while a
//! timer ticks every millisecond, and the longest gap between ticks stays under 20 ms.
//! The Rust twin of the Node and Python event-loop tests: a blocking file read or
//! process wait on the async path would hold the one thread and show here.
#![allow(
    clippy::disallowed_methods,
    reason = "a test, not a server's async path: it copies a project with std::fs"
)]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use toolpack::{Config, Toolpack};

/// The longest the executor may go without running the timer.
const MAX_STALL: Duration = Duration::from_millis(20);
/// Rounds; the stall that counts is the smallest round's worst, so one preemption by the
/// OS on a busy machine does not fail the test, and a tool that blocks fails every round.
const ROUNDS: usize = 3;

/// Every loko tool, in an order that makes each call meaningful on a fresh project.
fn calls(project: &str) -> Vec<(&'static str, Value)> {
    let diagram = "api -> db: reads\napi: API\ndb: Database\n";
    vec![
        (
            "create_system",
            json!({"project_path": project, "system_name": "Shop", "description": "Sells"}),
        ),
        (
            "create_container",
            json!({"project_path": project, "system_name": "shop", "container_name": "API", "description": "HTTP"}),
        ),
        (
            "create_component",
            json!({"project_path": project, "system_name": "shop", "container_name": "api", "component_name": "Orders", "description": "Takes orders"}),
        ),
        (
            "update_diagram",
            json!({"project_path": project, "system_name": "shop", "d2_code": diagram}),
        ),
        (
            "render_diagram",
            json!({"project_path": project, "target": "shop"}),
        ),
        ("render_diagram", json!({"project_path": project})),
        ("query_project", json!({"project_path": project})),
        (
            "query_architecture",
            json!({"project_path": project, "scope": "system", "target": "shop", "detail": "full"}),
        ),
        ("validate", json!({"project_path": project})),
        (
            "build_docs",
            json!({"project_path": project, "format": "html"}),
        ),
        (
            "build_docs",
            json!({"project_path": project, "format": "markdown", "incremental": false}),
        ),
        (
            "create_components",
            json!({"project_path": project, "system_name": "shop", "container_name": "api", "components": [{"name": "Cart"}, {"name": "Auth"}]}),
        ),
        (
            "update_system",
            json!({"project_path": project, "system_name": "shop", "tags": ["retail"]}),
        ),
        (
            "update_container",
            json!({"project_path": project, "system_name": "shop", "container_name": "api", "technology": "Go"}),
        ),
        (
            "update_component",
            json!({"project_path": project, "system_name": "shop", "container_name": "api", "component_name": "cart", "description": "Baskets"}),
        ),
        (
            "create_relationship",
            json!({"project_path": project, "system_name": "shop", "source": "shop/api/orders", "target": "shop/api/cart", "label": "reads"}),
        ),
        (
            "create_relationship",
            json!({"project_path": project, "system_name": "shop", "source": "cart", "target": "auth", "label": "checks"}),
        ),
        (
            "list_relationships",
            json!({"project_path": project, "system_name": "shop"}),
        ),
        (
            "find_relationships",
            json!({"project_path": project, "source_pattern": "shop/*"}),
        ),
        (
            "search_elements",
            json!({"project_path": project, "query": "*a*"}),
        ),
        (
            "query_dependencies",
            json!({"project_path": project, "system_id": "shop", "container_id": "api", "component_id": "orders", "target_component_id": "auth"}),
        ),
        (
            "query_related_components",
            json!({"project_path": project, "component_id": "shop/api/cart"}),
        ),
        ("analyze_coupling", json!({"project_path": project})),
        (
            "validate_diagram",
            json!({"d2_source": diagram, "level": "container"}),
        ),
        (
            "delete_relationship",
            json!({"project_path": project, "system_name": "shop", "relationship_id": relationship_id("shop/api/orders", "shop/api/cart", "reads")}),
        ),
    ]
}

/// loko's relationship id of `source->target:label`.
fn relationship_id(source: &str, target: &str, label: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!("{source}->{target}:{label}").as_bytes());
    digest[..4].iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn the_calls_cover_every_loko_tool() {
    let called: std::collections::BTreeSet<&str> = calls("p").iter().map(|(t, _)| *t).collect();
    let loko: std::collections::BTreeSet<&str> = toolpack::Catalog::get()
        .entries()
        .iter()
        .filter(|e| e.spec.toolset == toolpack::Toolset::Loko)
        .map(|e| e.spec.name)
        .collect();
    assert_eq!(called, loko, "a new loko tool joins the stall test");
}

/// The worst gap between ticks while every tool runs once on a fresh project.
async fn worst_stall(toolpack: &Toolpack) -> Duration {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir(&project).unwrap();
    let project = project.to_string_lossy().into_owned();

    let worst_micros = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let ticker = tokio::spawn({
        let (worst_micros, done) = (worst_micros.clone(), done.clone());
        async move {
            let tick = Duration::from_millis(1);
            let mut last = Instant::now();
            while !done.load(Ordering::Relaxed) {
                tokio::time::sleep(tick).await;
                let now = Instant::now();
                let gap = now.duration_since(last).saturating_sub(tick);
                worst_micros.fetch_max(gap.as_micros() as u64, Ordering::Relaxed);
                last = now;
            }
        }
    });
    // Let the ticker start before the first call.
    tokio::time::sleep(Duration::from_millis(5)).await;
    for (tool, arguments) in calls(&project) {
        let result = toolpack.call_json(tool, arguments.clone()).await.unwrap();
        assert!(
            result.error_code.is_none(),
            "{tool} {arguments}: {}",
            result.body
        );
    }
    done.store(true, Ordering::Relaxed);
    ticker.await.unwrap();
    Duration::from_micros(worst_micros.load(Ordering::Relaxed))
}

#[tokio::test(flavor = "current_thread")]
async fn no_loko_tool_stalls_a_current_thread_runtime() {
    let toolpack = Toolpack::new(Config::builder().build()).unwrap();
    let mut stalls = Vec::new();
    for _ in 0..ROUNDS {
        stalls.push(worst_stall(&toolpack).await);
    }
    let best = stalls.iter().min().copied().unwrap();
    assert!(
        best < MAX_STALL,
        "the executor stalled for {best:?} at best over {ROUNDS} rounds ({stalls:?})"
    );
}
