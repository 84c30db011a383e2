//! loko's relationship files on disk: `relationships.toml` and the D2 `# relationships`
//! section kept in step (hand-written lines above it untouched), a diagram that cannot be
//! written reported without losing the edge, unknown keys kept on rewrite, concurrent
//! creates losing nothing, and the update tools keeping the body and every other
//! frontmatter key. Also the site's component pages, listing relationships both ways.

use std::path::Path;

use serde_json::{Value, json};
use toolpack::{Config, Toolpack};

fn toolpack() -> Toolpack {
    Toolpack::new(Config::builder().build()).unwrap()
}

async fn ok(toolpack: &Toolpack, tool: &str, arguments: Value) -> Value {
    let result = toolpack.call_json(tool, arguments.clone()).await.unwrap();
    assert!(!result.is_error(), "{tool} {arguments}: {}", result.body);
    result.body
}

/// A project with `shop` (containers `api`: orders, cart, auth; `worker`: mailer).
async fn shop(toolpack: &Toolpack, p: &str) {
    ok(
        toolpack,
        "create_system",
        json!({"project_path": p, "system_name": "Shop"}),
    )
    .await;
    for (container, components) in [
        ("API", vec!["Orders", "Cart", "Auth"]),
        ("Worker", vec!["Mailer"]),
    ] {
        ok(
            toolpack,
            "create_container",
            json!({"project_path": p, "system_name": "shop", "container_name": container}),
        )
        .await;
        let items: Vec<Value> = components.iter().map(|c| json!({"name": c})).collect();
        ok(toolpack, "create_components", json!({"project_path": p, "system_name": "shop", "container_name": container, "components": items})).await;
    }
}

/// A copy of the hand-written loko v0.3 fixture, to change.
fn v03_graph() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/loko/v03-graph");
    toolpack_testkit::loko_project::copy_dir(&fixture, dir.path()).unwrap();
    dir
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_diagram_section_follows_relationships_toml_and_hand_written_lines_stay() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().to_str().unwrap();
    let tp = toolpack();
    shop(&tp, p).await;
    let hand_written = read(dir.path(), "src/shop/system.d2");
    let first = ok(&tp, "create_relationship", json!({"project_path": p, "system_name": "shop", "source": "shop/worker", "target": "shop/api/auth", "label": "authenticates with", "type": "async"})).await;
    ok(&tp, "create_relationship", json!({"project_path": p, "system_name": "shop", "source": "orders", "target": "mailer", "label": "sends \"mail\" via", "type": "event", "direction": "bidirectional"})).await;
    ok(&tp, "create_relationship", json!({"project_path": p, "system_name": "shop", "source": "shop/api/orders", "target": "shop/api/cart", "label": "reads"})).await;
    let system = read(dir.path(), "src/shop/system.d2");
    assert_eq!(
        system,
        format!(
            "{}\n\n# relationships\nworker -> auth: {{ label: \"authenticates with\"; style.animated: true }}\norders <-> mailer: {{ label: \"sends \\\"mail\\\" via\"; style.stroke-dash: 5 }}\n",
            hand_written.trim_end()
        )
    );
    assert!(
        read(dir.path(), "src/shop/api/container.d2")
            .ends_with("# relationships\norders -> cart: \"reads\"\n"),
        "two components of one container are drawn in the container's diagram"
    );
    let toml = read(dir.path(), "src/shop/relationships.toml");
    assert_eq!(toml.matches("[[relationships]]").count(), 3, "{toml}");
    let id = first["relationship"]["id"].as_str().unwrap();
    ok(
        &tp,
        "delete_relationship",
        json!({"project_path": p, "system_name": "shop", "relationship_id": id}),
    )
    .await;
    let system = read(dir.path(), "src/shop/system.d2");
    assert!(system.starts_with(hand_written.trim_end()), "{system}");
    assert!(!system.contains("worker -> auth"), "{system}");
    assert!(system.contains("orders <-> mailer"), "{system}");
    // Every D2 file the tools wrote still passes d2.
    for file in ["src/shop/system.d2", "src/shop/api/container.d2"] {
        let checked = ok(
            &tp,
            "validate_diagram",
            json!({"d2_source": read(dir.path(), file)}),
        )
        .await;
        assert_eq!(checked["syntax_valid"], true, "{file}: {checked}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_diagram_that_cannot_be_written_is_reported_and_the_edge_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().to_str().unwrap();
    let tp = toolpack();
    shop(&tp, p).await;
    std::fs::remove_file(dir.path().join("src/shop/system.d2")).unwrap();
    std::fs::create_dir(dir.path().join("src/shop/system.d2")).unwrap();
    let body = ok(&tp, "create_relationship", json!({"project_path": p, "system_name": "shop", "source": "shop/worker", "target": "shop/api", "label": "calls"})).await;
    assert_eq!(body["created"], true);
    assert_eq!(body["diagram_updated"], false, "{body}");
    assert!(
        body["diagram_error"]
            .as_str()
            .unwrap()
            .contains("system.d2"),
        "{body}"
    );
    let listed = ok(
        &tp,
        "list_relationships",
        json!({"project_path": p, "system_name": "shop"}),
    )
    .await;
    assert_eq!(listed["count"], 1, "the relationship itself is saved");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rewrite_keeps_unknown_keys_and_entries_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().to_str().unwrap();
    let tp = toolpack();
    shop(&tp, p).await;
    let file = dir.path().join("src/shop/relationships.toml");
    std::fs::write(&file, "owner = \"platform team\"\n\n[[relationships]]\nsource = \"shop/api/orders\"\ntarget = \"shop/api/auth\"\nlabel = \"checks\"\nweight = 3\n").unwrap();
    ok(&tp, "create_relationship", json!({"project_path": p, "system_name": "shop", "source": "shop/api/cart", "target": "shop/api/auth", "label": "checks too"})).await;
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with("owner = \"platform team\""), "{text}");
    assert!(text.contains("weight = 3"), "{text}");
    assert_eq!(
        text.matches("id = ").count(),
        1,
        "the id-less entry stays id-less: {text}"
    );
    let listed = ok(
        &tp,
        "list_relationships",
        json!({"project_path": p, "system_name": "shop"}),
    )
    .await;
    assert_eq!(listed["count"], 2);
    // The id-less entry is known by loko's id, and can be deleted by it.
    let id = listed["relationships"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    ok(
        &tp,
        "delete_relationship",
        json!({"project_path": p, "system_name": "shop", "relationship_id": id}),
    )
    .await;
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(!text.contains("weight") && text.contains("owner"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_concurrent_creates_lose_no_relationship() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().to_str().unwrap().to_owned();
    let tp = toolpack();
    shop(&tp, &p).await;
    let calls = (0..20).map(|i| {
        let (tp, p) = (tp.clone(), p.clone());
        tokio::spawn(async move {
            ok(&tp, "create_relationship", json!({"project_path": p, "system_name": "shop", "source": "shop/api/orders", "target": "shop/worker/mailer", "label": format!("call {i}")})).await
        })
    });
    for call in calls.collect::<Vec<_>>() {
        call.await.unwrap();
    }
    let listed = ok(
        &tp,
        "list_relationships",
        json!({"project_path": p, "system_name": "shop"}),
    )
    .await;
    assert_eq!(listed["count"], 20, "{listed}");
    let system = read(dir.path(), "src/shop/system.d2");
    assert_eq!(system.matches("orders -> mailer").count(), 20, "{system}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn updates_keep_the_body_and_every_other_key_and_the_graph_still_reads() {
    let dir = v03_graph();
    let p = dir.path().to_str().unwrap();
    let tp = toolpack();
    let file = "src/shop/api/cart/component.md";
    let before = read(dir.path(), file);
    let body = ok(&tp, "update_component", json!({"project_path": p, "system_name": "shop", "container_name": "api", "component_name": "cart", "tags": ["core", "baskets"], "technology": "Go 1.23"})).await;
    assert_eq!(body["changed"], json!(["technology", "tags"]));
    let after = read(dir.path(), file);
    assert_eq!(
        after,
        before
            .replace("technology: \"Go\"", "technology: \"Go 1.23\"")
            .replace("  - \"core\"\n", "  - \"core\"\n  - \"baskets\"\n"),
        "only the changed keys differ"
    );
    let found = ok(&tp, "find_relationships", json!({"project_path": p, "source_pattern": "shop/api/cart", "target_pattern": "shop/api/auth"})).await;
    assert_eq!(
        found["total_matched"], 1,
        "the frontmatter relationship is still read: {found}"
    );
    let validated = ok(&tp, "validate", json!({"project_path": p})).await;
    let errors = validated["validation"]["errors"].as_array().unwrap();
    assert_eq!(
        errors.len(),
        1,
        "the fixture's cycle, nothing new: {validated}"
    );
    assert_eq!(errors[0]["code"], "circular_dependency");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn component_pages_list_relationships_both_ways() {
    let dir = v03_graph();
    let p = dir.path().to_str().unwrap();
    let tp = toolpack();
    ok(
        &tp,
        "build_docs",
        json!({"project_path": p, "format": "html"}),
    )
    .await;
    let page = read(dir.path(), "dist/components/shop_api_auth.html");
    let used_by = page
        .split("<h2>Used by</h2>")
        .nth(1)
        .expect("a Used by section");
    for source in ["Cart", "Orders", "Mailer", "Scheduler"] {
        assert!(
            used_by.contains(&format!(">{source}</a>")),
            "{source} in {used_by}"
        );
    }
    assert!(page.contains("stores users in"), "its own edge: {page}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_edits_the_remembered_project_is_what_a_fresh_read_sees() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().to_str().unwrap();
    let tp = toolpack();
    shop(&tp, p).await;
    let reads = [
        ("query_project", json!({"project_path": p})),
        (
            "query_architecture",
            json!({"project_path": p, "system_name": "shop", "detail": "full"}),
        ),
        (
            "find_relationships",
            json!({"project_path": p, "source_pattern": "*"}),
        ),
        ("analyze_coupling", json!({"project_path": p})),
        ("validate", json!({"project_path": p})),
    ];
    // Read once, so the project is remembered; then edit it through the tools.
    for (tool, arguments) in &reads {
        ok(&tp, tool, arguments.clone()).await;
    }
    ok(&tp, "create_relationship", json!({"project_path": p, "system_name": "shop", "source": "shop/api/orders", "target": "shop/api/cart", "label": "reads"})).await;
    ok(&tp, "create_relationship", json!({"project_path": p, "system_name": "shop", "source": "shop/worker", "target": "auth", "label": "checks"})).await;
    ok(&tp, "update_component", json!({"project_path": p, "system_name": "shop", "container_name": "api", "component_name": "cart", "description": "Baskets", "tags": ["core"]})).await;
    ok(
        &tp,
        "update_system",
        json!({"project_path": p, "system_name": "shop", "framework": "Axum"}),
    )
    .await;
    for (tool, arguments) in &reads {
        let remembered = ok(&tp, tool, arguments.clone()).await;
        let fresh = ok(&toolpack(), tool, arguments.clone()).await;
        assert_eq!(remembered, fresh, "{tool}");
    }
}
