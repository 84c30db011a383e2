//! The npm server package `toolpack-mcp`, laid out as esbuild and biome ship: the main
//! package holds only the `toolpack-mcp` command (`mcp/npm/toolpack-mcp.js`, which runs the
//! binary) and an optional dependency on the platform package
//! `toolpack-mcp-linux-x64-gnu`, which holds the release binary and installs only where it
//! runs (`os`, `cpu`, `libc`). `npx -y toolpack-mcp` then starts the server.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde_json::{Value, json};
use xshell::Shell;

use super::native::natives;
use crate::listing::{Listing, SERVER};
use crate::shell::{section, temp_dir};
use crate::version::VERSION;

/// The one platform package's name.
pub const PLATFORM_PACKAGE: &str = "toolpack-mcp-linux-x64-gnu";

/// The two tarballs.
pub struct ServerTarballs {
    /// `toolpack-mcp-<version>.tgz`.
    pub main: PathBuf,
    /// `toolpack-mcp-linux-x64-gnu-<version>.tgz`.
    pub platform: PathBuf,
}

/// Packs both tarballs into `target/dist`.
pub fn tarballs(sh: &Shell, listing: &Listing) -> Result<ServerTarballs> {
    let natives = natives(sh)?;
    section("package: the npm server packages (command + platform binary)");
    let dist = super::dist(sh)?;
    let staging = temp_dir(sh, "toolpack-server-npm")?;

    let main = staging.join(SERVER);
    sh.create_dir(main.join("bin"))?;
    sh.copy_file("mcp/npm/toolpack-mcp.js", main.join("bin"))?;
    sh.copy_file("mcp/README.md", &main)?;
    write_manifest(sh, &main, main_manifest(listing))?;

    let platform = staging.join(PLATFORM_PACKAGE);
    sh.create_dir(platform.join("bin"))?;
    sh.copy_file(natives.mcp(), platform.join("bin"))?;
    write_manifest(sh, &platform, platform_manifest(listing))?;

    for dir in [&main, &platform] {
        super::node::pack_with_licences(sh, dir, &dist)?;
    }
    sh.remove_path(&staging)?;
    let tarballs = ServerTarballs {
        main: dist.join(format!("{SERVER}-{VERSION}.tgz")),
        platform: dist.join(format!("{PLATFORM_PACKAGE}-{VERSION}.tgz")),
    };
    for tarball in [&tarballs.main, &tarballs.platform] {
        println!(
            "npm: {} ({} bytes)",
            tarball.file_name().unwrap_or_default().to_string_lossy(),
            std::fs::metadata(tarball)?.len()
        );
    }
    Ok(tarballs)
}

/// The command's package: `bin`, the optional platform package, and `mcpName`, the MCP
/// Registry's proof that the package is the server's.
fn main_manifest(listing: &Listing) -> Value {
    json!({
        "name": SERVER,
        "version": VERSION,
        "description": listing.description,
        "license": "MIT OR Apache-2.0",
        "homepage": listing.homepage,
        "repository": { "type": "git", "url": format!("git+{}.git", listing.repository()) },
        "keywords": ["mcp", "mcp-server", "tfl", "digitransit", "c4"],
        "mcpName": listing.registry_name(),
        "bin": { SERVER: "bin/toolpack-mcp.js" },
        "files": ["bin/toolpack-mcp.js", "README.md", "LICENSE-MIT", "LICENSE-APACHE"],
        "optionalDependencies": { PLATFORM_PACKAGE: VERSION },
        "engines": { "node": ">=18" },
    })
}

/// The binary's package, installed only on Linux x64 with glibc.
fn platform_manifest(listing: &Listing) -> Value {
    json!({
        "name": PLATFORM_PACKAGE,
        "version": VERSION,
        "description": format!("The toolpack-mcp binary for Linux x64 (glibc {} or newer).", super::native::GLIBC),
        "license": "MIT OR Apache-2.0",
        "homepage": listing.homepage,
        "repository": { "type": "git", "url": format!("git+{}.git", listing.repository()) },
        "files": ["bin/toolpack-mcp", "LICENSE-MIT", "LICENSE-APACHE"],
        "os": ["linux"],
        "cpu": ["x64"],
        "libc": ["glibc"],
    })
}

fn write_manifest(sh: &Shell, dir: &Path, manifest: Value) -> Result<()> {
    let text = serde_json::to_string_pretty(&manifest)? + "\n";
    sh.write_file(dir.join("package.json"), text)?;
    Ok(())
}
