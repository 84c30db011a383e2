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
    // Its own build directory, where every `toolpack*` build is one of the packaged crates'.
    let verify = sh.current_dir().join("target/package/verify");
    forget_packaged_sources()?;
    forget_packaged_builds(&verify)?;
    cmd!(sh, "cargo package --locked -p toolpack -p toolpack-mcp")
        .env("CARGO_TARGET_DIR", &verify)
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

/// `cargo package` builds `toolpack-mcp` against the packaged `toolpack` through a local
/// registry, whose sources cargo extracts into `$CARGO_HOME/registry/src/-<hash>/` (a hash
/// of the registry's path) and never extracts again. On a machine that packaged this
/// version from the same path before, the server would be built against that stale core:
/// this version's extractions of our crates are removed first. Only local registries'
/// directories (their names start with `-`) are touched.
fn forget_packaged_sources() -> Result<()> {
    let home = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")));
    let Some(sources) = home.map(|h| h.join("registry/src")) else {
        return Ok(());
    };
    let Ok(registries) = std::fs::read_dir(&sources) else {
        return Ok(());
    };
    for registry in registries.flatten() {
        if !registry.file_name().to_string_lossy().starts_with('-') {
            continue;
        }
        for name in ["toolpack", "toolpack-mcp"] {
            let extracted = registry.path().join(format!("{name}-{VERSION}"));
            if extracted.is_dir() {
                std::fs::remove_dir_all(&extracted)?;
            }
        }
    }
    Ok(())
}

/// The verification builds `toolpack-mcp` against the packaged core as a registry crate,
/// which cargo never rebuilds for the same version: an earlier packaging's builds of our
/// crates in the verification's build directory `verify` are removed first (the
/// dependencies' builds stay).
fn forget_packaged_builds(verify: &Path) -> Result<()> {
    let build = verify.join("debug");
    for dir in ["deps", ".fingerprint"] {
        let Ok(entries) = std::fs::read_dir(build.join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !(name.starts_with("toolpack") || name.starts_with("libtoolpack")) {
                continue;
            }
            if entry.path().is_dir() {
                std::fs::remove_dir_all(entry.path())?;
            } else {
                std::fs::remove_file(entry.path())?;
            }
        }
    }
    Ok(())
}
