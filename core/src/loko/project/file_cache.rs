//! Parsed project files kept between calls, each checked against the file's stamp
//! (size, modification and change times, inode) on every read: a changed, replaced or
//! renamed-over file is always read again; an unchanged one costs one `stat`.
//!
//! An I/O module: every read blocks, and runs on the blocking pool.
#![allow(
    clippy::disallowed_methods,
    reason = "an I/O module of loko: its callers run it on the blocking pool"
)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::loko::formats::markdown::{self, Document};

/// What identifies one version of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
    changed: (i64, i64),
    inode: u64,
}

impl Stamp {
    /// The stamp of `metadata`.
    pub fn of(metadata: &std::fs::Metadata) -> Stamp {
        #[cfg(unix)]
        let (changed, inode) = {
            use std::os::unix::fs::MetadataExt;
            ((metadata.ctime(), metadata.ctime_nsec()), metadata.ino())
        };
        #[cfg(not(unix))]
        let (changed, inode) = ((0, 0), 0);
        Stamp {
            len: metadata.len(),
            modified: metadata.modified().ok(),
            changed,
            inode,
        }
    }

    /// The modification time.
    pub fn modified(&self) -> Option<std::time::SystemTime> {
        self.modified
    }
}

/// A markdown file as read: its text and its parsed document (or what is wrong with it).
#[derive(Debug, Clone)]
pub struct ParsedMarkdown {
    /// The text.
    pub text: Arc<str>,
    /// The document, or the frontmatter problem.
    pub doc: Result<Arc<Document>, String>,
}

/// Files read by earlier calls, by path.
#[derive(Debug, Default)]
pub struct FileCache {
    markdown: Mutex<HashMap<PathBuf, (Stamp, Arc<ParsedMarkdown>)>>,
    text: Mutex<HashMap<PathBuf, (Stamp, Arc<str>)>>,
}

/// The most files remembered of each kind; beyond it the cache starts over.
const MAX_FILES: usize = 100_000;

impl FileCache {
    /// The parsed markdown file at `path` with stamp `stamp` (read and parsed if needed).
    pub fn markdown(&self, path: &Path, stamp: Stamp) -> std::io::Result<Arc<ParsedMarkdown>> {
        if let Some(hit) = lookup(&self.markdown, path, stamp) {
            return Ok(hit);
        }
        let text: Arc<str> = std::fs::read_to_string(path)?.into();
        let parsed = Arc::new(ParsedMarkdown {
            doc: markdown::parse(&text).map(Arc::new),
            text,
        });
        remember(&self.markdown, path, stamp, parsed.clone());
        Ok(parsed)
    }

    /// The current stamp and text of the file at `path` (one `stat`, and a read when it
    /// changed).
    pub fn read(&self, path: &Path) -> std::io::Result<(Stamp, Arc<str>)> {
        let stamp = Stamp::of(&std::fs::metadata(path)?);
        Ok((stamp, self.text(path, stamp)?))
    }

    /// The text of the file at `path` with stamp `stamp` (read if needed).
    pub fn text(&self, path: &Path, stamp: Stamp) -> std::io::Result<Arc<str>> {
        if let Some(hit) = lookup(&self.text, path, stamp) {
            return Ok(hit);
        }
        let text: Arc<str> = std::fs::read_to_string(path)?.into();
        remember(&self.text, path, stamp, text.clone());
        Ok(text)
    }
}

fn lookup<T: ?Sized>(
    map: &Mutex<HashMap<PathBuf, (Stamp, Arc<T>)>>,
    path: &Path,
    stamp: Stamp,
) -> Option<Arc<T>> {
    let map = map.lock().ok()?;
    map.get(path)
        .filter(|(s, _)| *s == stamp)
        .map(|(_, v)| v.clone())
}

fn remember<T: ?Sized>(
    map: &Mutex<HashMap<PathBuf, (Stamp, Arc<T>)>>,
    path: &Path,
    stamp: Stamp,
    value: Arc<T>,
) {
    if let Ok(mut map) = map.lock() {
        if map.len() >= MAX_FILES {
            map.clear();
        }
        map.insert(path.to_owned(), (stamp, value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_file_is_read_again() {
        let temp = tempfile::tempdir().unwrap();
        let path = temp.path().join("system.md");
        let cache = FileCache::default();
        std::fs::write(&path, "---\nname: One\n---\n").unwrap();
        let stamp = Stamp::of(&std::fs::metadata(&path).unwrap());
        let first = cache.markdown(&path, stamp).unwrap();
        assert!(
            Arc::ptr_eq(&first, &cache.markdown(&path, stamp).unwrap()),
            "a hit"
        );
        // Same size, replaced atomically: a new inode and change time.
        let other = temp.path().join("tmp");
        std::fs::write(&other, "---\nname: Two\n---\n").unwrap();
        std::fs::rename(&other, &path).unwrap();
        let stamp = Stamp::of(&std::fs::metadata(&path).unwrap());
        let second = cache.markdown(&path, stamp).unwrap();
        assert_eq!(second.doc.as_ref().unwrap().frontmatter["name"], "Two");
    }
}
