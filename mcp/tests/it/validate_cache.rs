//! `validate` remembers d2's syntax answers across processes: on a 200-diagram project, a
//! second `toolpack-mcp call validate` in a new process runs no `d2 validate` at all, and
//! after one diagram changes, exactly one. d2 is the real one, behind a wrapper script that
//! counts its runs.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use serde_json::Value;
use toolpack_testkit::loko_project::{Shape, generate};

/// Where `d2` is on `PATH` (the test command puts the real one there).
fn real_d2() -> String {
    let found = Command::new("sh")
        .args(["-c", "command -v d2"])
        .output()
        .expect("sh runs");
    let path = String::from_utf8(found.stdout).unwrap().trim().to_owned();
    assert!(!path.is_empty(), "the loko tests need the real d2 on PATH");
    path
}

/// A `d2` that appends its first argument to `log`, then runs the real one.
fn counting_d2(dir: &Path, log: &Path) -> std::path::PathBuf {
    let script = dir.join("d2");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho \"$1\" >> '{}'\nexec '{}' \"$@\"\n",
            log.display(),
            real_d2()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// Runs `validate` on `project` in a new process; the d2 validations it ran, and its
/// answer.
fn validate_in_new_process(project: &Path, d2: &Path, log: &Path) -> (usize, Value) {
    let _ = std::fs::remove_file(log);
    let output = Command::new(env!("CARGO_BIN_EXE_toolpack-mcp"))
        .args(["call", "validate"])
        .arg(serde_json::json!({"project_path": project}).to_string())
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("D2_BIN", d2)
        .output()
        .unwrap();
    let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
    let runs = std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter(|l| *l == "validate")
        .count();
    (runs, answer)
}

#[test]
fn a_new_process_reuses_the_d2_answers_of_the_last_one() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    let shape = Shape {
        systems: 2,
        containers: 9,
        components: 10,
    };
    assert_eq!(shape.diagrams(), 200);
    generate(&project, shape).unwrap();
    let log = dir.path().join("d2-runs.log");
    let d2 = counting_d2(dir.path(), &log);

    let (first, answer) = validate_in_new_process(&project, &d2, &log);
    assert_eq!(first, 200, "the first validate checks every diagram");
    assert_eq!(answer["success"], true, "{answer}");
    let (second, again) = validate_in_new_process(&project, &d2, &log);
    assert_eq!(
        second, 0,
        "an unchanged project runs no d2 in a new process"
    );
    assert_eq!(again, answer);

    let diagram = walk(&project)
        .into_iter()
        .find(|p| p.extension().is_some_and(|e| e == "d2"))
        .unwrap();
    let mut source = std::fs::read_to_string(&diagram).unwrap();
    source.push_str("\nnew_node: \"Added\"\n");
    std::fs::write(&diagram, source).unwrap();
    let (third, _) = validate_in_new_process(&project, &d2, &log);
    assert_eq!(third, 1, "one changed diagram runs exactly one d2 validate");

    // A syntax error is remembered too, and reported the same from the cache.
    std::fs::write(&diagram, "a -> {\n").unwrap();
    let (runs, broken) = validate_in_new_process(&project, &d2, &log);
    let (cached_runs, cached) = validate_in_new_process(&project, &d2, &log);
    assert_eq!((runs, cached_runs), (1, 0));
    assert_eq!(broken["success"], false, "{broken}");
    assert_eq!(cached, broken);
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(walk(&path));
        } else {
            found.push(path);
        }
    }
    found.sort();
    found
}
