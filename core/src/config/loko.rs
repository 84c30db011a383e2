//! The loko family's settings table.

use std::path::PathBuf;

use super::setting::{path, paths, settings_table};

settings_table! {
    /// The loko family's settings.
    LokoSettings {
        /// The `d2` binary the loko tools run (default: `d2` found on `PATH`).
        d2_bin: Option<PathBuf> = None, D2_BIN, path;
        /// The Chromium `build_docs` prints the PDF with (default: `chromium`,
        /// `chromium-browser` or `google-chrome` on `PATH`).
        chromium_bin: Option<PathBuf> = None, CHROMIUM_BIN, path;
        /// Directories a loko `project_path` must lie in, separated like `PATH` (`:` on
        /// Unix); unset means any directory.
        allowed_roots: Vec<PathBuf> = Vec::new(), LOKO_ALLOWED_ROOTS, paths;
    }
}
