//! Per-toolpack loko state: the caches of files, projects and d2 syntax answers, and one
//! edit lock per project.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};

use super::{fence, file_cache, model, project_cache, syntax_cache};
use crate::loko::formats::d2::{D2, SyntaxError};
use crate::loko::response::Failure;

/// Per-toolpack loko state: d2 syntax results by source and d2 version (in memory, and
/// on disk in each project's d2 cache), so checking an unchanged project runs no d2
/// process, in this process or the next.
#[derive(Debug, Default)]
pub(crate) struct LokoState {
    /// Project files read by earlier calls.
    pub(crate) files: file_cache::FileCache,
    /// Projects read by earlier calls, answered again while nothing changed.
    pub(crate) projects: project_cache::ProjectCache,
    syntax: Arc<Mutex<HashMap<[u8; 32], Option<SyntaxError>>>>,
    versions: Mutex<HashMap<std::path::PathBuf, String>>,
    /// One lock per project directory, held while a tool edits the project.
    edits: Mutex<HashMap<std::path::PathBuf, Arc<tokio::sync::Mutex<()>>>>,
}

impl crate::family_state::FamilyState for LokoState {
    fn new(_: &crate::Config) -> Self {
        Self::default()
    }
}

impl crate::Toolpack {
    /// The loko state of this toolpack.
    pub(crate) fn loko(&self) -> Arc<LokoState> {
        self.family()
    }
}

impl LokoState {
    /// The project at `root` (blocking: call it on the blocking pool): the one loaded
    /// before when none of its files changed.
    pub(crate) fn project(&self, root: fence::ProjectRoot) -> Result<Arc<model::Project>, Failure> {
        self.projects.load(root, &self.files)
    }

    /// The text of the project file `file` (project-relative, e.g. a diagram) under `root`,
    /// read through the file cache (blocking: call it on the blocking pool).
    pub(crate) fn read_project_file(
        &self,
        root: &std::path::Path,
        file: &str,
    ) -> Result<String, Failure> {
        self.files
            .read(&root.join(file))
            .map(|(_, text)| text.to_string())
            .map_err(|e| fence::io_failure(std::path::Path::new(file), &e))
    }

    /// The edit lock of the project at `root`.
    pub(crate) fn edit_lock(&self, root: &std::path::Path) -> Arc<tokio::sync::Mutex<()>> {
        let mut edits = self.edits.lock().unwrap_or_else(|e| e.into_inner());
        edits.entry(root.to_owned()).or_default().clone()
    }

    /// `d2 --version` of `d2`, asked once per binary.
    pub(crate) async fn d2_version(&self, d2: &D2) -> String {
        let known = self
            .versions
            .lock()
            .ok()
            .and_then(|v| v.get(d2.path()).cloned());
        if let Some(known) = known {
            return known;
        }
        let version = d2.version().await.unwrap_or_default();
        if let Ok(mut versions) = self.versions.lock() {
            versions.insert(d2.path().to_owned(), version.clone());
        }
        version
    }

    /// A checker for `d2`, sharing this toolpack's results, and keeping them on disk in
    /// `disk_cache` (a project's `.loko/cache/d2`) when given.
    pub(crate) async fn syntax_checker(
        &self,
        d2: D2,
        disk_cache: Option<std::path::PathBuf>,
    ) -> SyntaxChecker {
        let version = self.d2_version(&d2).await;
        SyntaxChecker {
            d2,
            version,
            results: self.syntax.clone(),
            disk_cache,
        }
    }
}

/// Checks D2 sources with one d2 binary, remembering each answer in memory and, when
/// it has a disk cache, in `check-<sha256(d2 version, source)>.json` files beside the
/// render cache (written atomically; an unreadable one is asked again).
#[derive(Debug, Clone)]
pub(crate) struct SyntaxChecker {
    d2: D2,
    version: String,
    results: Arc<Mutex<HashMap<[u8; 32], Option<SyntaxError>>>>,
    disk_cache: Option<std::path::PathBuf>,
}

impl SyntaxChecker {
    /// The first syntax error of `source`, or `None` when d2 accepts it.
    pub(crate) async fn check(&self, source: &str) -> Result<Option<SyntaxError>, Failure> {
        let key: [u8; 32] = Sha256::new()
            .chain_update(self.version.as_bytes())
            .chain_update([0])
            .chain_update(source.as_bytes())
            .finalize()
            .into();
        if let Some(known) = self.results.lock().ok().and_then(|r| r.get(&key).cloned()) {
            crate::telemetry::d2_cache_hit("syntax");
            return Ok(known);
        }
        let file = self.disk_cache.as_ref().map(|dir| {
            let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
            dir.join(format!("check-{hex}.json"))
        });
        let on_disk = match &file {
            Some(file) => tokio::fs::read(file)
                .await
                .ok()
                .and_then(|bytes| syntax_cache::decode(&bytes)),
            None => None,
        };
        let result = match on_disk {
            Some(known) => {
                crate::telemetry::d2_cache_hit("syntax");
                known
            }
            None => {
                let result = self.d2.validate(source).await?.err();
                if let Some(file) = file {
                    let bytes = syntax_cache::encode(result.as_ref());
                    let _ = tokio::task::spawn_blocking(move || fence::store(&file, &bytes)).await;
                }
                result
            }
        };
        if let Ok(mut results) = self.results.lock() {
            results.insert(key, result.clone());
        }
        Ok(result)
    }
}
