//! [`Database`]: the engine a server supplies for what its replicas share at
//! `TOOLPACK_DATABASE_URL`: the upstream layer's shared state (each key's budget, the
//! answers, the per-caller limits) and the saved places. The core holds no database
//! client: the `toolpack-mcp` server supplies PostgreSQL (crate `toolpack-postgres`)
//! through [`crate::ConfigBuilder::database`], and the Python, Node and Kotlin libraries
//! build without one.
//!
//! Without a [`Database`], a database URL makes saving places fail with `storage-error`
//! (never saving anywhere else), and each process keeps its own upstream state.

use std::fmt::Debug;
use std::sync::Arc;

use futures_util::future::BoxFuture;

pub use crate::http::shared::replicas::{
    Backend as SharedState, BudgetId, FIRST_DEADLINE, LeaseAsk, LeaseGrant, RequestId, SharedEntry,
    SharedLookup,
};
use crate::secret::Secret;

/// A database engine: opens, at a URL, what the replicas share. Opening connects to
/// nothing: each store connects on first use.
pub trait Database: Send + Sync + Debug {
    /// The engine's name, in logs and metrics (`postgres`).
    fn name(&self) -> &'static str;
    /// The upstream layer's shared state at `url`, for this replica.
    fn shared_state(&self, url: &Secret) -> Arc<dyn SharedState>;
    /// The saved places at `url`.
    fn saved_places(&self, url: &Secret) -> Arc<dyn SavedPlaces>;
}

/// One saved variable as a store keeps it: the contract's columns, the value as JSON text.
/// The core checks its type and value when it reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredVariable {
    /// The caller's name for it.
    pub key: String,
    /// `location`, `preference` or `other`.
    pub kind: String,
    /// The contract's value, as JSON text.
    pub value: String,
    /// When it was first saved (RFC 3339).
    pub created_at: String,
    /// When it was last saved (RFC 3339).
    pub updated_at: String,
}

/// What a store's save reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upserted {
    /// The type the key held before, as stored (`None`: the key is new).
    pub previous_type: Option<String>,
    /// When the variable was first saved (kept across replacements).
    pub created_at: String,
}

/// Where saved places live: one row per (caller, key). Every error is a sentence saying
/// what went wrong (never a password); the core answers it as `storage-error`.
pub trait SavedPlaces: Send + Sync + Debug {
    /// Saves `variable` under its caller and key, replacing what was there (its
    /// `created_at` is used only when the key is new).
    fn save<'a>(
        &'a self,
        caller: &'a str,
        variable: &'a StoredVariable,
    ) -> BoxFuture<'a, Result<Upserted, String>>;
    /// Every variable `caller` saved (of `kind` when given), by key in byte order.
    fn list<'a>(
        &'a self,
        caller: &'a str,
        kind: Option<&'a str>,
    ) -> BoxFuture<'a, Result<Vec<StoredVariable>, String>>;
    /// The variable `caller` saved under `key`, if any.
    fn get<'a>(
        &'a self,
        caller: &'a str,
        key: &'a str,
    ) -> BoxFuture<'a, Result<Option<StoredVariable>, String>>;
}
