//! `build_docs` speed on a generated 200-diagram project (2 systems × 9 containers × 10
//! components, one diagram each, plus the landscape): a cold build (cache and output
//! removed) in diagrams per second, beside rendering the same diagrams with one d2
//! process at a time, interleaved in the same run; then a no-change incremental rebuild
//! and a rebuild after one changed diagram.
//! Run: `cargo bench -p toolpack --bench build_docs` (d2 on PATH or D2_BIN). The layout
//! is `LOKO_BENCH_LAYOUT` (default `dagre`), theme 0 (neutral-default).
#![allow(
    clippy::disallowed_methods,
    reason = "a test or bench, not a server's async path: blocking file and process work is fine here"
)]

mod support;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;

use serde_json::json;
use toolpack::{Config, Toolpack};
use toolpack_testkit::loko_project::{Shape, generate};

fn main() {
    let full = support::rounds() == support::ROUNDS;
    let (cold_rounds, warm_rounds) = if full { (3, 30) } else { (1, 2) };
    let layout = std::env::var("LOKO_BENCH_LAYOUT").unwrap_or_else(|_| "dagre".to_owned());
    let runtime = support::runtime();
    let dir = tempfile::tempdir().unwrap();
    let shape = Shape {
        systems: 2,
        containers: 9,
        components: 10,
    };
    generate(dir.path(), shape).unwrap();
    let settings = dir.path().join("loko.toml");
    let text = std::fs::read_to_string(&settings)
        .unwrap()
        .replace("layout = \"elk\"", &format!("layout = \"{layout}\""));
    std::fs::write(&settings, text).unwrap();
    let p = dir.path().to_str().unwrap().to_owned();
    let config = Config::builder().build();
    let toolpack = Toolpack::new(config.clone()).unwrap();
    let d2 = std::env::var_os("D2_BIN").unwrap_or_else(|| "d2".into());
    let sources: Vec<String> = walk_d2(&dir.path().join("src"));
    assert_eq!(sources.len(), shape.diagrams());
    let build = |incremental: bool| {
        let started = Instant::now();
        let result = runtime
            .block_on(toolpack.call_json(
                "build_docs",
                json!({"project_path": p, "format": "html", "incremental": incremental}),
            ))
            .unwrap();
        assert!(!result.is_error(), "{}", result.body);
        (started.elapsed().as_secs_f64(), result.body)
    };

    let (mut sequential, mut parallel) = (Vec::new(), Vec::new());
    for _ in 0..cold_rounds {
        let started = Instant::now();
        for source in &sources {
            render_with_d2(&d2, source, &layout);
        }
        sequential.push(sources.len() as f64 / started.elapsed().as_secs_f64());
        let _ = std::fs::remove_dir_all(dir.path().join(".loko/cache"));
        let _ = std::fs::remove_dir_all(dir.path().join("dist"));
        let (seconds, body) = build(true);
        assert_eq!(body["build"]["cache_hits"], 0, "{body}");
        parallel.push(body["build"]["diagrams_rendered"].as_f64().unwrap() / seconds);
    }
    let (seq, par) = (support::median(sequential), support::median(parallel));
    println!(
        "cold build, {} diagrams ({layout}, theme 0), {cold_rounds} interleaved rounds: {par:.1} diagrams/s; one d2 at a time {seq:.1} diagrams/s; ratio {:.2}x on {} cores",
        shape.diagrams() + 1,
        par / seq,
        std::thread::available_parallelism().map_or(2, |n| n.get())
    );

    let mut unchanged = Vec::new();
    for _ in 0..warm_rounds {
        let (seconds, body) = build(true);
        assert_eq!(body["build"]["diagrams_rendered"], 0, "{body}");
        assert_eq!(body["build"]["files_generated"], 0, "{body}");
        unchanged.push(seconds * 1e3);
    }
    println!(
        "no-change incremental rebuild: median {:.1} ms over {warm_rounds} builds (0 renders, 0 files written)",
        support::median(unchanged)
    );

    let mut one = Vec::new();
    let changed = dir
        .path()
        .join("src/system-0/container-0/component-0/component.d2");
    for round in 0..warm_rounds.min(10) {
        std::fs::write(&changed, format!("component-0: \"changed {round}\"\n")).unwrap();
        let (seconds, body) = build(true);
        assert_eq!(body["build"]["diagrams_rendered"], 1, "{body}");
        one.push(seconds * 1e3);
    }
    println!(
        "rebuild after one changed diagram: median {:.1} ms (1 render)",
        support::median(one)
    );
}

fn walk_d2(dir: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk_d2(&path));
        } else if path.extension().is_some_and(|e| e == "d2") {
            out.push(std::fs::read_to_string(path).unwrap());
        }
    }
    out
}

/// One `d2` process rendering `source` to SVG, as `build_docs` runs it (theme 0, no
/// bundled icons), waited for.
fn render_with_d2(d2: &std::ffi::OsStr, source: &str, layout: &str) {
    let mut child = Command::new(d2)
        .args([
            "--layout",
            layout,
            "--theme",
            "0",
            "--bundle=false",
            "-",
            "-",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("d2 runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(source.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success() && !output.stdout.is_empty());
}
