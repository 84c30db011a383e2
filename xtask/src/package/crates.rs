//! The crates `toolpack` and `toolpack-mcp`: `cargo package` packages both and builds them
//! from their packaged sources (the core first, then the server against the packaged core),
//! `cargo publish --dry-run` runs the publishing checks; the `.crate` files go into `dist`,
//! each under crates.io's 10 MB limit.

use std::path::Path;

use anyhow::{Result, bail};
use xshell::{Shell, cmd};

use super::VERSION;
use crate::shell::section;

/// crates.io's size limit for one crate.
const LIMIT: u64 = 10 * 1024 * 1024;

/// Packages and verifies both crates; copies them into `dist`.
pub fn package(sh: &Shell, dist: &Path) -> Result<()> {
    section(
        "package: the crates (cargo package: packaged, then built from the package; cargo publish --dry-run)",
    );
    // The verification builds go into the workspace's `target/` (by default each packaged
    // crate gets its own `target/`, and every dependency is compiled again): they reuse the
    // debug dependencies the tests built, ~1.5 minutes instead of ~6 on 2 cores.
    let target = sh.current_dir().join("target");
    cmd!(sh, "cargo package --locked -p toolpack -p toolpack-mcp")
        .env("CARGO_TARGET_DIR", &target)
        .run()?;
    cmd!(
        sh,
        "cargo publish --dry-run --no-verify --locked -p toolpack -p toolpack-mcp"
    )
    .run()?;
    for name in ["toolpack", "toolpack-mcp"] {
        let file = format!("{name}-{VERSION}.crate");
        let size = std::fs::metadata(format!("target/package/{file}"))?.len();
        if size > LIMIT {
            bail!("{file} is {size} bytes, over crates.io's {LIMIT}");
        }
        sh.copy_file(format!("target/package/{file}"), dist.join(&file))?;
        println!("crates: {file} {size} bytes");
    }
    Ok(())
}
