//! `cargo xtask lint-probe`: proves that `core/clippy.toml` keeps blocking file work out
//! of the tools. It adds a `std::fs::read` to one tool module of each family, runs clippy
//! on the core, and fails unless clippy refuses each of them; the files are restored
//! whatever happens.

use anyhow::{Result, bail};
use xshell::{Shell, cmd};

use crate::shell::section;

/// A tool module of each family, outside the I/O modules.
const PROBED: &[&str] = &[
    "core/src/loko/tools/query_project.rs",
    "core/src/loko/tools/build_docs/plan.rs",
    "core/src/tfl/station_toilets/mod.rs",
    "core/src/digitransit/geocode/mod.rs",
];

const PROBE: &str = "\n#[allow(dead_code)]\nfn xtask_lint_probe() -> usize {\n    std::fs::read(\"probe\").map_or(0, |b| b.len())\n}\n";

/// The probed files as they were, written back on drop.
struct Restore<'a> {
    sh: &'a Shell,
    originals: Vec<(&'static str, String)>,
}

impl Drop for Restore<'_> {
    fn drop(&mut self) {
        for (path, text) in &self.originals {
            let _ = self.sh.write_file(path, text);
        }
    }
}

/// Runs the probe.
pub fn run(sh: &Shell) -> Result<()> {
    section("rust: clippy refuses blocking file work in a tool module (cargo xtask lint-probe)");
    let mut restore = Restore {
        sh,
        originals: Vec::new(),
    };
    for path in PROBED {
        let text = sh.read_file(path)?;
        sh.write_file(path, format!("{text}{PROBE}"))?;
        restore.originals.push((path, text));
    }
    let output = cmd!(
        sh,
        "cargo clippy -p toolpack --lib --locked --message-format short -- -D warnings"
    )
    .ignore_status()
    .output()?;
    drop(restore);
    let messages = String::from_utf8_lossy(&output.stderr);
    let refused: Vec<&str> = PROBED
        .iter()
        .copied()
        .filter(|path| {
            messages.lines().any(|line| {
                line.starts_with(path) && line.contains("disallowed method `std::fs::read`")
            })
        })
        .collect();
    if output.status.success() || refused.len() != PROBED.len() {
        println!("{messages}");
        bail!(
            "clippy let blocking file work into a tool module: refused {refused:?} of {PROBED:?}"
        );
    }
    println!(
        "lint-probe: clippy refused std::fs::read in each of {} tool modules",
        PROBED.len()
    );
    Ok(())
}
