//! The PyPI server package `toolpack-mcp`: a wheel whose one script is the release
//! `toolpack-mcp` binary (`toolpack_mcp-<version>.data/scripts/`), as ruff and uv ship, so
//! `uvx toolpack-mcp` and `pipx run toolpack-mcp` start the server. No Python code, no ABI:
//! tagged `py3-none-manylinux_2_28_x86_64`. Written from the release build's binary by
//! `write_wheel.py` (Python's own `zipfile`), so it holds exactly the archive's binary.

use std::path::PathBuf;

use anyhow::{Result, bail};
use xshell::{Shell, cmd};

use super::LICENCES;
use super::native::{GLIBC, natives};
use crate::listing::{Listing, SERVER};
use crate::shell::{section, temp_dir};
use crate::version::VERSION;

/// The wheel writer (a PEP 427 zip with its `RECORD`).
const WRITE_WHEEL: &str = include_str!("write_wheel.py");

/// The wheel's compatibility tag: any Python 3, no ABI, glibc 2.28 on x86-64.
pub fn tag() -> String {
    format!("py3-none-manylinux_{}_x86_64", GLIBC.replace('.', "_"))
}

/// The wheel's file name.
pub fn file_name() -> String {
    format!("{}-{VERSION}-{}.whl", stem(), tag())
}

/// Writes the wheel into `target/dist` and returns its path.
pub fn wheel(sh: &Shell, listing: &Listing) -> Result<PathBuf> {
    let natives = natives(sh)?;
    section(&format!("package: the PyPI server wheel {}", file_name()));
    let dist = super::dist(sh)?;
    let staging = temp_dir(sh, "toolpack-server-wheel")?;
    let data = format!("{}-{VERSION}.data", stem());
    let info = format!("{}-{VERSION}.dist-info", stem());
    let metadata = staging.join("METADATA");
    sh.write_file(&metadata, metadata_text(sh, listing)?)?;
    let wheel_file = staging.join("WHEEL");
    sh.write_file(
        &wheel_file,
        format!(
            "Wheel-Version: 1.0\nGenerator: cargo xtask package\nRoot-Is-Purelib: false\nTag: {}\n",
            tag()
        ),
    )?;
    let mut entries = vec![
        format!("{data}/scripts/{SERVER}={}:755", natives.mcp().display()),
        format!("{info}/METADATA={}", metadata.display()),
        format!("{info}/WHEEL={}", wheel_file.display()),
    ];
    let root = sh.current_dir();
    entries.extend(
        LICENCES
            .iter()
            .map(|licence| format!("{info}/licenses/{licence}={}", root.join(licence).display())),
    );
    let wheel = dist.join(file_name());
    cmd!(sh, "python3 -c {WRITE_WHEEL} {wheel} {entries...}")
        .quiet()
        .run()?;
    sh.remove_path(&staging)?;
    let listing_text = cmd!(sh, "python3 -m zipfile -l {wheel}").read()?;
    for inside in [format!("{data}/scripts/{SERVER}"), format!("{info}/RECORD")] {
        if !listing_text.contains(&inside) {
            bail!("the server wheel has no {inside}");
        }
    }
    println!(
        "pypi: {} ({} bytes)",
        file_name(),
        std::fs::metadata(&wheel)?.len()
    );
    Ok(wheel)
}

/// The distribution's file-name stem (PEP 427: `-` becomes `_`).
fn stem() -> String {
    SERVER.replace('-', "_")
}

/// Core metadata 2.4: the name, version, summary, licence, links, and the server's README
/// (whose `mcp-name:` line the registry checks) as the description.
fn metadata_text(sh: &Shell, listing: &Listing) -> Result<String> {
    let readme = sh.read_file("mcp/README.md")?;
    if !readme.contains(&listing.ownership_line()) {
        bail!(
            "mcp/README.md lacks `{}`: run `cargo xtask codegen`",
            listing.ownership_line()
        );
    }
    let licences: String = LICENCES
        .iter()
        .map(|licence| format!("License-File: {licence}\n"))
        .collect();
    Ok(format!(
        "Metadata-Version: 2.4\nName: {SERVER}\nVersion: {VERSION}\nSummary: {}\n\
         License-Expression: MIT OR Apache-2.0\n{licences}Requires-Python: >=3.8\n\
         Project-URL: Homepage, {}\nProject-URL: Source, {}\n\
         Description-Content-Type: text/markdown\n\n{readme}",
        listing.description,
        listing.homepage,
        listing.repository(),
    ))
}
