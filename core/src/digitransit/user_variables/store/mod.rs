//! The saved-variables store: SQLite in the data directory (the embedded default, one
//! machine), or PostgreSQL when `TOOLPACK_DATABASE_URL` is set (replicas share it). Both
//! keep one row per (caller, key) and behave the same: the same shared vectors run on
//! both. A build without the `postgres` feature (the Python, Node and Kotlin libraries)
//! refuses every call with the storage error when a database URL is set, rather than
//! saving anywhere else.

#[cfg(feature = "postgres")]
mod postgres;
mod sqlite;

use super::types::{PreviousVariable, UserVariable, UserVariableType, UserVariableValue};
use crate::config::Config;
use crate::digitransit::response::{DigitransitErrorCode, Failure};

pub use sqlite::DATABASE_FILE;

/// What a store's upsert reports; [`UserStore::save`] builds the answer from it.
#[derive(Debug)]
pub(crate) struct Upserted {
    /// The type the key held before, as stored (`None`: the key is new).
    pub previous_type: Option<String>,
    /// When the variable was first saved (kept across replacements).
    pub created_at: String,
}

/// The saved-variables store of one toolpack.
#[derive(Debug)]
pub(crate) enum UserStore {
    /// SQLite in the data directory.
    Sqlite(sqlite::SqliteStore),
    /// PostgreSQL at `TOOLPACK_DATABASE_URL`.
    #[cfg(feature = "postgres")]
    Postgres(postgres::PostgresStore),
    /// `TOOLPACK_DATABASE_URL` is set, but this build has no PostgreSQL.
    #[cfg(not(feature = "postgres"))]
    NoPostgres,
}

/// The failure of every call of a store configured for PostgreSQL in a build without it.
#[cfg(not(feature = "postgres"))]
fn no_postgres<T>() -> Result<T, Failure> {
    Err(storage(
        "TOOLPACK_DATABASE_URL is set, but this build has no PostgreSQL (the `postgres` \
feature of the toolpack crate; the toolpack-mcp server has it)"
            .into(),
    ))
}

impl UserStore {
    /// The store `config` asks for (nothing is opened yet).
    pub fn new(config: &Config) -> Self {
        match config.database_url() {
            #[cfg(feature = "postgres")]
            Some(url) => Self::Postgres(postgres::PostgresStore::new(url.clone())),
            #[cfg(not(feature = "postgres"))]
            Some(_) => Self::NoPostgres,
            None => Self::Sqlite(sqlite::SqliteStore::new(config.data_dir())),
        }
    }

    /// Saves `value` under `caller`'s `key` (replacing what was there), at `now`: the
    /// variable as saved and what the key held before.
    pub async fn save(
        &self,
        caller: String,
        key: String,
        kind: UserVariableType,
        value: UserVariableValue,
        now: String,
    ) -> Result<(UserVariable, Option<PreviousVariable>), Failure> {
        let upserted = match self {
            Self::Sqlite(store) => {
                store
                    .save(caller, key.clone(), kind, &value, now.clone())
                    .await
            }
            #[cfg(feature = "postgres")]
            Self::Postgres(store) => {
                store
                    .save(caller, key.clone(), kind, &value, now.clone())
                    .await
            }
            #[cfg(not(feature = "postgres"))]
            Self::NoPostgres => no_postgres(),
        };
        let upserted = self.counted(upserted)?;
        let previous = upserted
            .previous_type
            .and_then(|t| UserVariableType::parse(&t))
            .map(|r#type| PreviousVariable {
                key: key.clone(),
                r#type,
            });
        let variable = UserVariable {
            key,
            r#type: kind,
            value,
            created_at: upserted.created_at,
            updated_at: now,
        };
        Ok((variable, previous))
    }

    /// Every variable `caller` saved (of `kind` when given), by key.
    pub async fn list(
        &self,
        caller: String,
        kind: Option<UserVariableType>,
    ) -> Result<Vec<UserVariable>, Failure> {
        let result = match self {
            Self::Sqlite(store) => store.list(caller, kind).await,
            #[cfg(feature = "postgres")]
            Self::Postgres(store) => store.list(caller, kind).await,
            #[cfg(not(feature = "postgres"))]
            Self::NoPostgres => no_postgres(),
        };
        self.counted(result)
    }

    /// The variable `caller` saved under `key`, if any.
    pub async fn get(&self, caller: String, key: String) -> Result<Option<UserVariable>, Failure> {
        let result = match self {
            Self::Sqlite(store) => store.get(caller, key).await,
            #[cfg(feature = "postgres")]
            Self::Postgres(store) => store.get(caller, key).await,
            #[cfg(not(feature = "postgres"))]
            Self::NoPostgres => no_postgres(),
        };
        self.counted(result)
    }

    /// `result`, with a store error logged and counted.
    fn counted<T>(&self, result: Result<T, Failure>) -> Result<T, Failure> {
        if let Err(failure) = &result {
            tracing::warn!(store = self.kind(), message = %failure.message, "saved-places store error");
            crate::telemetry::store_error(self.kind());
        }
        result
    }

    /// Which store this is, for logs and metrics (`sqlite`, `postgres`).
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Sqlite(_) => "sqlite",
            #[cfg(feature = "postgres")]
            Self::Postgres(_) => "postgres",
            #[cfg(not(feature = "postgres"))]
            Self::NoPostgres => "postgres",
        }
    }
}

/// A row's columns as a variable: its type and JSON value checked.
fn read_variable(
    key: String,
    kind: String,
    value: String,
    created_at: String,
    updated_at: String,
) -> Result<UserVariable, Failure> {
    let r#type = UserVariableType::parse(&kind)
        .ok_or_else(|| storage(format!("variable '{key}' has an unknown type '{kind}'")))?;
    let value = serde_json::from_str(&value)
        .map_err(|e| storage(format!("variable '{key}' has an unreadable value: {e}")))?;
    Ok(UserVariable {
        key,
        r#type,
        value,
        created_at,
        updated_at,
    })
}

/// The contract's storage error, saying what went wrong.
fn storage(message: String) -> Failure {
    Failure::new(
        DigitransitErrorCode::StorageError,
        format!("Saved places are unavailable: {message}."),
    )
}
