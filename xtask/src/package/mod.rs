//! `cargo xtask package` (`./scripts/package`): every release artifact in `target/dist/`,
//! and `target/dist/MANIFEST.txt` (each file's size and sha256, the glibc floors).
//!
//! | artifact | built by | checked here |
//! |---|---|---|
//! | `toolpack_agents-*-manylinux_2_28_x86_64.whl`, `toolpack_agents-*.tar.gz` | maturin (zig) | auditwheel tag, typing files inside; the sdist builds |
//! | `toolpack-*.tgz`, `toolpack-linux-x64-gnu-*.tgz` | `npm pack` over the release addon | main tarball under 200 KB |
//! | `toolpack-*.jar` + `.pom` (`dev.toolpack:toolpack`) | Maven over the release library | `linux-x86-64/` library inside |
//! | `toolpack-mcp-*-x86_64-unknown-linux-gnu.tar.gz` + `.sha256` | the release binary | — |
//! | `toolpack_mcp-*-py3-none-manylinux_2_28_x86_64.whl` (PyPI `toolpack-mcp`) | the release binary as the wheel's script | the script and `RECORD` inside |
//! | `toolpack-mcp-*.tgz`, `toolpack-mcp-linux-x64-gnu-*.tgz` (npm `toolpack-mcp`) | `npm pack`: the command, the platform binary | — |
//! | `toolpack-mcp-*-linux-x64.mcpb` + `server.json` | `mcpb pack`; `server.json` with the bundle's sha256 | `mcpb validate` |
//! | `toolpack-*.crate`, `toolpack-mcp-*.crate` | `cargo package`, `cargo publish --dry-run` | the packaged sources check; under 10 MB |
//!
//! The native code is built once, in release, linked by zig against glibc 2.28
//! ([`native`]); `cargo xtask test install` then installs each artifact as a user does.

pub mod bundle;
mod crates;
mod kotlin;
mod manifest;
pub mod mcp;
pub mod native;
pub mod node;
pub mod python;
pub mod server_npm;
pub mod server_wheel;

use std::path::PathBuf;

use anyhow::Result;
use xshell::Shell;

use crate::listing::Listing;
use crate::shell::section;

/// Where the artifacts go.
pub const DIST: &str = "target/dist";
/// The stripped release uniffi library the Kotlin JAR carries, in its own directory.
pub const KOTLIN_JNI: &str = "target/kotlin-jni";
pub use manifest::sha256;

/// Files every archive and package carries beside its payload.
pub const LICENCES: [&str; 2] = ["LICENSE-MIT", "LICENSE-APACHE"];

/// Builds, packages and checks every artifact, then writes the manifest.
pub fn run(sh: &Shell) -> Result<()> {
    let dist = dist(sh)?;
    sh.remove_path(&dist)?;
    sh.create_dir(&dist)?;
    python::wheel(sh)?;
    node::tarballs(sh)?;
    kotlin::jar(sh, &dist)?;
    mcp::archive(sh, &dist)?;
    let listing = Listing::read(sh)?;
    server_wheel::wheel(sh, &listing)?;
    server_npm::tarballs(sh, &listing)?;
    bundle::bundle(sh, &listing)?;
    crates::package(sh, &dist)?;
    let manifest = manifest::write(sh, &dist)?;
    section("package: target/dist/MANIFEST.txt");
    print!("{manifest}");
    Ok(())
}

/// Takes the artifacts a package run in another process left in `target/dist` as this
/// run's: the suites that test them then install those, and build nothing again.
pub fn adopt(sh: &Shell) -> Result<()> {
    let dist = dist(sh)?;
    python::adopt(sh, &dist)?;
    node::adopt(sh, &dist)
}

/// `target/dist` as an absolute path, created when missing.
pub fn dist(sh: &Shell) -> Result<PathBuf> {
    let dist = sh.current_dir().join(DIST);
    sh.create_dir(&dist)?;
    Ok(dist)
}
