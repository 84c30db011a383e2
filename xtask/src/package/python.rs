//! The Python distribution `toolpack-agents`: an abi3 wheel tagged `manylinux_2_28_x86_64`
//! (maturin with the release build's zig environment, checked by auditwheel) and an sdist
//! that builds from source.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use anyhow::{Result, bail};
use xshell::{Shell, cmd};

use super::native::{GLIBC, TRIPLE, zig_env};
use crate::shell::{find_file, section, temp_dir};

/// The distribution's file-name stem (PEP 427: `-` becomes `_`).
pub const STEM: &str = "toolpack_agents";
/// What a typed, working wheel must hold.
const INSIDE: [&str; 4] = [
    "toolpack_agents/py.typed",
    "toolpack_agents/_native.pyi",
    "toolpack_agents/_generated.py",
    "toolpack_agents/_native.abi3.so",
];

static BUILT: OnceLock<PathBuf> = OnceLock::new();

/// Builds the wheel and the sdist into `target/dist` (once per run); returns the wheel.
pub fn wheel(sh: &Shell) -> Result<PathBuf> {
    if let Some(wheel) = BUILT.get() {
        return Ok(wheel.clone());
    }
    // The manylinux tag the wheel carries, from the glibc the natives link against.
    let tag = format!("{}_x86_64", manylinux());
    section(&format!(
        "package: the Python wheel (maturin, zig, abi3, {tag}) and sdist"
    ));
    let dist = super::dist(sh)?;
    for old in sh.read_dir(&dist)? {
        let name = old.file_name().map(|n| n.to_string_lossy().into_owned());
        if name.is_some_and(|n| n.starts_with(STEM)) {
            sh.remove_path(old)?;
        }
    }
    let wheel = {
        let _env = zig_env(sh)?;
        let _dir = sh.push_dir("python");
        let compatibility = manylinux();
        cmd!(sh, "maturin build --release --locked --target {TRIPLE} --compatibility {compatibility} --out {dist}").run()?;
        cmd!(sh, "maturin sdist --out {dist}").run()?;
        let wheel = find_file(sh, &dist, STEM, ".whl")?;
        let audit = cmd!(sh, "auditwheel show {wheel}").read()?;
        if !audit.contains(&format!("\"{tag}\"")) {
            bail!("auditwheel does not accept the wheel as {tag}:\n{audit}");
        }
        println!("auditwheel: consistent with {tag}");
        wheel
    };
    let listing = cmd!(sh, "python3 -m zipfile -l {wheel}").read()?;
    for file in INSIDE {
        if !listing.contains(file) {
            bail!("the wheel has no {file}");
        }
    }
    sdist_builds(sh, &find_file(sh, &dist, STEM, ".tar.gz")?)?;
    Ok(BUILT.get_or_init(|| wheel).clone())
}

/// Takes the wheel a package run in another process (the background suite) left in
/// `dist` as this run's, so the Python suite does not build it again.
pub fn adopt(sh: &Shell, dist: &Path) -> Result<()> {
    let wheel = find_file(sh, dist, STEM, ".whl")?;
    let _ = BUILT.set(wheel);
    Ok(())
}

/// Builds a wheel from the sdist, as `pip install` of the sdist does (maturin as the PEP 517
/// backend, in release, in the zig environment). The shared `target/` keeps it to the
/// crates inside the sdist; the registry dependencies are the release build's.
fn sdist_builds(sh: &Shell, sdist: &Path) -> Result<()> {
    section("package: the sdist builds from source (pip wheel, maturin as the build backend)");
    let _env = zig_env(sh)?;
    let out = temp_dir(sh, "toolpack-sdist")?;
    let target = sh.current_dir().join("target");
    // Not `--locked`: the sdist's workspace is a subset, so cargo prunes its lock file, as
    // it does for a user's `pip install` of the sdist.
    let backend = format!("--target {TRIPLE} --compatibility {}", manylinux());
    cmd!(
        sh,
        "pip wheel -q --no-deps --no-build-isolation --disable-pip-version-check -w {out} {sdist}"
    )
    .env("CARGO_TARGET_DIR", &target)
    .env("MATURIN_PEP517_ARGS", backend)
    .run()?;
    let built = find_file(sh, &out, STEM, ".whl")?;
    println!(
        "sdist: built {}",
        built.file_name().unwrap_or_default().to_string_lossy()
    );
    sh.remove_path(&out)?;
    Ok(())
}

/// The manylinux policy of the glibc the natives link against (`manylinux_2_28`).
fn manylinux() -> String {
    format!("manylinux_{}", GLIBC.replace('.', "_"))
}
