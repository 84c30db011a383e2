//! The crates `toolpack`, `toolpack-postgres` and `toolpack-mcp`: `cargo package` packages
//! them, the packaged sources are checked as a workspace of their own (the server against
//! the packaged core and database crate),
//! and `cargo publish --dry-run` runs the publishing checks; the `.crate` files go into
//! `dist`, each under crates.io's 10 MB limit.
//!
//! Why not `cargo package`'s own verification: it builds both crates and every dependency
//! in debug, in a build directory of its own (~5 minutes on two cores, on the test command's
//! longest path), and builds the server against the core as a registry crate, which cargo
//! never rebuilds for the same version, so a reused machine verified against a stale core.
//! Here the packaged core is a path dependency (rebuilt whenever it changes) and
//! `cargo check` shares the workspace's `target/` with the rust suite's `cargo doc`. What the
//! verification is for still fails: a file the sources need but the package lacks
//! (`include_str!`, a module, data), or a dependency the manifest lost.

use std::path::Path;

use anyhow::{Result, bail};
use xshell::{Shell, cmd};

use crate::shell::section;
use crate::version::VERSION;

/// crates.io's size limit for one crate.
const LIMIT: u64 = 10 * 1024 * 1024;
/// The published crates, each after those it depends on.
const CRATES: [&str; 3] = ["toolpack", "toolpack-postgres", "toolpack-mcp"];

/// Packages and verifies the crates; copies them into `dist`.
pub fn package(sh: &Shell, dist: &Path) -> Result<()> {
    section(
        "package: the crates (cargo package; the packaged sources checked as their own workspace; cargo publish --dry-run)",
    );
    let packaged = sh.current_dir().join("target/package");
    for name in CRATES {
        sh.remove_path(packaged.join(format!("{name}-{VERSION}.crate")))?;
    }
    let selection = CRATES.iter().flat_map(|name| ["-p", name]);
    cmd!(sh, "cargo package --no-verify --locked {selection...}").run()?;
    check_packaged(sh, &packaged)?;
    let selection = CRATES.iter().flat_map(|name| ["-p", name]);
    cmd!(
        sh,
        "cargo publish --dry-run --no-verify --locked {selection...}"
    )
    .run()?;
    for name in CRATES {
        let file = format!("{name}-{VERSION}.crate");
        let size = std::fs::metadata(packaged.join(&file))?.len();
        if size > LIMIT {
            bail!("{file} is {size} bytes, over crates.io's {LIMIT}");
        }
        sh.copy_file(packaged.join(&file), dist.join(&file))?;
        println!("crates: {file} {size} bytes");
    }
    Ok(())
}

/// Unpacks the `.crate` files of `packaged` into `packaged/check/`, beside a manifest that
/// makes them one workspace with the libraries patched in by path, and checks it with every
/// feature (the dependency versions are the workspace's `Cargo.lock`'s). With the
/// workspace's dev profiles too, the dependencies are the ones `cargo doc --all-features`
/// of the same crates checked: only the packaged crates are checked anew.
fn check_packaged(sh: &Shell, packaged: &Path) -> Result<()> {
    let check = packaged.join("check");
    sh.remove_path(&check)?;
    sh.create_dir(&check)?;
    for name in CRATES {
        let file = packaged.join(format!("{name}-{VERSION}.crate"));
        // Extracted files dated now (`-m`): cargo rebuilds whatever a date says is newer.
        cmd!(sh, "tar -xzmf {file} -C {check}").run()?;
    }
    let [core, postgres, server] = CRATES.map(|name| format!("{name}-{VERSION}"));
    sh.write_file(
        check.join("Cargo.toml"),
        format!(
            "# The packaged crates, checked together by `cargo xtask package`.\n\
             [workspace]\nmembers = [\"{core}\", \"{postgres}\", \"{server}\"]\nresolver = \"3\"\n\n\
             [patch.crates-io]\ntoolpack = {{ path = \"{core}\" }}\n\
             toolpack-postgres = {{ path = \"{postgres}\" }}\n\n{}",
            dev_profiles(&sh.read_file("Cargo.toml")?)
        ),
    )?;
    sh.copy_file("Cargo.lock", check.join("Cargo.lock"))?;
    let manifest = check.join("Cargo.toml");
    let target = sh.current_dir().join("target");
    cmd!(
        sh,
        "cargo check --manifest-path {manifest} --workspace --all-features --target-dir {target}"
    )
    .run()?;
    Ok(())
}

/// The `[profile.dev*]` tables of a workspace manifest, as written there.
fn dev_profiles(manifest: &str) -> String {
    let mut kept = String::new();
    let mut keep = false;
    for line in manifest.lines() {
        if line.starts_with('[') {
            keep = line.starts_with("[profile.dev]") || line.starts_with("[profile.dev.");
        }
        if keep {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::dev_profiles;

    #[test]
    fn only_the_dev_profiles_are_kept() {
        let manifest = "[workspace]\nmembers = []\n[profile.dev]\ndebug = 1\n\
                        [profile.dev.package.\"*\"]\ndebug = false\n[profile.release]\nstrip = true\n\
                        [profile.devx]\nx = 1\n";
        assert_eq!(
            dev_profiles(manifest),
            "[profile.dev]\ndebug = 1\n[profile.dev.package.\"*\"]\ndebug = false\n"
        );
    }
}
