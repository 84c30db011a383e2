//! loko projects on disk: a project built from nothing through the tools only, 20
//! concurrent creates on one project, path-traversal and symlink attempts, and
//! hand-written files surviving every tool byte for byte. Needs the real `d2` on PATH
//! (or `D2_BIN`), as `./scripts/test-all` provides.
#![allow(
    clippy::disallowed_methods,
    reason = "a test or bench, not a server's async path: blocking file and process work is fine here"
)]

use std::path::Path;

use serde_json::{Value, json};
use toolpack::{Config, Toolpack};
use toolpack_testkit::loko_project::{copy_dir, snapshot};

fn toolpack() -> Toolpack {
    Toolpack::new(Config::builder().build()).unwrap()
}

async fn call(toolpack: &Toolpack, tool: &str, arguments: Value) -> (bool, Value) {
    let result = toolpack.call_json(tool, arguments).await.unwrap();
    (result.is_error(), result.body)
}

/// Every file under `dir` but the tools' caches (`.loko/cache/`, the d2 syntax answers
/// `validate` remembers): what a person wrote.
fn hand_written(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut files = snapshot(dir);
    files.retain(|path, _| !path.starts_with(".loko/cache/"));
    files
}

fn example() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/loko/shop")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_project_built_from_nothing_through_the_tools_validates_and_renders() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().to_str().unwrap();
    let tp = toolpack();
    let steps = [
        (
            "create_system",
            json!({"project_path": p, "system_name": "Payment Service", "description": "Takes payments"}),
        ),
        (
            "create_container",
            json!({"project_path": p, "system_name": "payment-service", "container_name": "API", "description": "REST API", "technology": "Go"}),
        ),
        (
            "create_container",
            json!({"project_path": p, "system_name": "Payment Service", "container_name": "Ledger DB", "description": "Balances", "type": "Database"}),
        ),
        (
            "create_component",
            json!({"project_path": p, "system_name": "payment-service", "container_name": "api", "component_name": "Charge Handler", "description": "Charges cards"}),
        ),
        (
            "update_diagram",
            json!({"project_path": p, "scope": "system", "target": "payment-service", "d2_code": "api: \"API\"\nledger-db: \"Ledger DB\" {shape: cylinder}\napi -> ledger-db: \"writes\"\n"}),
        ),
    ];
    for (tool, arguments) in steps {
        let (failed, body) = call(&tp, tool, arguments).await;
        assert!(!failed, "{tool}: {body}");
    }
    let (_, report) = call(&tp, "validate", json!({"project_path": p})).await;
    assert_eq!(report["validation"]["errors"], json!([]), "{report}");
    assert_eq!(report["success"], true);
    // Every scaffolded diagram passed the real d2 (no D2_SYNTAX_ERROR above), and the
    // rendered SVG is an SVG.
    let svg =
        std::fs::read_to_string(dir.path().join("dist/diagrams/payment-service.svg")).unwrap();
    assert!(svg.contains("<svg"), "{}", &svg[..100.min(svg.len())]);
    let (_, summary) = call(&tp, "query_project", json!({"project_path": p})).await;
    assert_eq!(summary["system_count"], 1);
    assert_eq!(summary["total_containers"], 2);
    assert_eq!(summary["total_components"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_concurrent_creates_lose_nothing_and_never_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().to_str().unwrap().to_owned();
    let tp = toolpack();
    let (failed, body) = call(
        &tp,
        "create_system",
        json!({"project_path": p, "system_name": "Shop"}),
    )
    .await;
    assert!(!failed, "{body}");
    let mut tasks = Vec::new();
    for i in 0..20 {
        let (tp, p) = (tp.clone(), p.clone());
        // Ten distinct containers, each asked for twice at once.
        tasks.push(tokio::spawn(async move {
            call(&tp, "create_container", json!({"project_path": p, "system_name": "shop", "container_name": format!("Service {}", i % 10), "description": format!("caller {i}")})).await
        }));
    }
    let mut created = 0;
    for task in tasks {
        let (failed, body) = task.await.unwrap();
        if failed {
            assert_eq!(body["error"]["code"], "ALREADY_EXISTS", "{body}");
        } else {
            created += 1;
        }
    }
    assert_eq!(created, 10, "each name is created exactly once");
    let (_, summary) = call(
        &tp,
        "query_architecture",
        json!({"project_path": p, "scope": "system", "target": "shop"}),
    )
    .await;
    assert_eq!(summary["containers"], 10, "{summary}");
    for i in 0..10 {
        let md = std::fs::read_to_string(
            dir.path()
                .join(format!("src/shop/service-{i}/container.md")),
        )
        .unwrap();
        assert!(
            md.contains("description: \"caller "),
            "one caller's whole file: {md}"
        );
    }
    let leftovers: Vec<_> = snapshot(dir.path())
        .into_keys()
        .filter(|k| k.contains(".tmp-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[tokio::test]
async fn hand_written_files_survive_every_tool_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&example(), dir.path()).unwrap();
    let before = hand_written(dir.path());
    let p = dir.path().to_str().unwrap();
    let tp = toolpack();
    for (tool, arguments) in [
        ("query_project", json!({"project_path": p})),
        (
            "query_architecture",
            json!({"project_path": p, "scope": "system", "target": "online-shop", "detail": "full", "format": "toon"}),
        ),
        ("validate", json!({"project_path": p, "strict": true})),
        (
            "create_system",
            json!({"project_path": p, "system_name": "Online Shop"}),
        ),
        (
            "create_container",
            json!({"project_path": p, "system_name": "online-shop", "container_name": "API"}),
        ),
        (
            "create_component",
            json!({"project_path": p, "system_name": "online-shop", "container_name": "api", "component_name": "Order Handler"}),
        ),
        (
            "update_diagram",
            json!({"project_path": p, "scope": "system", "target": "payments", "d2_code": "a: {"}),
        ),
    ] {
        call(&tp, tool, arguments).await;
    }
    assert_eq!(hand_written(dir.path()), before, "nothing changed");
    let (failed, _) = call(
        &tp,
        "create_container",
        json!({"project_path": p, "system_name": "payments", "container_name": "Ledger"}),
    )
    .await;
    assert!(!failed);
    let after = hand_written(dir.path());
    for (file, bytes) in &before {
        assert_eq!(after.get(file), Some(bytes), "{file} is untouched");
    }
    let (failed, body) = call(&tp, "update_diagram", json!({"project_path": p, "scope": "system", "target": "payments", "d2_code": "gateway -> bank\n"})).await;
    assert!(!failed, "{body}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/payments/payments.d2")).unwrap(),
        "gateway -> bank\n",
        "the diagram named after its directory is the one replaced"
    );
    assert_eq!(
        after["src/payments/system.md"],
        std::fs::read(dir.path().join("src/payments/system.md")).unwrap()
    );
}

#[cfg(unix)]
#[tokio::test]
async fn traversal_and_symlinks_out_of_the_project_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let p = dir.path().to_str().unwrap();
    let tp = toolpack();
    call(
        &tp,
        "create_system",
        json!({"project_path": p, "system_name": "Shop"}),
    )
    .await;
    // A system directory that is a symlink to somewhere else.
    std::fs::create_dir_all(outside.path().join("evil")).unwrap();
    std::fs::write(
        outside.path().join("evil/system.md"),
        "---\nname: Evil\n---\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(outside.path().join("evil"), dir.path().join("src/evil")).unwrap();
    let (_, report) = call(&tp, "validate", json!({"project_path": p})).await;
    let codes: Vec<&str> = report["validation"]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"PATH_OUTSIDE_PROJECT"), "{report}");
    let (failed, body) = call(
        &tp,
        "create_container",
        json!({"project_path": p, "system_name": "evil", "container_name": "X"}),
    )
    .await;
    assert!(failed);
    assert_eq!(
        body["error"]["code"], "NOT_FOUND",
        "the symlinked system is not an entity: {body}"
    );
    assert!(!outside.path().join("evil/x").exists());
    // A source directory configured outside the project.
    std::fs::write(
        dir.path().join("loko.toml"),
        format!("[paths]\nsource = \"{}\"\n", outside.path().display()),
    )
    .unwrap();
    let (failed, body) = call(&tp, "query_project", json!({"project_path": p})).await;
    assert!(failed);
    assert_eq!(body["error"]["code"], "PERMISSION_DENIED", "{body}");
    std::fs::write(
        dir.path().join("loko.toml"),
        "[paths]\nsource = \"../../..\"\n",
    )
    .unwrap();
    let (_, body) = call(
        &tp,
        "create_system",
        json!({"project_path": p, "system_name": "Y"}),
    )
    .await;
    assert_eq!(body["error"]["code"], "PERMISSION_DENIED", "{body}");
    // Names can never climb: they are slugs.
    std::fs::write(dir.path().join("loko.toml"), "").unwrap();
    let (failed, body) = call(
        &tp,
        "create_system",
        json!({"project_path": p, "system_name": "../../escape"}),
    )
    .await;
    assert!(!failed, "{body}");
    assert_eq!(body["system"]["path"], "src/escape");
}
