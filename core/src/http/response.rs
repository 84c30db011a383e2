//! [`UpstreamResponse`]: a whole upstream answer, as the client read it and the shared
//! layer keeps it, with what tools derive from it made once for every caller it serves.

use std::any::{Any, TypeId};
use std::sync::{Arc, Mutex, PoisonError};

use reqwest::StatusCode;
use reqwest::header::HeaderMap;
use serde_json::Value;

/// A complete upstream response of any status.
#[derive(Debug, Clone)]
pub struct UpstreamResponse {
    /// HTTP status.
    pub status: StatusCode,
    /// Response headers.
    pub headers: HeaderMap,
    /// The whole body (at most the policy's cap).
    pub body: Vec<u8>,
    /// How many attempts were made (1 = no retry).
    pub attempts: u32,
    /// Values derived from the body, by type ([`UpstreamResponse::derived`]).
    derived: Derived,
}

impl UpstreamResponse {
    /// A response as read from the upstream.
    pub fn new(status: StatusCode, headers: HeaderMap, body: Vec<u8>, attempts: u32) -> Self {
        Self {
            status,
            headers,
            body,
            attempts,
            derived: Derived::default(),
        }
    }

    /// Parses the body as JSON.
    pub fn json(&self) -> Result<Value, serde_json::Error> {
        serde_json::from_slice(&self.body)
    }

    /// The `T` that `make` derives from this response (a decoded body, say), made at most
    /// once per response while it is kept: every caller the shared cache serves it to gets
    /// the same `Arc`. `T` names the derivation, so `make` must be the one way to make a
    /// `T` from a response (a newtype per derivation). A failure is not kept. Two callers
    /// asking at once may both make it; the first kept wins, and no lock is held while
    /// `make` runs.
    pub fn derived<T, E>(&self, make: impl FnOnce(&Self) -> Result<T, E>) -> Result<Arc<T>, E>
    where
        T: Any + Send + Sync,
    {
        if let Some(made) = self.derived.find::<T>() {
            return Ok(made);
        }
        let made = Arc::new(make(self)?);
        Ok(self.derived.keep(made))
    }
}

/// What was derived from one response, by type. A copy of a response starts empty.
#[derive(Default)]
struct Derived(Mutex<Vec<(TypeId, Arc<dyn Any + Send + Sync>)>>);

impl Derived {
    fn find<T: Any + Send + Sync>(&self) -> Option<Arc<T>> {
        let made = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let (_, value) = made.iter().find(|(id, _)| *id == TypeId::of::<T>())?;
        Arc::clone(value).downcast().ok()
    }

    /// Keeps `value` unless a `T` was kept meanwhile; the one kept.
    fn keep<T: Any + Send + Sync>(&self, value: Arc<T>) -> Arc<T> {
        let mut made = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, kept)) = made.iter().find(|(id, _)| *id == TypeId::of::<T>())
            && let Ok(kept) = Arc::clone(kept).downcast()
        {
            return kept;
        }
        made.push((TypeId::of::<T>(), value.clone()));
        value
    }
}

impl Clone for Derived {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl std::fmt::Debug for Derived {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let count = self.0.lock().map_or(0, |made| made.len());
        write!(f, "Derived({count})")
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[derive(Debug, PartialEq)]
    struct Length(usize);

    #[test]
    fn a_derivation_is_made_once_a_failure_is_not_kept_and_a_copy_starts_empty() {
        let response =
            UpstreamResponse::new(StatusCode::OK, HeaderMap::new(), b"[1,2]".to_vec(), 1);
        let made = AtomicUsize::new(0);
        let length = |r: &UpstreamResponse| {
            made.fetch_add(1, Ordering::SeqCst);
            Ok::<_, ()>(Length(r.body.len()))
        };
        assert_eq!(response.derived::<String, _>(|_| Err("no")), Err("no"));
        let first = response.derived(length).unwrap();
        let again = response.derived(length).unwrap();
        assert!(Arc::ptr_eq(&first, &again));
        assert_eq!((first.0, made.load(Ordering::SeqCst)), (5, 1));
        assert_eq!(
            response
                .derived::<String, _>(|_| Ok::<_, ()>("ok".into()))
                .unwrap()
                .as_str(),
            "ok"
        );
        response.clone().derived(length).unwrap();
        assert_eq!(made.load(Ordering::SeqCst), 2);
    }
}
