//! The shell every task runs in: at the workspace root, with one shared `target/`.

use std::path::PathBuf;

use anyhow::{Context, Result};
use xshell::Shell;

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

/// Prints a section heading, as every suite and install step starts with one.
pub fn section(title: &str) {
    println!("\n=== {title}");
}

/// Whether an executable called `name` is on `PATH`.
pub fn on_path(name: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(name).is_file()))
}
