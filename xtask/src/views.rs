//! `cargo xtask views [--check]`: the MCP Apps views' parts in `core/data/views/`, built
//! from `views/` (esbuild over the views' code and the MCP Apps SDK, pinned by
//! `views/package-lock.json`), or checked against what it builds. `views_test` runs the
//! views in Chromium (`views/test/views.test.mjs`), in the browser suite.

use anyhow::Result;
use xshell::{Shell, cmd};

use crate::shell::section;

/// Installs `views/`'s pinned packages when they are missing or stale.
fn install(sh: &Shell) -> Result<()> {
    let _dir = sh.push_dir("views");
    let lock = sh.read_file("package-lock.json")?;
    let installed = sh
        .read_file("node_modules/.package-lock.json")
        .unwrap_or_default();
    // npm writes node_modules/.package-lock.json as the lock's packages; the same
    // packages section means the same install.
    let packages = |text: &str| {
        text.split_once("\"packages\"")
            .map(|(_, rest)| rest.to_owned())
    };
    if packages(&lock) != packages(&installed) || packages(&lock).is_none() {
        cmd!(sh, "npm ci --silent --no-audit --no-fund").run()?;
    }
    Ok(())
}

/// Builds the views' parts into `core/data/views/`, or with `check` fails when they differ.
pub fn run(sh: &Shell, check: bool) -> Result<()> {
    section(if check {
        "views: core/data/views/ is what views/ builds (cargo xtask views --check)"
    } else {
        "views: core/data/views/ from views/ (esbuild, the MCP Apps SDK)"
    });
    install(sh)?;
    let _dir = sh.push_dir("views");
    let flag = check.then_some("--check");
    // The views are the catalog's: build.mjs keeps no list of its own.
    let views: Vec<&str> = toolpack::views::all().iter().map(|v| v.name).collect();
    cmd!(sh, "node build.mjs {flag...} {views...}").run()?;
    Ok(())
}

/// The views in headless Chromium against the real `toolpack-mcp` (built by the caller).
pub fn test(sh: &Shell) -> Result<()> {
    section("browser: the MCP Apps views in Chromium, hosted by the SDK's AppBridge (views/test)");
    install(sh)?;
    let root = sh.current_dir();
    let _env = [
        sh.push_env("TOOLPACK_TESTS_DIR", root.join("tests")),
        sh.push_env(
            "TOOLPACK_FAKE_UPSTREAM_BIN",
            root.join("target/debug/fake-upstream"),
        ),
    ];
    crate::shell::tail(
        cmd!(
            sh,
            "node --test --test-reporter=spec views/test/views.test.mjs"
        ),
        14,
    )
}
