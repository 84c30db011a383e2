//! A watch over what a remembered project was read from (Linux inotify): asking whether
//! anything changed is one non-blocking `read` of the watch's queue, where comparing stamps
//! is one `stat` per file and directory (≈3,100 for a 1,000-entity project).
//!
//! The kernel queues an event before the call that changed a file returns, so a check made
//! after any change, by any process, sees it. What counts as a change is what the stamps
//! would see: a file the project was read from modified, replaced, removed or touched; an
//! entry added to or removed from a directory it listed (dot-entries aside, which the
//! loader skips: that is where atomic writes keep their temporary files); a directory
//! itself removed or moved; or a lost event (queue overflow). Where a watch cannot be
//! made (no inotify, too many watches), [`Watch::new`] gives none and the caller compares
//! stamps instead.
//!
//! An I/O module: making a watch blocks (one `inotify_add_watch` per directory), and runs
//! on the blocking pool with the project read that needs it.
#![allow(
    clippy::disallowed_methods,
    reason = "an I/O module of loko: its callers run it on the blocking pool"
)]

use std::path::{Path, PathBuf};

use crate::loko::project::model::Stamps;

/// The watch over one project as read.
#[derive(Debug)]
pub struct Watch {
    #[cfg(target_os = "linux")]
    inner: std::sync::Mutex<linux::Inotify>,
}

impl Watch {
    /// A watch over what `stamps` lists (the files and directories a project was read
    /// from), or none where one cannot be made.
    pub fn new(stamps: &Stamps) -> Option<Watch> {
        #[cfg(target_os = "linux")]
        {
            let inotify = linux::Inotify::new(stamps.iter().map(|(path, stamp)| {
                let kind = match stamp {
                    Some(_) => linux::Kind::Present,
                    None => linux::Kind::Missing,
                };
                (path.as_path(), kind)
            }))?;
            Some(Watch {
                inner: std::sync::Mutex::new(inotify),
            })
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = stamps;
            None
        }
    }

    /// Whether anything changed since the watch was made (and the changes
    /// [`Watch::absorb`] was told of aside). Once true, it stays true.
    pub fn changed(&self) -> bool {
        #[cfg(target_os = "linux")]
        {
            let mut inotify = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            inotify.drain(&[]);
            inotify.changed
        }
        #[cfg(not(target_os = "linux"))]
        true
    }

    /// This process just wrote `written` (absolute paths, atomically): their events are
    /// its own and not a change, and the watch covers them from now on. Any other event
    /// pending is a change. Returns whether the watch still holds (nothing else changed).
    pub fn absorb(&self, written: &[PathBuf]) -> bool {
        #[cfg(target_os = "linux")]
        {
            let mut inotify = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            inotify.drain(written);
            inotify.cover(written);
            !inotify.changed
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = written;
            false
        }
    }

    /// Marks the watch changed (its project is to be read again).
    pub fn invalidate(&self) {
        #[cfg(target_os = "linux")]
        {
            self.inner.lock().unwrap_or_else(|e| e.into_inner()).changed = true;
        }
    }
}

/// Whether `path` is `written` or a directory above one of them (created for it).
fn is_written(path: &Path, written: &[PathBuf]) -> bool {
    written
        .iter()
        .any(|w| w == path || w.ancestors().any(|a| a == path))
}

#[cfg(target_os = "linux")]
mod linux {
    use std::collections::{HashMap, HashSet};
    use std::mem::MaybeUninit;
    use std::os::unix::ffi::OsStrExt;
    use std::path::{Path, PathBuf};

    use rustix::fd::OwnedFd;
    use rustix::fs::inotify::{self, CreateFlags, ReadFlags, WatchFlags};
    use rustix::io::Errno;

    /// Whether a path the project was read from existed then.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(in crate::loko) enum Kind {
        Present,
        Missing,
    }

    /// An inotify instance over a project's directories.
    #[derive(Debug)]
    pub(in crate::loko) struct Inotify {
        fd: OwnedFd,
        /// The path (or paths: one inode reached two ways) of each watch.
        watched: HashMap<i32, Vec<PathBuf>>,
        /// The paths the project was read from.
        read: HashSet<PathBuf>,
        /// Whether a change was seen.
        pub(in crate::loko) changed: bool,
    }

    /// What a watch reports: content and metadata changes of the entries of a directory
    /// (or of a file watched through a symlink), entries coming and going, and the watched
    /// directory itself removed or moved.
    fn events() -> WatchFlags {
        WatchFlags::MODIFY
            | WatchFlags::ATTRIB
            | WatchFlags::CREATE
            | WatchFlags::DELETE
            | WatchFlags::MOVED_FROM
            | WatchFlags::MOVED_TO
            | WatchFlags::DELETE_SELF
            | WatchFlags::MOVE_SELF
    }

    impl Inotify {
        /// Watches every directory among `paths`, the directory of every missing path (its
        /// appearance is a change), and each file reached through a symlink (its target's
        /// changes are). None when inotify or one of the watches cannot be had.
        pub(in crate::loko) fn new<'a>(
            paths: impl Iterator<Item = (&'a Path, Kind)>,
        ) -> Option<Self> {
            let fd = inotify::init(CreateFlags::NONBLOCK | CreateFlags::CLOEXEC).ok()?;
            let mut this = Inotify {
                fd,
                watched: HashMap::new(),
                read: HashSet::new(),
                changed: false,
            };
            for (path, kind) in paths {
                this.read.insert(path.to_owned());
                match kind {
                    Kind::Missing => this.watch_dir(path.parent()?).ok()?,
                    Kind::Present => match this.watch_dir(path) {
                        Ok(()) => {}
                        Err(Errno::NOTDIR) => {
                            let link = std::fs::symlink_metadata(path)
                                .is_ok_and(|m| m.file_type().is_symlink());
                            if link {
                                this.watch(path, events()).ok()?;
                            }
                        }
                        // Gone since it was read: a change.
                        Err(Errno::NOENT) => this.changed = true,
                        Err(_) => return None,
                    },
                }
            }
            Some(this)
        }

        fn watch_dir(&mut self, dir: &Path) -> Result<(), Errno> {
            self.watch(dir, events() | WatchFlags::ONLYDIR)
        }

        fn watch(&mut self, path: &Path, flags: WatchFlags) -> Result<(), Errno> {
            let wd = inotify::add_watch(&self.fd, path, flags)?;
            let paths = self.watched.entry(wd).or_default();
            if !paths.iter().any(|p| p == path) {
                paths.push(path.to_owned());
            }
            Ok(())
        }

        /// Watches the directories of `written` too, and counts the files among what the
        /// project was read from.
        pub(in crate::loko) fn cover(&mut self, written: &[PathBuf]) {
            for path in written {
                self.read.insert(path.clone());
                if let Some(dir) = path.parent()
                    && self.watch_dir(dir).is_err()
                {
                    self.changed = true;
                }
            }
        }

        /// Reads every pending event; one that is not of `written` and matters to the
        /// project marks the watch changed.
        pub(in crate::loko) fn drain(&mut self, written: &[PathBuf]) {
            let mut buffer = [MaybeUninit::<u8>::uninit(); 4096];
            let mut reader = inotify::Reader::new(&self.fd, &mut buffer);
            loop {
                let event = match reader.next() {
                    Ok(event) => event,
                    Err(Errno::AGAIN) => return,
                    Err(Errno::INTR) => continue,
                    Err(_) => {
                        self.changed = true;
                        return;
                    }
                };
                if self.changed {
                    continue;
                }
                let name = event.file_name().map(|n| n.to_bytes()).unwrap_or_default();
                let name = std::ffi::OsStr::from_bytes(name);
                let mask = event.events();
                self.changed = matters(mask, name, self.watched.get(&event.wd()), |path| {
                    (self.read.contains(path), super::is_written(path, written))
                });
            }
        }
    }

    /// Whether an event on the watch whose paths are `dirs`, about the entry `name` (empty
    /// for the watched path itself), is a change; `known` says of a path whether the project
    /// was read from it and whether this process just wrote it.
    fn matters(
        mask: ReadFlags,
        name: &std::ffi::OsStr,
        dirs: Option<&Vec<PathBuf>>,
        known: impl Fn(&Path) -> (bool, bool),
    ) -> bool {
        let lost = ReadFlags::QUEUE_OVERFLOW
            | ReadFlags::IGNORED
            | ReadFlags::UNMOUNT
            | ReadFlags::DELETE_SELF
            | ReadFlags::MOVE_SELF;
        if mask.intersects(lost) {
            return true;
        }
        let Some(dirs) = dirs else {
            // A watch this instance does not know: be safe.
            return true;
        };
        if name.is_empty() {
            // The watched directory's or symlinked file's own content or metadata.
            return true;
        }
        let entries_changed = mask.intersects(
            ReadFlags::CREATE | ReadFlags::DELETE | ReadFlags::MOVED_FROM | ReadFlags::MOVED_TO,
        );
        let dot = name.as_bytes().starts_with(b".");
        dirs.iter().any(|dir| {
            let path = dir.join(name);
            match known(&path) {
                (_, true) => false,
                (true, false) => true,
                (false, false) => entries_changed && !dot,
            }
        })
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    fn stamps(paths: &[&Path]) -> Stamps {
        paths
            .iter()
            .map(|p| {
                let stamp = std::fs::metadata(p)
                    .ok()
                    .map(|m| crate::loko::project::file_cache::Stamp::of(&m));
                (p.to_path_buf(), stamp)
            })
            .collect()
    }

    #[test]
    fn a_change_is_seen_and_stays_seen() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        let file = dir.join("system.md");
        std::fs::write(&file, "a").unwrap();
        let watch = Watch::new(&stamps(&[dir, &file])).unwrap();
        assert!(!watch.changed(), "nothing happened yet");
        std::fs::write(&file, "b").unwrap();
        assert!(watch.changed(), "a file read from was modified");
        assert!(watch.changed(), "and stays changed");
    }

    #[test]
    fn entries_count_as_the_loader_sees_them() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        let file = dir.join("system.md");
        std::fs::write(&file, "a").unwrap();
        let missing = dir.join("relationships.toml");
        let watch = Watch::new(&stamps(&[dir, &file, &missing])).unwrap();
        // A dot-file (an editor's or an atomic write's temporary) is not.
        std::fs::write(dir.join(".system.md.swp"), "x").unwrap();
        std::fs::remove_file(dir.join(".system.md.swp")).unwrap();
        assert!(!watch.changed());
        // The missing file appearing is.
        std::fs::write(&missing, "").unwrap();
        assert!(watch.changed());
        // A new directory is.
        let watch = Watch::new(&stamps(&[dir, &file, &missing])).unwrap();
        std::fs::create_dir(dir.join("api")).unwrap();
        assert!(watch.changed());
        // A touch (metadata only) of a file read is.
        let watch = Watch::new(&stamps(&[dir, &file])).unwrap();
        std::fs::File::options()
            .append(true)
            .open(&file)
            .unwrap()
            .set_modified(std::time::SystemTime::UNIX_EPOCH)
            .unwrap();
        assert!(watch.changed());
    }

    #[test]
    fn own_writes_are_absorbed_and_others_are_not() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        let (file, other) = (dir.join("system.md"), dir.join("container.md"));
        std::fs::write(&file, "a").unwrap();
        std::fs::write(&other, "a").unwrap();
        let watch = Watch::new(&stamps(&[dir, &file, &other])).unwrap();
        // An atomic write of a new file in a new directory, as the tools do.
        let new = dir.join("shop/relationships.toml");
        std::fs::create_dir(dir.join("shop")).unwrap();
        std::fs::write(dir.join("shop/.relationships.toml.tmp"), "x").unwrap();
        std::fs::rename(dir.join("shop/.relationships.toml.tmp"), &new).unwrap();
        std::fs::write(&file, "b").unwrap();
        assert!(watch.absorb(&[file.clone(), new.clone()]));
        assert!(!watch.changed());
        // The new file is watched from now on.
        std::fs::write(&new, "y").unwrap();
        assert!(watch.changed());
        // Someone else's write beside one's own is a change.
        let watch = Watch::new(&stamps(&[dir, &file, &other])).unwrap();
        std::fs::write(&file, "c").unwrap();
        std::fs::write(&other, "c").unwrap();
        assert!(!watch.absorb(std::slice::from_ref(&file)));
        assert!(watch.changed());
    }

    #[test]
    fn a_removed_directory_is_a_change() {
        let temp = tempfile::tempdir().unwrap();
        let sub = temp.path().join("api");
        std::fs::create_dir(&sub).unwrap();
        let watch = Watch::new(&stamps(&[temp.path(), &sub])).unwrap();
        std::fs::remove_dir(&sub).unwrap();
        assert!(watch.changed());
    }

    #[test]
    fn a_file_read_through_a_symlink_is_watched_at_its_target() {
        let temp = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        let target = elsewhere.path().join("shared.md");
        std::fs::write(&target, "a").unwrap();
        let link = temp.path().join("system.md");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let watch = Watch::new(&stamps(&[temp.path(), &link])).unwrap();
        std::fs::write(&target, "b").unwrap();
        assert!(watch.changed());
    }
}
