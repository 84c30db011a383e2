//! `cargo xtask package` (`./scripts/package`): release artifacts in `target/dist/`, each
//! checked as a user gets it, and `target/dist/MANIFEST.txt` (name, size, sha256).
//!
//! Today it packages the MCP server binary: `toolpack-mcp-<version>-<target>.tar.gz` (the
//! binary, README and licences) with its `.sha256`, checked by extracting it into a clean
//! directory and running one tool call with no Rust toolchain on `PATH`. The glibc floor
//! (the newest `GLIBC_` symbol version the binary needs) goes into the manifest.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result, bail};
use xshell::{Shell, cmd};

use crate::shell::section;

/// The only target packaged so far.
const TARGET: &str = "x86_64-unknown-linux-gnu";
/// Files every archive carries beside its payload.
const DOCS: [&str; 3] = ["README.md", "LICENSE-MIT", "LICENSE-APACHE"];

/// Builds, packages and checks every artifact, then writes the manifest.
pub fn run(sh: &Shell) -> Result<()> {
    let dist = sh.current_dir().join("target/dist");
    sh.remove_path(&dist)?;
    sh.create_dir(&dist)?;
    let floor = mcp_archive(sh, &dist)?;
    let manifest = manifest(sh, &dist, &floor)?;
    sh.write_file(dist.join("MANIFEST.txt"), &manifest)?;
    section("package: target/dist/MANIFEST.txt");
    print!("{manifest}");
    Ok(())
}

/// The MCP binary's archive and checksum; checks them; returns the glibc floor.
fn mcp_archive(sh: &Shell, dist: &Path) -> Result<String> {
    section("package: toolpack-mcp, release build");
    cmd!(
        sh,
        "cargo build --release --locked -p toolpack-mcp --bin toolpack-mcp"
    )
    .run()?;
    let version = env!("CARGO_PKG_VERSION");
    let name = format!("toolpack-mcp-{version}-{TARGET}");
    let staging = tempfile_dir(sh, "toolpack-stage")?;
    let folder = staging.join(&name);
    sh.create_dir(&folder)?;
    sh.copy_file("target/release/toolpack-mcp", &folder)?;
    for doc in DOCS {
        sh.copy_file(doc, &folder)?;
    }
    let archive = format!("{name}.tar.gz");
    let archive_path = dist.join(&archive);
    cmd!(
        sh,
        "tar -C {staging} --owner=0 --group=0 -czf {archive_path} {name}"
    )
    .run()?;
    sh.remove_path(&staging)?;
    let sum = sha256(sh, &archive_path)?;
    sh.write_file(
        dist.join(format!("{archive}.sha256")),
        format!("{sum}  {archive}\n"),
    )?;

    section("package: toolpack-mcp, installed from its archive with no Rust on PATH");
    let place = tempfile_dir(sh, "toolpack-install")?;
    {
        let _dir = sh.push_dir(dist);
        cmd!(sh, "sha256sum -c {archive}.sha256").run()?;
    }
    cmd!(sh, "tar -C {place} -xzf {archive_path}").run()?;
    let binary = place.join(&name).join("toolpack-mcp");
    let arguments = r#"{"stationName":"Abbey Wood"}"#;
    let answer = cmd!(sh, "{binary} call stationToilets {arguments}")
        .env("PATH", "/usr/bin:/bin")
        .read()?;
    if !answer.contains("\"stationUniqueId\": \"HUBABW\"") {
        bail!("the installed binary answered: {answer}");
    }
    println!(
        "stationToilets Abbey Wood: HUBABW, from {}",
        binary.display()
    );
    let floor = glibc_floor(sh, &binary)?;
    sh.remove_path(&place)?;
    Ok(floor)
}

/// The newest `GLIBC_x.y` symbol version `binary` needs (`objdump -T`).
fn glibc_floor(sh: &Shell, binary: &Path) -> Result<String> {
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
        .context("the binary needs no glibc symbol version")?;
    let text: Vec<String> = newest.iter().map(u32::to_string).collect();
    Ok(format!("glibc {}", text.join(".")))
}

/// Every file of `dist` with its size and sha256, and the facts measured on the way.
fn manifest(sh: &Shell, dist: &Path, floor: &str) -> Result<String> {
    let mut text = format!(
        "# toolpack {} release artifacts\n",
        env!("CARGO_PKG_VERSION")
    );
    writeln!(text, "# toolpack-mcp ({TARGET}) needs {floor} or newer")?;
    writeln!(text, "# size_bytes  sha256  file")?;
    let mut files = sh.read_dir(dist)?;
    files.sort();
    for file in files {
        let size = std::fs::metadata(&file)?.len();
        let name = file
            .file_name()
            .context("a file name")?
            .to_string_lossy()
            .into_owned();
        writeln!(text, "{size}  {}  {name}", sha256(sh, &file)?)?;
    }
    Ok(text)
}

fn sha256(sh: &Shell, file: &Path) -> Result<String> {
    let line = cmd!(sh, "sha256sum {file}").read()?;
    line.split_whitespace()
        .next()
        .map(str::to_owned)
        .context("sha256sum printed nothing")
}

/// A new empty directory under the system's temporary directory.
fn tempfile_dir(sh: &Shell, prefix: &str) -> Result<std::path::PathBuf> {
    let dir = cmd!(sh, "mktemp -d -t {prefix}.XXXXXX").read()?;
    Ok(dir.into())
}
