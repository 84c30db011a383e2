//! `build_docs` on real projects with the real d2 (and Chromium, pdfinfo and pdftotext
//! for the PDF, as `./scripts/test-all` installs them): an incremental build after one
//! changed diagram renders exactly one and rewrites only what changed, progress has one
//! step per diagram and page, two builds at once never interleave, and the PDF has a
//! page or more per system.
#![allow(
    clippy::disallowed_methods,
    reason = "a test or bench, not a server's async path: blocking file and process work is fine here"
)]

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use toolpack::report::{Report, Reporter, with_reporter};
use toolpack::{Config, Toolpack};
use toolpack_testkit::loko_project::{Shape, files, generate};

fn toolpack() -> Toolpack {
    Toolpack::new(Config::builder().build()).unwrap()
}

async fn build(tp: &Toolpack, arguments: Value) -> Value {
    let result = tp.call_json("build_docs", arguments).await.unwrap();
    assert!(!result.is_error(), "{}", result.body);
    result.body
}

#[cfg(unix)]
fn inodes(dir: &Path) -> BTreeMap<String, u64> {
    use std::os::unix::fs::MetadataExt;
    files(dir)
        .into_iter()
        .map(|(rel, path)| (rel, std::fs::metadata(path).unwrap().ino()))
        .collect()
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_changed_diagram_renders_exactly_one_and_rewrites_only_its_pages() {
    let dir = tempfile::tempdir().unwrap();
    generate(
        dir.path(),
        Shape {
            systems: 2,
            containers: 3,
            components: 3,
        },
    )
    .unwrap();
    let p = dir.path().to_str().unwrap();
    let tp = toolpack();
    let first = build(&tp, json!({"project_path": p, "format": "html"})).await;
    assert_eq!(
        first["build"]["diagrams_rendered"],
        2 * (1 + 3 * 4) + 1,
        "{first}"
    );
    let before = inodes(&dir.path().join("dist"));
    let changed = dir
        .path()
        .join("src/system-1/container-2/component-1/component.d2");
    std::fs::write(
        &changed,
        "component-1: \"Component 1, changed\" {shape: hexagon}\n",
    )
    .unwrap();
    let second = build(&tp, json!({"project_path": p, "format": "html"})).await;
    assert_eq!(second["build"]["diagrams_rendered"], 1, "{second}");
    assert_eq!(second["build"]["cache_hits"], 2 * (1 + 3 * 4), "{second}");
    assert_eq!(
        second["build"]["files_generated"], 1,
        "only the changed SVG: {second}"
    );
    let after = inodes(&dir.path().join("dist"));
    let rewritten: Vec<&String> = after
        .iter()
        .filter(|(k, ino)| before.get(*k) != Some(ino))
        .map(|(k, _)| k)
        .collect();
    assert_eq!(
        rewritten,
        [
            ".loko-build.json",
            "diagrams/system-1_container-2_component-1.svg"
        ],
        "everything else is the same file"
    );
    let third = build(&tp, json!({"project_path": p, "format": "html"})).await;
    assert_eq!(
        (
            third["build"]["diagrams_rendered"].as_u64(),
            third["build"]["files_generated"].as_u64()
        ),
        (Some(0), Some(0))
    );
}

#[derive(Default)]
struct Collect(Mutex<Vec<(f64, Option<f64>)>>);

impl Reporter for Collect {
    fn report(&self, report: Report) {
        if let Report::Progress { done, total, .. } = report {
            self.0.lock().unwrap().push((done, total));
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_has_one_step_per_diagram_and_page() {
    let dir = tempfile::tempdir().unwrap();
    let shape = Shape {
        systems: 1,
        containers: 2,
        components: 2,
    };
    generate(dir.path(), shape).unwrap();
    let p = dir.path().to_str().unwrap();
    let collect = Arc::new(Collect::default());
    let body = with_reporter(
        collect.clone(),
        build(&toolpack(), json!({"project_path": p, "format": "html"})),
    )
    .await;
    let steps = collect.0.lock().unwrap().clone();
    let diagrams = shape.diagrams() + 1;
    let pages = shape.entities() + 1;
    assert_eq!(body["build"]["diagrams_rendered"], diagrams);
    assert_eq!(steps.len(), diagrams + pages, "{steps:?}");
    let total = (diagrams + pages) as f64;
    assert!(steps.iter().all(|(_, t)| *t == Some(total)), "{steps:?}");
    assert!(
        steps.windows(2).all(|w| w[0].0 < w[1].0),
        "progress only grows: {steps:?}"
    );
    assert_eq!(steps.last().unwrap().0, total);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_builds_at_once_never_interleave() {
    let dir = tempfile::tempdir().unwrap();
    generate(
        dir.path(),
        Shape {
            systems: 1,
            containers: 3,
            components: 3,
        },
    )
    .unwrap();
    let p = dir.path().to_str().unwrap().to_owned();
    let (a, b) = (toolpack(), toolpack());
    let args = json!({"project_path": p, "format": "html", "incremental": false});
    let (one, two) = tokio::join!(build(&a, args.clone()), build(&b, args));
    for body in [&one, &two] {
        assert_eq!(body["success"], true);
    }
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("dist/.loko-build.json")).unwrap())
            .unwrap();
    for (file, _) in manifest["files"].as_object().unwrap() {
        assert!(dir.path().join("dist").join(file).is_file(), "{file}");
    }
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .filter(|n| n.to_string_lossy().starts_with(".dist."))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pdf_has_a_page_or_more_per_system() {
    let dir = tempfile::tempdir().unwrap();
    generate(
        dir.path(),
        Shape {
            systems: 3,
            containers: 1,
            components: 1,
        },
    )
    .unwrap();
    let p = dir.path().to_str().unwrap();
    let body = build(&toolpack(), json!({"project_path": p, "format": "pdf"})).await;
    assert_eq!(
        body["message"], "Build complete: PDF generated",
        "Chromium must be installed (test-all installs Debian's chromium): {body}"
    );
    let pdf = dir.path().join("dist/architecture.pdf");
    let info = std::process::Command::new("pdfinfo")
        .arg(&pdf)
        .output()
        .expect("pdfinfo (poppler-utils)");
    let info = String::from_utf8_lossy(&info.stdout);
    let pages: usize = info
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(pages > 3, "a title page and one per system: {info}");
    let mut first_pages = Vec::new();
    for page in 1..=pages {
        let text = std::process::Command::new("pdftotext")
            .args(["-f", &page.to_string(), "-l", &page.to_string(), "-layout"])
            .arg(&pdf)
            .arg("-")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&text.stdout).into_owned();
        for s in 0..3 {
            if text.trim_start().starts_with(&format!("System {s}")) {
                first_pages.push((s, page));
            }
        }
    }
    let systems: Vec<usize> = first_pages.iter().map(|(s, _)| *s).collect();
    assert_eq!(
        systems,
        [0, 1, 2],
        "each system starts its own page: {first_pages:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_link_of_the_markdown_output_leads_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    generate(
        dir.path(),
        Shape {
            systems: 2,
            containers: 2,
            components: 2,
        },
    )
    .unwrap();
    let p = dir.path().to_str().unwrap();
    let body = build(
        &toolpack(),
        json!({"project_path": p, "format": "markdown"}),
    )
    .await;
    assert_eq!(body["message"], "Build complete: Markdown generated");
    let markdown = dir.path().join("dist/markdown");
    let mut links = 0;
    for (name, path) in files(&markdown) {
        let text = std::fs::read_to_string(&path).unwrap();
        for target in text
            .split("](")
            .skip(1)
            .filter_map(|rest| rest.split(')').next())
        {
            assert!(
                markdown.join(target).is_file(),
                "{name} links to {target}, which is missing"
            );
            links += 1;
        }
    }
    // The index links every entity; each document links its parents, children and diagram.
    assert!(links > 3 * 2 * (1 + 2 * 3), "{links} links");
}
