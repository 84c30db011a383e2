//! [`ResponseCache`]: upstream answers by request, bounded in bytes, least recently used
//! first out. Sans-I/O: the caller passes the time.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use crate::http::response::UpstreamResponse;

/// What one entry costs besides its key and body (the map slots, the headers' share).
const ENTRY_OVERHEAD: usize = 256;

/// A kept answer.
#[derive(Debug, Clone)]
pub(crate) struct Cached {
    /// The answer as the upstream gave it.
    pub response: Arc<UpstreamResponse>,
    /// When it was fetched.
    pub as_of: SystemTime,
    /// Until when it is fresh.
    pub fresh_until: Instant,
}

/// What the cache holds for a request at a moment.
#[derive(Debug)]
pub(crate) enum Lookup {
    /// A fresh answer: serve it.
    Fresh(Cached),
    /// An answer past fresh but inside the stale bound: serve it only if the upstream fails.
    Stale(Cached),
    /// Nothing usable.
    Miss,
}

#[derive(Debug)]
struct Entry {
    cached: Cached,
    bytes: usize,
    tick: u64,
}

/// Answers by request key, at most `capacity` bytes in all.
#[derive(Debug)]
pub(crate) struct ResponseCache {
    capacity: usize,
    stale_for: Duration,
    used: usize,
    next_tick: u64,
    entries: HashMap<Arc<str>, Entry>,
    by_use: BTreeMap<u64, Arc<str>>,
}

impl ResponseCache {
    /// An empty cache of `capacity` bytes whose answers stand in for errors up to
    /// `stale_for` past fresh.
    pub fn new(capacity: usize, stale_for: Duration) -> Self {
        Self {
            capacity,
            stale_for,
            used: 0,
            next_tick: 0,
            entries: HashMap::new(),
            by_use: BTreeMap::new(),
        }
    }

    /// Bytes held now.
    pub fn used(&self) -> usize {
        self.used
    }

    /// The answer for `key` at `now`, marking it used.
    pub fn lookup(&mut self, key: &str, now: Instant) -> Lookup {
        let Some(entry) = self.entries.get_mut(key) else {
            return Lookup::Miss;
        };
        if now >= entry.cached.fresh_until + self.stale_for {
            self.remove(key);
            return Lookup::Miss;
        }
        self.next_tick += 1;
        self.by_use.remove(&entry.tick);
        entry.tick = self.next_tick;
        let cached = entry.cached.clone();
        let shared_key = self
            .entries
            .get_key_value(key)
            .map(|(k, _)| Arc::clone(k))
            .expect("the entry was just found");
        self.by_use.insert(self.next_tick, shared_key);
        if now < cached.fresh_until {
            Lookup::Fresh(cached)
        } else {
            Lookup::Stale(cached)
        }
    }

    /// Keeps `cached` under `key`, evicting the least recently used answers to make room.
    /// An answer larger than an eighth of the cache is not kept.
    pub fn insert(&mut self, key: &str, cached: Cached) {
        self.remove(key);
        let bytes = key.len() + cached.response.body.len() + ENTRY_OVERHEAD;
        if bytes > self.capacity / 8 {
            return;
        }
        while self.used + bytes > self.capacity {
            let Some((_, oldest)) = self.by_use.pop_first() else {
                break;
            };
            if let Some(entry) = self.entries.remove(&oldest) {
                self.used -= entry.bytes;
            }
        }
        self.next_tick += 1;
        let key: Arc<str> = Arc::from(key);
        self.by_use.insert(self.next_tick, Arc::clone(&key));
        self.entries.insert(
            key,
            Entry {
                cached,
                bytes,
                tick: self.next_tick,
            },
        );
        self.used += bytes;
    }

    /// Forgets the answer for `key`.
    pub fn remove(&mut self, key: &str) {
        if let Some(entry) = self.entries.remove(key) {
            self.by_use.remove(&entry.tick);
            self.used -= entry.bytes;
        }
    }
}

#[cfg(test)]
mod tests {
    use reqwest::StatusCode;
    use reqwest::header::HeaderMap;

    use super::*;

    fn answer(body_len: usize, fresh_until: Instant) -> Cached {
        Cached {
            response: Arc::new(UpstreamResponse::new(
                StatusCode::OK,
                HeaderMap::new(),
                vec![b'x'; body_len],
                1,
            )),
            as_of: SystemTime::now(),
            fresh_until,
        }
    }

    #[test]
    fn an_answer_is_fresh_then_stale_then_gone() {
        let t0 = Instant::now();
        let mut cache = ResponseCache::new(1 << 20, Duration::from_secs(300));
        cache.insert("GET /a", answer(10, t0 + Duration::from_secs(30)));
        assert!(matches!(cache.lookup("GET /a", t0), Lookup::Fresh(_)));
        assert!(matches!(
            cache.lookup("GET /a", t0 + Duration::from_secs(31)),
            Lookup::Stale(_)
        ));
        assert!(matches!(
            cache.lookup("GET /a", t0 + Duration::from_secs(331)),
            Lookup::Miss
        ));
        assert_eq!(cache.used(), 0);
        assert!(matches!(cache.lookup("GET /b", t0), Lookup::Miss));
    }

    #[test]
    fn a_flood_of_distinct_answers_stays_under_the_byte_bound_and_keeps_the_recent_ones() {
        let t0 = Instant::now();
        let later = t0 + Duration::from_secs(60);
        let capacity = 64 * 1024;
        let mut cache = ResponseCache::new(capacity, Duration::ZERO);
        cache.insert("keep", answer(1000, later));
        for i in 0..10_000 {
            cache.insert(&format!("GET /stop/{i}"), answer(1000, later));
            // "keep" is used all along, so it is never the least recently used.
            assert!(matches!(cache.lookup("keep", t0), Lookup::Fresh(_)));
            assert!(cache.used() <= capacity, "{} > {capacity}", cache.used());
        }
        assert!(matches!(
            cache.lookup("GET /stop/9999", t0),
            Lookup::Fresh(_)
        ));
        assert!(matches!(cache.lookup("GET /stop/0", t0), Lookup::Miss));
    }

    #[test]
    fn an_answer_too_large_for_its_share_is_not_kept_and_replacing_frees_the_old_bytes() {
        let t0 = Instant::now();
        let later = t0 + Duration::from_secs(60);
        let mut cache = ResponseCache::new(8 * 1024, Duration::ZERO);
        cache.insert("big", answer(2000, later));
        assert!(matches!(cache.lookup("big", t0), Lookup::Miss));
        cache.insert("a", answer(100, later));
        let once = cache.used();
        cache.insert("a", answer(100, later));
        assert_eq!(cache.used(), once);
        cache.remove("a");
        assert_eq!(cache.used(), 0);
    }
}
