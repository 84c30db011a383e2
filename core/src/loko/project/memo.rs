//! What tools derive from a loaded project (its relationship graph…), computed once per
//! project as read and kept with it: a loaded project is shared between calls while its
//! files do not change ([`crate::loko::project::project_cache`]), so the graph is built once, not per call.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Values derived from one loaded project, one per type.
#[derive(Clone, Default)]
pub struct Memo(Arc<Mutex<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>>);

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let count = self.0.lock().map(|m| m.len()).unwrap_or_default();
        write!(f, "Memo({count} values)")
    }
}

impl Memo {
    /// A new memo holding only this one's value of type `T` (when it has one): for a
    /// changed copy of a project whose change leaves `T` as it was.
    pub fn only<T: Any + Send + Sync>(&self) -> Memo {
        let kept = self
            .0
            .lock()
            .ok()
            .and_then(|m| m.get(&TypeId::of::<T>()).cloned());
        let memo = Memo::default();
        if let (Some(value), Ok(mut map)) = (kept, memo.0.lock()) {
            map.insert(TypeId::of::<T>(), value);
        }
        memo
    }

    /// The value of type `T`, made by `init` the first time (outside the lock: two calls
    /// racing may both compute it, and the first stored is kept).
    pub fn get_or_init<T: Any + Send + Sync>(&self, init: impl FnOnce() -> T) -> Arc<T> {
        let key = TypeId::of::<T>();
        let known = self.0.lock().ok().and_then(|m| m.get(&key).cloned());
        if let Some(value) = known.and_then(|v| v.downcast::<T>().ok()) {
            return value;
        }
        let made: Arc<dyn Any + Send + Sync> = Arc::new(init());
        let stored = match self.0.lock() {
            Ok(mut map) => map.entry(key).or_insert(made).clone(),
            Err(_) => made,
        };
        stored
            .downcast::<T>()
            .unwrap_or_else(|_| unreachable!("stored under its own type id"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_made_once_per_type() {
        let memo = Memo::default();
        let mut made = 0;
        let first = memo.get_or_init(|| {
            made += 1;
            vec![1, 2]
        });
        let again = memo.get_or_init::<Vec<i32>>(|| unreachable!("made already"));
        assert!(Arc::ptr_eq(&first, &again));
        assert_eq!(made, 1);
        assert_eq!(*memo.get_or_init(|| "other type"), "other type");
        assert_eq!(format!("{memo:?}"), "Memo(2 values)");
        let kept = memo.only::<Vec<i32>>();
        assert!(Arc::ptr_eq(
            &first,
            &kept.get_or_init::<Vec<i32>>(|| unreachable!())
        ));
        assert_eq!(format!("{kept:?}"), "Memo(1 values)");
    }
}
