//! The npm packages, in the napi-rs layout: the main package `toolpack` (JavaScript, types,
//! no binary) with an optional dependency on the platform package `toolpack-linux-x64-gnu`
//! (`node/npm/linux-x64-gnu`: the release addon, `os`/`cpu`/`libc` set).

use std::path::PathBuf;
use std::sync::OnceLock;

use anyhow::{Result, bail};
use xshell::{Shell, cmd};

use super::{LICENCES, native};
use crate::shell::{find_file, section};
use crate::version::VERSION;

/// The platform package's directory and name suffix.
const PLATFORM: &str = "linux-x64-gnu";
/// The main tarball's ceiling: it carries no binary.
const MAIN_LIMIT: u64 = 200 * 1024;

/// The two tarballs.
#[derive(Clone)]
pub struct Tarballs {
    /// `toolpack-<version>.tgz`.
    pub main: PathBuf,
    /// `toolpack-linux-x64-gnu-<version>.tgz`.
    pub platform: PathBuf,
}

static BUILT: OnceLock<Tarballs> = OnceLock::new();

/// `npm pack` of the package in `dir` into `dist`, with the licences copied in first (npm
/// skips symlinks).
pub fn pack_with_licences(sh: &Shell, dir: &std::path::Path, dist: &std::path::Path) -> Result<()> {
    for licence in LICENCES {
        sh.copy_file(licence, dir)?;
    }
    let _dir = sh.push_dir(dir);
    cmd!(sh, "npm pack --silent --pack-destination {dist}")
        .ignore_stdout()
        .run()?;
    Ok(())
}

/// Takes the tarballs a package run in another process (the background suite) left in
/// `dist` as this run's, so the Node suite does not pack them again.
pub fn adopt(sh: &Shell, dist: &std::path::Path) -> Result<()> {
    let tarballs = Tarballs {
        main: find_file(sh, dist, &format!("toolpack-{VERSION}"), ".tgz")?,
        platform: find_file(sh, dist, &format!("toolpack-{PLATFORM}-"), ".tgz")?,
    };
    let _ = BUILT.set(tarballs);
    Ok(())
}

/// Packs both tarballs into `target/dist` (once per run).
pub fn tarballs(sh: &Shell) -> Result<Tarballs> {
    if let Some(built) = BUILT.get() {
        return Ok(built.clone());
    }
    let natives = native::natives(sh)?;
    section("package: the npm packages (main + platform, napi-rs layout)");
    let dist = super::dist(sh)?;
    let platform_dir = format!("node/npm/{PLATFORM}");
    sh.copy_file(
        natives.node_addon(),
        format!("{platform_dir}/toolpack.{PLATFORM}.node"),
    )?;
    for dir in ["node", platform_dir.as_str()] {
        pack_with_licences(sh, std::path::Path::new(dir), &dist)?;
    }
    let main = dist.join(format!("toolpack-{VERSION}.tgz"));
    let platform = find_file(sh, &dist, &format!("toolpack-{PLATFORM}-"), ".tgz")?;
    let size = std::fs::metadata(&main)?.len();
    if size > MAIN_LIMIT {
        bail!("the main npm tarball is {size} bytes, over {MAIN_LIMIT}");
    }
    println!(
        "npm: toolpack {size} bytes, toolpack-{PLATFORM} {} bytes",
        std::fs::metadata(&platform)?.len()
    );
    Ok(BUILT.get_or_init(|| Tarballs { main, platform }).clone())
}
