//! `target/dist/MANIFEST.txt`: every artifact with its size and sha256, and the glibc each
//! native file needs (the newest `GLIBC_` symbol version it references).

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};
use xshell::{Shell, cmd};

use super::native;
use crate::version::VERSION;

/// Writes the manifest of `dist` and returns its text.
pub fn write(sh: &Shell, dist: &Path) -> Result<String> {
    let natives = native::natives(sh)?;
    let mut text = format!(
        "# toolpack {VERSION} release artifacts ({})\n",
        native::TRIPLE
    );
    for (what, file) in [
        ("toolpack-mcp", natives.mcp()),
        ("the Node addon", natives.node_addon()),
        ("the uniffi library (JAR)", natives.uniffi()),
        ("the Python extension (wheel)", natives.python()),
    ] {
        writeln!(text, "# {what} needs {} or newer", glibc_floor(sh, &file)?)?;
    }
    writeln!(text, "# size_bytes  sha256  file")?;
    let mut files = sh.read_dir(dist)?;
    files.sort();
    for file in files {
        let name = file.file_name().context("a file name")?.to_string_lossy();
        if name == "MANIFEST.txt" {
            continue;
        }
        let size = std::fs::metadata(&file)?.len();
        writeln!(text, "{size}  {}  {name}", sha256(sh, &file)?)?;
    }
    sh.write_file(dist.join("MANIFEST.txt"), &text)?;
    Ok(text)
}

/// The newest `GLIBC_x.y` symbol version `binary` needs (`objdump -T`), as `glibc x.y`.
pub fn glibc_floor(sh: &Shell, binary: &Path) -> Result<String> {
    let symbols = cmd!(sh, "objdump -T {binary}").read()?;
    let mut versions: Vec<Vec<u32>> = symbols
        .split_whitespace()
        .filter_map(|word| word.trim_start_matches('(').strip_prefix("GLIBC_"))
        .map(|v| {
            v.trim_end_matches(')')
                .split('.')
                .filter_map(|n| n.parse().ok())
                .collect()
        })
        .collect();
    versions.sort();
    let newest = versions
        .last()
        .with_context(|| format!("{} needs no glibc symbol version", binary.display()))?;
    let text: Vec<String> = newest.iter().map(u32::to_string).collect();
    Ok(format!("glibc {}", text.join(".")))
}

/// The sha256 of `file`, in hex.
pub fn sha256(sh: &Shell, file: &Path) -> Result<String> {
    let line = cmd!(sh, "sha256sum {file}").read()?;
    line.split_whitespace()
        .next()
        .map(str::to_owned)
        .context("sha256sum printed nothing")
}
