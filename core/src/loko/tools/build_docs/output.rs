//! Writing a build without ever leaving a half-written site: the new output is built in
//! a sibling directory (unchanged files hard-linked from the previous build, changed
//! ones written), then swapped in with two renames; a build killed before the swap leaves
//! the previous output untouched, and the next build removes its leftovers. A manifest
//! of content hashes (`.loko-build.json`) tells what changed. One build per project at a
//! time: an advisory lock on `.loko/build.lock`, which a second build waits for.
//!
//! An I/O module: every function here but [`lock`]'s wait blocks, and runs on the
//! blocking pool.
#![allow(
    clippy::disallowed_methods,
    reason = "an I/O module of loko: its callers run it on the blocking pool"
)]

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::loko::project::fence::{ProjectRoot, io_failure};
use crate::loko::response::{Failure, LokoErrorCode};

/// The manifest's file name inside the output directory.
pub const MANIFEST: &str = ".loko-build.json";
/// The lock file, project-relative.
pub const LOCK_FILE: &str = ".loko/build.lock";
/// How long a build waits for another build of the same project.
pub const LOCK_WAIT: Duration = Duration::from_secs(300);

/// What a finished build wrote: every file's content hash.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// Content hash (sha256, hex) by path relative to the output directory.
    pub files: BTreeMap<String, String>,
}

impl Manifest {
    /// The manifest of the output at `dir`, if it has a readable one.
    pub fn read(dir: &Path) -> Option<Manifest> {
        let text = std::fs::read_to_string(dir.join(MANIFEST)).ok()?;
        serde_json::from_str(&text).ok()
    }
}

/// The hash of `bytes`, hex.
pub fn hash(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The held build lock of a project; released on drop (and by the OS if the process dies).
pub struct BuildLock {
    _file: File,
}

/// Opens (creating it when missing) the project's build lock file, unlocked. Blocking:
/// call it on the blocking pool.
pub fn open_lock(root: &ProjectRoot) -> Result<File, Failure> {
    let path = root.resolve(Path::new(LOCK_FILE))?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| io_failure(dir, &e))?;
    }
    File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| io_failure(&path, &e))
}

/// Takes the build lock of `file` (from [`open_lock`]), waiting up to [`LOCK_WAIT`] for
/// another build.
pub async fn lock(file: File) -> Result<BuildLock, Failure> {
    let deadline = tokio::time::Instant::now() + LOCK_WAIT;
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(BuildLock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) if tokio::time::Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(Failure::new(
                    LokoErrorCode::InternalError,
                    "Another build of this project is still running",
                )
                .details(format!("waited {} s for {LOCK_FILE}", LOCK_WAIT.as_secs())));
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(io_failure(Path::new(LOCK_FILE), &e));
            }
        }
    }
}

/// The sibling paths of an output directory: `.<name>.build-*` (staging) and `.<name>.old-*`.
fn siblings(output: &Path, kind: &str) -> Vec<PathBuf> {
    let (Some(parent), Some(name)) = (output.parent(), output.file_name()) else {
        return Vec::new();
    };
    let prefix = format!(".{}.{kind}-", name.to_string_lossy());
    std::fs::read_dir(parent)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default()
}

fn sibling(output: &Path, kind: &str) -> PathBuf {
    let name = output
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    output.with_file_name(format!(
        ".{name}.{kind}-{}-{:016x}",
        std::process::id(),
        fastrand::u64(..)
    ))
}

/// Puts back an output a killed build had moved aside, and removes leftovers of killed
/// builds. Call with the lock held.
pub fn recover(output: &Path) {
    if !output.exists()
        && let Some(old) = siblings(output, "old").into_iter().next()
    {
        let _ = std::fs::rename(&old, output);
    }
    for leftover in siblings(output, "build")
        .into_iter()
        .chain(siblings(output, "old"))
    {
        let _ = std::fs::remove_dir_all(leftover);
    }
}

/// A new output being built next to the current one.
pub struct Staging {
    /// The staging directory.
    pub dir: PathBuf,
    output: PathBuf,
}

impl Staging {
    /// Hard-links the file at `from` into the staging directory as `rel`; `true` when
    /// it was linked.
    pub fn link(&self, from: &Path, rel: &str) -> bool {
        std::fs::hard_link(from, self.dir.join(rel)).is_ok()
    }

    /// An empty staging directory next to `output`.
    pub fn new(output: &Path) -> Result<Staging, Failure> {
        let dir = sibling(output, "build");
        std::fs::create_dir_all(&dir).map_err(|e| denied(&dir, &e))?;
        Ok(Staging {
            dir,
            output: output.to_owned(),
        })
    }

    /// Writes `bytes` to `rel`, or hard-links it from the previous output when `reuse`
    /// (falling back to a copy); `true` when it was written.
    pub fn put(&self, rel: &str, bytes: &[u8], reuse: bool) -> Result<bool, Failure> {
        let path = self.dir.join(rel);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| denied(dir, &e))?;
        }
        if reuse && std::fs::hard_link(self.output.join(rel), &path).is_ok() {
            return Ok(false);
        }
        std::fs::write(&path, bytes).map_err(|e| denied(&path, &e))?;
        Ok(true)
    }

    /// Keeps the previous output's `rel` unchanged: hard-linked, or copied where links
    /// are not possible.
    pub fn keep(&self, rel: &str) -> Result<(), Failure> {
        let path = self.dir.join(rel);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| denied(dir, &e))?;
        }
        let previous = self.output.join(rel);
        if std::fs::hard_link(&previous, &path).is_err() {
            std::fs::copy(&previous, &path).map_err(|e| denied(&path, &e))?;
        }
        Ok(())
    }

    /// Swaps the staging directory in as the output.
    pub fn commit(self) -> Result<(), Failure> {
        let old = sibling(&self.output, "old");
        let had_output = self.output.exists();
        if had_output {
            std::fs::rename(&self.output, &old).map_err(|e| denied(&self.output, &e))?;
        }
        if let Err(e) = std::fs::rename(&self.dir, &self.output) {
            if had_output {
                let _ = std::fs::rename(&old, &self.output);
            }
            return Err(denied(&self.output, &e));
        }
        if had_output {
            let _ = std::fs::remove_dir_all(&old);
        }
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if self.dir.exists() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// The contract's "Cannot write to output directory".
pub fn denied(path: &Path, error: &std::io::Error) -> Failure {
    Failure::new(
        LokoErrorCode::PermissionDenied,
        "Cannot write to output directory",
    )
    .details(format!("{}: {error}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_commit_swaps_and_a_dropped_staging_leaves_the_output_alone() {
        let temp = tempfile::tempdir().unwrap();
        let output = temp.path().join("dist");
        std::fs::create_dir(&output).unwrap();
        std::fs::write(output.join("a.html"), "old").unwrap();
        {
            let staging = Staging::new(&output).unwrap();
            staging.put("a.html", b"new", false).unwrap();
        }
        assert_eq!(
            std::fs::read_to_string(output.join("a.html")).unwrap(),
            "old"
        );
        let staging = Staging::new(&output).unwrap();
        assert!(!staging.put("a.html", b"old", true).unwrap(), "hard-linked");
        assert!(staging.put("b.html", b"b", false).unwrap());
        staging.commit().unwrap();
        assert_eq!(
            std::fs::read_to_string(output.join("a.html")).unwrap(),
            "old"
        );
        assert_eq!(std::fs::read_to_string(output.join("b.html")).unwrap(), "b");
        assert_eq!(
            std::fs::read_dir(temp.path()).unwrap().count(),
            1,
            "no leftovers"
        );
    }

    #[test]
    fn recover_puts_back_an_output_moved_aside() {
        let temp = tempfile::tempdir().unwrap();
        let output = temp.path().join("dist");
        let old = sibling(&output, "old");
        std::fs::create_dir(&old).unwrap();
        std::fs::create_dir(sibling(&output, "build")).unwrap();
        recover(&output);
        assert!(output.is_dir());
        assert_eq!(std::fs::read_dir(temp.path()).unwrap().count(), 1);
    }
}
