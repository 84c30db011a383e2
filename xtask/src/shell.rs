//! The shell every task runs in: at the workspace root, with one shared `target/`.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use xshell::{Shell, cmd};

/// A shell at the workspace root (the parent of this crate's directory).
pub fn workspace() -> Result<Shell> {
    let sh = Shell::new()?;
    sh.change_dir(root()?);
    Ok(sh)
}

/// The workspace root.
pub fn root() -> Result<PathBuf> {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .map(PathBuf::from)
        .context("xtask lives in a workspace")
}

/// Cargo's target directory: `CARGO_TARGET_DIR`, or `target` at the workspace root.
pub fn target_dir() -> String {
    std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".into())
}

/// When this xtask started: section headings say how far into the run they come.
static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

/// Notes the start of the run (the first call wins).
pub fn start_clock() {
    STARTED.get_or_init(std::time::Instant::now);
}

/// Prints a section heading, as every suite and install step starts with one, with the
/// minutes and seconds since the run started and the processor time this process and the
/// children it has waited for have used so far (`cpu`): on a machine whose cores are all
/// busy, the difference between two headings is what the section between them cost. It
/// also starts a step of the run's table ([`crate::timings`]).
pub fn section(title: &str) {
    let elapsed = STARTED
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs();
    crate::timings::begin(title);
    let cpu = crate::timings::cpu_seconds()
        .map(|s| s as u64)
        .map(|s| format!(", cpu {:02}:{:02}", s / 60, s % 60))
        .unwrap_or_default();
    println!(
        "\n=== [{:02}:{:02}{cpu}] {title}",
        elapsed / 60,
        elapsed % 60
    );
}

/// Whether an executable called `name` is on `PATH`.
pub fn on_path(name: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(name).is_file()))
}

/// The one file in `dir` whose name starts with `prefix` and ends with `suffix`.
pub fn find_file(sh: &Shell, dir: impl AsRef<Path>, prefix: &str, suffix: &str) -> Result<PathBuf> {
    let dir = dir.as_ref();
    let mut found: Vec<PathBuf> = sh
        .read_dir(dir)?
        .into_iter()
        .filter(|p| {
            p.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .is_some_and(|n| n.starts_with(prefix) && n.ends_with(suffix))
        })
        .collect();
    match found.len() {
        1 => Ok(found.remove(0)),
        0 => anyhow::bail!("no {prefix}*{suffix} in {}", dir.display()),
        _ => anyhow::bail!("more than one {prefix}*{suffix} in {}", dir.display()),
    }
}

/// A new empty directory under the system's temporary directory.
pub fn temp_dir(sh: &Shell, prefix: &str) -> Result<PathBuf> {
    let dir = xshell::cmd!(sh, "mktemp -d -t {prefix}.XXXXXX").read()?;
    Ok(dir.into())
}

/// `PATH` with every directory that holds `cargo` or `rustc` left out: what a user
/// without a Rust toolchain has.
pub fn path_without_rust() -> String {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let kept: Vec<PathBuf> = std::env::split_paths(&path)
        .filter(|dir| !dir.join("cargo").exists() && !dir.join("rustc").exists())
        .collect();
    std::env::join_paths(kept)
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The debug binaries the suites run beside the artifact under test: the fake upstream,
/// the loko project generator and the MCP server. One command with one selection, so every
/// suite shares one build of them.
pub(crate) fn helper_binaries(sh: &Shell) -> Result<()> {
    cmd!(
        sh,
        "cargo build -q --locked -p toolpack-testkit -p toolpack-mcp --bins"
    )
    .run()?;
    Ok(())
}

/// Runs `command`, printing only its last `lines` lines of output (all of it on failure).
pub fn tail(command: xshell::Cmd<'_>, lines: usize) -> Result<()> {
    let output = command.ignore_status().output()?;
    let text = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        println!("{text}{}", String::from_utf8_lossy(&output.stderr));
        bail!("the command failed ({})", output.status);
    }
    let all: Vec<&str> = text.lines().collect();
    for line in &all[all.len().saturating_sub(lines)..] {
        println!("{line}");
    }
    Ok(())
}
