//! A `build_docs` killed midway (the real process, SIGKILL) leaves the previous site
//! intact, and the next build finishes and cleans up after it.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use toolpack_testkit::loko_project::{Shape, generate, snapshot};

const BIN: &str = env!("CARGO_BIN_EXE_toolpack-mcp");

fn build(project: &Path) -> Command {
    let mut cmd = Command::new(BIN);
    let arguments =
        serde_json::json!({"project_path": project, "format": "html", "incremental": false});
    cmd.args(["call", "build_docs", &arguments.to_string()]);
    cmd
}

#[cfg(unix)]
#[test]
fn a_build_killed_midway_leaves_the_previous_site_intact() {
    let dir = tempfile::tempdir().unwrap();
    generate(
        dir.path(),
        Shape {
            systems: 1,
            containers: 4,
            components: 4,
        },
    )
    .unwrap();
    let first = build(dir.path()).output().unwrap();
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stdout)
    );
    let before = snapshot(&dir.path().join("dist"));
    assert!(before.contains_key("index.html"));
    // Change every diagram so the next build has to render them all, then kill it.
    for (file, _) in snapshot(&dir.path().join("src"))
        .iter()
        .filter(|(f, _)| f.ends_with(".d2"))
    {
        let path = dir.path().join("src").join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, format!("{text}\nextra: \"changed\"\n")).unwrap();
    }
    let mut child = build(dir.path()).spawn().unwrap();
    std::thread::sleep(Duration::from_millis(1200));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the build must still be running when it is killed"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(
        snapshot(&dir.path().join("dist")),
        before,
        "the previous site is byte for byte intact"
    );
    let again = build(dir.path()).output().unwrap();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stdout)
    );
    let after = snapshot(&dir.path().join("dist"));
    assert_ne!(after, before, "the new build replaced the site");
    let leftovers: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".dist."))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}
