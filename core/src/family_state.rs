//! [`FamilyStates`]: the state each tool family keeps on the handle (caches, stores),
//! keyed by type. The handle holds them without naming any family, so the families
//! depend on the handle and never the other way round.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use crate::config::Config;

/// State a tool family keeps for the life of a toolpack, made from the configuration on
/// first use and shared by every handle of that toolpack (every caller).
pub(crate) trait FamilyState: Any + Send + Sync + std::fmt::Debug {
    /// The family's state for `config`. Cheap and infallible: what can fail (opening a
    /// database, reading data) happens on first real use, inside a call.
    fn new(config: &Config) -> Self;
}

/// Every family's state, by type.
#[derive(Debug, Default)]
pub(crate) struct FamilyStates {
    states: RwLock<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>,
}

impl FamilyStates {
    /// The state of type `S`, made with `config` on first use.
    pub(crate) fn get<S: FamilyState>(&self, config: &Config) -> Arc<S> {
        let key = TypeId::of::<S>();
        let known = self
            .states
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .get(&key)
            .cloned();
        let state = known.unwrap_or_else(|| {
            let mut states = self
                .states
                .write()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            Arc::clone(
                states
                    .entry(key)
                    .or_insert_with(|| Arc::new(S::new(config))),
            )
        });
        // The map holds an `S` under `TypeId::of::<S>()`, so the downcast cannot fail.
        state
            .downcast::<S>()
            .unwrap_or_else(|_| unreachable!("a state is stored under its own type"))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    static MADE: AtomicUsize = AtomicUsize::new(0);

    #[derive(Debug)]
    struct Counter;

    impl FamilyState for Counter {
        fn new(_: &Config) -> Self {
            MADE.fetch_add(1, Ordering::SeqCst);
            Counter
        }
    }

    #[test]
    fn a_state_is_made_once_and_shared() {
        let states = FamilyStates::default();
        let config = Config::default();
        let first = states.get::<Counter>(&config);
        let second = states.get::<Counter>(&config);
        assert!(Arc::ptr_eq(&first, &second));
        assert_eq!(MADE.load(Ordering::SeqCst), 1);
    }
}
