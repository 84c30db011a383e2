//! Loaded projects kept between calls: a project read before is answered again while
//! every file and directory it was read from has the same stamp (size, modification and
//! change time, inode), checked with one `stat` each and no reading. A changed, added or
//! removed file changes its own stamp or its directory's, and the project is read again
//! (through the file cache, so only what changed is re-read and re-parsed).
//!
//! An I/O module: checking blocks, and runs on the blocking pool.
#![allow(
    clippy::disallowed_methods,
    reason = "an I/O module of loko: its callers run it on the blocking pool"
)]

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crate::loko::project::fence::ProjectRoot;
use crate::loko::project::file_cache::{FileCache, Stamp};
use crate::loko::project::model::{Project, Stamps};
use crate::loko::project::project_watch::Watch;
use crate::loko::response::Failure;

/// The most projects kept; beyond it the oldest one read is dropped.
const MAX_PROJECTS: usize = 8;

/// A project as read, and what it was read from.
#[derive(Debug)]
struct Snapshot {
    project: Arc<Project>,
    stamps: Stamps,
    /// The watch over what it was read from (shared by the snapshots that follow this
    /// process's own writes); none where it could not be made.
    watch: Option<Arc<Watch>>,
    read_at: std::time::Instant,
}

impl Snapshot {
    /// Whether nothing it was read from changed.
    fn fresh(&self) -> bool {
        match &self.watch {
            Some(watch) => !watch.changed(),
            None => unchanged(&self.stamps),
        }
    }
}

/// Whether every path of `stamps` has the same stamp now (checked on up to 4 threads: a
/// large project has thousands).
fn unchanged(stamps: &Stamps) -> bool {
    let same = |part: &[(PathBuf, Option<Stamp>)]| {
        part.iter().all(|(path, stamp)| {
            let now = std::fs::metadata(path).ok().map(|m| Stamp::of(&m));
            now == *stamp
        })
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    if threads < 2 || stamps.len() < 1024 {
        return same(stamps);
    }
    let chunk = stamps.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let parts: Vec<_> = stamps
            .chunks(chunk)
            .skip(1)
            .map(|part| scope.spawn(move || same(part)))
            .collect();
        let first = same(&stamps[..chunk]);
        parts.into_iter().all(|p| p.join().unwrap_or(false)) && first
    })
}

/// The projects read by this toolpack, by directory.
#[derive(Debug, Default)]
pub struct ProjectCache {
    snapshots: Mutex<HashMap<PathBuf, Arc<Snapshot>>>,
}

impl ProjectCache {
    /// The project at `root`: the one read before when nothing changed, else read again.
    pub fn load(&self, root: ProjectRoot, files: &FileCache) -> Result<Arc<Project>, Failure> {
        let known = self
            .snapshots
            .lock()
            .ok()
            .and_then(|s| s.get(root.path()).cloned());
        if let Some(known) = known.filter(|s| s.fresh()) {
            return Ok(known.project.clone());
        }
        let path = root.path().to_owned();
        let (project, stamps) = Project::read(root, files)?;
        // Watched after it was read: what changed in between is caught by one check of
        // the stamps now.
        let watch = Watch::new(&stamps).map(Arc::new);
        if let Some(watch) = &watch
            && !unchanged(&stamps)
        {
            watch.invalidate();
        }
        let snapshot = Arc::new(Snapshot {
            project: Arc::new(project),
            stamps,
            watch,
            read_at: std::time::Instant::now(),
        });
        if let Ok(mut snapshots) = self.snapshots.lock() {
            if snapshots.len() >= MAX_PROJECTS && !snapshots.contains_key(&path) {
                let oldest = snapshots
                    .iter()
                    .min_by_key(|(_, s)| s.read_at)
                    .map(|(p, _)| p.clone());
                if let Some(oldest) = oldest {
                    snapshots.remove(&oldest);
                }
            }
            snapshots.insert(path, snapshot.clone());
        }
        Ok(snapshot.project.clone())
    }

    /// After this process wrote `written` (absolute paths) into the project at `root`:
    /// `project` is the project as it now is, and the snapshot takes the new stamps of those
    /// files and of their directories, and its watch takes their events as its own, so the
    /// next call need not read the project again (unless someone else changed it too).
    /// Nothing is kept when the project was not cached.
    pub fn replace(&self, root: &ProjectRoot, mut project: Project, written: &[PathBuf]) {
        let Ok(mut snapshots) = self.snapshots.lock() else {
            return;
        };
        let Some(old) = snapshots.get(root.path()) else {
            return;
        };
        let watch = old.watch.clone();
        if let Some(watch) = &watch {
            watch.absorb(written);
        }
        let mut stamps = old.stamps.clone();
        let dirs = written.iter().filter_map(|p| p.parent().map(PathBuf::from));
        for path in written.iter().cloned().chain(dirs) {
            let now = std::fs::metadata(&path).ok().map(|m| Stamp::of(&m));
            if let (true, Some(modified)) =
                (written.contains(&path), now.and_then(|s| s.modified()))
            {
                project.updated_at = Some(project.updated_at.map_or(modified, |t| t.max(modified)));
            }
            match stamps.iter_mut().find(|(p, _)| *p == path) {
                Some(entry) => entry.1 = now,
                None => stamps.push((path, now)),
            }
        }
        let snapshot = Snapshot {
            project: Arc::new(project),
            stamps,
            watch,
            read_at: std::time::Instant::now(),
        };
        snapshots.insert(root.path().to_owned(), Arc::new(snapshot));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    fn write(path: &std::path::Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn a_project_is_read_again_only_when_something_changed() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        write(&dir.join("loko.toml"), "[project]\nname = \"p\"\n");
        write(&dir.join("src/shop/system.md"), "---\nname: Shop\n---\n");
        let root = || ProjectRoot::open(&Config::default(), dir.to_str()).unwrap();
        let (cache, files) = (ProjectCache::default(), FileCache::default());
        let first = cache.load(root(), &files).unwrap();
        assert!(
            Arc::ptr_eq(&first, &cache.load(root(), &files).unwrap()),
            "unchanged: the same"
        );
        // A new container (a new directory) is seen.
        write(
            &dir.join("src/shop/api/container.md"),
            "---\nname: API\n---\n",
        );
        let second = cache.load(root(), &files).unwrap();
        assert_eq!(second.systems[0].children.len(), 1);
        // A file replaced atomically with the same size is seen.
        write(&dir.join("tmp"), "---\nname: Api\n---\n");
        std::fs::rename(dir.join("tmp"), dir.join("src/shop/api/container.md")).unwrap();
        let third = cache.load(root(), &files).unwrap();
        assert_eq!(third.systems[0].children[0].name(), "Api");
        // A relationships.toml added beside system.md is seen.
        write(&dir.join("src/shop/relationships.toml"), "");
        assert!(
            cache.load(root(), &files).unwrap().systems[0]
                .relationships
                .is_some()
        );
        // loko.toml removed: the project is read with defaults.
        std::fs::remove_file(dir.join("loko.toml")).unwrap();
        assert!(!cache.load(root(), &files).unwrap().settings.found);
    }
}
