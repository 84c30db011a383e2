//! Where a loko tool may read and write: the project root (after `LOKO_ALLOWED_ROOTS`),
//! paths under it that never lead out (`..`, absolute paths, symlinks), and atomic
//! writes (a temporary file in the same directory, then a rename or a hard link).
//!
//! The I/O module of the loko tools: with the project loader ([`crate::loko::project::model`]), the file
//! cache and the build output ([`crate::loko::tools::build_docs`]'s `output`), the only code that
//! touches the file system. Every function here blocks: callers run them on the blocking
//! pool (`project_tool::blocking`). `core/clippy.toml` holds the rule for every other module.
#![allow(
    clippy::disallowed_methods,
    reason = "an I/O module of loko: its callers run it on the blocking pool"
)]

use std::io::Write;
use std::path::{Component, Path, PathBuf};

use crate::config::Config;
use crate::loko::response::{Failure, LokoErrorCode};

/// A project directory that exists, canonical, and inside the allowed roots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectRoot {
    path: PathBuf,
}

impl ProjectRoot {
    /// Opens `project_path` (the current directory when `None`), checking that it
    /// exists, is a directory and lies inside `LOKO_ALLOWED_ROOTS` when that is set.
    pub fn open(config: &Config, project_path: Option<&str>) -> Result<Self, Failure> {
        let given = match project_path.map(str::trim) {
            None => ".",
            Some("") => return Err(Failure::invalid("project_path must not be empty")),
            Some(p) => p,
        };
        if given.contains('\0') {
            return Err(Failure::invalid("project_path must not contain NUL"));
        }
        let not_found =
            || Failure::not_found("Project not found at path").details(format!("path: {given}"));
        let path = std::fs::canonicalize(given).map_err(|_| not_found())?;
        if !path.is_dir() {
            return Err(not_found());
        }
        let roots = config.loko_allowed_roots();
        if !roots.is_empty()
            && !roots
                .iter()
                .filter_map(|root| std::fs::canonicalize(root).ok())
                .any(|root| path.starts_with(root))
        {
            return Err(Failure::new(
                LokoErrorCode::PermissionDenied,
                "Project path is outside the allowed roots",
            )
            .details(format!(
                "{given} is not under LOKO_ALLOWED_ROOTS ({} entries)",
                roots.len()
            )));
        }
        Ok(Self { path })
    }

    /// The canonical project directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The directory's own name (the default project name).
    pub fn dir_name(&self) -> String {
        self.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "project".to_owned())
    }

    /// `relative` under the root, refused when it is absolute, climbs with `..`, or
    /// resolves (through symlinks of its existing part) outside the root.
    pub fn resolve(&self, relative: &Path) -> Result<PathBuf, Failure> {
        let outside = || {
            Failure::new(
                LokoErrorCode::PermissionDenied,
                "Path leads outside the project directory",
            )
            .details(relative.display().to_string())
        };
        let mut joined = self.path.clone();
        for part in relative.components() {
            match part {
                Component::Normal(name) => joined.push(name),
                Component::CurDir => {}
                _ => return Err(outside()),
            }
        }
        let mut existing = joined.as_path();
        while std::fs::symlink_metadata(existing).is_err() {
            existing = existing.parent().ok_or_else(outside)?;
        }
        let real = std::fs::canonicalize(existing).map_err(|_| outside())?;
        if real.starts_with(&self.path) {
            Ok(joined)
        } else {
            Err(outside())
        }
    }

    /// `absolute` as a project-relative path with `/` separators (for answers).
    pub fn relative(&self, absolute: &Path) -> String {
        let rel = absolute.strip_prefix(&self.path).unwrap_or(absolute);
        rel.components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// How an atomic write treats an existing file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteMode {
    /// Fail with `ALREADY_EXISTS` when the file exists (never overwrite).
    CreateNew,
    /// Replace the file in one step.
    Replace,
}

/// Writes `contents` to `path` atomically: a temporary file in the same directory,
/// flushed to disk, then renamed over `path` (`Replace`) or hard-linked to it
/// (`CreateNew`, which fails without touching an existing file).
pub fn write_atomic(path: &Path, contents: &[u8], mode: WriteMode) -> Result<(), Failure> {
    let dir = path
        .parent()
        .ok_or_else(|| Failure::internal("a file path without a directory"))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = dir.join(format!(
        ".{name}.tmp-{}-{:016x}",
        std::process::id(),
        fastrand::u64(..)
    ));
    let result = (|| {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)?;
        file.write_all(contents)?;
        file.sync_all()?;
        drop(file);
        match mode {
            WriteMode::Replace => std::fs::rename(&temp, path),
            WriteMode::CreateNew => {
                let linked = std::fs::hard_link(&temp, path);
                let _ = std::fs::remove_file(&temp);
                linked
            }
        }
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result.map_err(|e| io_failure(path, &e))
}

/// The contract's failure for an I/O error on `path`.
pub fn io_failure(path: &Path, error: &std::io::Error) -> Failure {
    use std::io::ErrorKind;
    let file = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match error.kind() {
        ErrorKind::AlreadyExists => {
            Failure::new(LokoErrorCode::AlreadyExists, "File already exists").details(file)
        }
        ErrorKind::PermissionDenied | ErrorKind::ReadOnlyFilesystem => {
            Failure::new(LokoErrorCode::PermissionDenied, "Permission denied")
                .details(format!("{file}: {error}"))
        }
        ErrorKind::NotFound => Failure::not_found("File not found").details(file),
        _ => Failure::internal("Unable to read or write the project")
            .details(format!("{file}: {error}")),
    }
}

/// Creates `dir` (and parents) under the root, refusing symlinks that lead out.
pub fn create_dir(root: &ProjectRoot, dir: &Path) -> Result<(), Failure> {
    std::fs::create_dir_all(dir).map_err(|e| io_failure(dir, &e))?;
    root.resolve(Path::new(&root.relative(dir))).map(|_| ())
}

/// Writes `bytes` to `file` atomically, creating its directory: for caches, where a
/// failure only means the result is not remembered.
pub fn store(file: &Path, bytes: &[u8]) {
    if let Some(dir) = file.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = write_atomic(file, bytes, WriteMode::Replace);
}

/// The text of the file at `path`, when it can be read.
pub fn read_text(path: &Path) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// Whether `path` is a file.
pub fn is_file(path: &Path) -> bool {
    path.is_file()
}

/// When the file at `path` was last modified, when it can be told.
pub fn modified(path: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(dir: &Path) -> ProjectRoot {
        ProjectRoot::open(&Config::default(), Some(dir.to_str().unwrap())).unwrap()
    }

    #[test]
    fn paths_that_climb_or_are_absolute_are_refused() {
        let temp = tempfile::tempdir().unwrap();
        let root = root(temp.path());
        for bad in ["../x", "src/../../x", "/etc/passwd"] {
            let err = root.resolve(Path::new(bad)).unwrap_err();
            assert_eq!(err.code, LokoErrorCode::PermissionDenied, "{bad}");
        }
        assert!(root.resolve(Path::new("src/a/system.md")).is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_that_leads_out_is_refused() {
        let temp = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::create_dir(temp.path().join("src")).unwrap();
        std::os::unix::fs::symlink(outside.path(), temp.path().join("src/escape")).unwrap();
        let root = root(temp.path());
        let err = root.resolve(Path::new("src/escape/system.md")).unwrap_err();
        assert_eq!(err.code, LokoErrorCode::PermissionDenied);
    }

    #[test]
    fn allowed_roots_fence_the_project_path() {
        let allowed = tempfile::tempdir().unwrap();
        let other = tempfile::tempdir().unwrap();
        let config =
            Config::from_pairs([("LOKO_ALLOWED_ROOTS", allowed.path().to_str().unwrap())]).unwrap();
        assert!(ProjectRoot::open(&config, allowed.path().to_str()).is_ok());
        let err = ProjectRoot::open(&config, other.path().to_str()).unwrap_err();
        assert_eq!(err.code, LokoErrorCode::PermissionDenied);
        let missing = ProjectRoot::open(&config, Some("/no/such/dir")).unwrap_err();
        assert_eq!(missing.code, LokoErrorCode::NotFound);
    }

    #[test]
    fn create_new_never_overwrites_and_replace_does() {
        let temp = tempfile::tempdir().unwrap();
        let file = temp.path().join("a.md");
        write_atomic(&file, b"one", WriteMode::CreateNew).unwrap();
        let err = write_atomic(&file, b"two", WriteMode::CreateNew).unwrap_err();
        assert_eq!(err.code, LokoErrorCode::AlreadyExists);
        assert_eq!(std::fs::read(&file).unwrap(), b"one");
        write_atomic(&file, b"three", WriteMode::Replace).unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), b"three");
        let leftovers = std::fs::read_dir(temp.path()).unwrap().count();
        assert_eq!(leftovers, 1, "no temporary file is left behind");
    }
}
