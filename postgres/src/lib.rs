#![warn(missing_docs)]
//! # toolpack-postgres
//!
//! PostgreSQL at `TOOLPACK_DATABASE_URL` for the replicas of a toolpack server: the
//! [`toolpack::database::Database`] engine that `toolpack-mcp` supplies. It keeps the
//! upstream layer's shared state (`shared_state.rs`: each key's budget, the answers, the
//! per-caller limits) and the saved places (`saved_places.rs`), each in its own schema
//! through one pool per store (`database.rs`). The core links no database client, so the
//! Python, Node and Kotlin libraries build without this crate.
//!
//! ```no_run
//! use toolpack::{Config, Toolpack};
//!
//! let config = Config::builder()
//!     .database_url("postgres://toolpack@db.internal/toolpack?sslmode=require")
//!     .database(toolpack_postgres::engine())
//!     .build();
//! let toolpack = Toolpack::new(config)?;
//! # Ok::<(), toolpack::BuildError>(())
//! ```

mod database;
mod saved_places;
mod shared_state;

use std::sync::Arc;

use toolpack::Secret;
use toolpack::database::{Database, SavedPlaces, SharedState};

/// PostgreSQL as toolpack's database engine.
#[derive(Debug, Clone, Copy, Default)]
pub struct Postgres;

impl Database for Postgres {
    fn name(&self) -> &'static str {
        "postgres"
    }

    fn shared_state(&self, url: &Secret) -> Arc<dyn SharedState> {
        Arc::new(shared_state::PostgresSharedState::new(url.clone()))
    }

    fn saved_places(&self, url: &Secret) -> Arc<dyn SavedPlaces> {
        Arc::new(saved_places::PostgresSavedPlaces::new(url.clone()))
    }
}

/// PostgreSQL, as [`toolpack::ConfigBuilder::database`] takes it.
pub fn engine() -> Arc<dyn Database> {
    Arc::new(Postgres)
}
