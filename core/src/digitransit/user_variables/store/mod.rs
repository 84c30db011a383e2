//! The saved-variables store: SQLite in the data directory (the embedded default, one
//! machine), or the database at `TOOLPACK_DATABASE_URL` (replicas share it), opened by the
//! engine the program supplies ([`crate::database::Database`]: PostgreSQL in the server).
//! Both keep one row per (caller, key) and behave the same: the same shared vectors run on
//! both. Without an engine (the Python, Node and Kotlin libraries), a database URL makes
//! every call fail with the storage error, rather than saving anywhere else.

mod sqlite;

use std::sync::Arc;

use super::types::{PreviousVariable, UserVariable, UserVariableType, UserVariableValue};
use crate::config::Config;
use crate::database::{SavedPlaces, StoredVariable, Upserted};
use crate::digitransit::response::{DigitransitErrorCode, Failure};

pub use sqlite::DATABASE_FILE;

/// The saved-variables store of one toolpack.
#[derive(Debug)]
pub(crate) enum UserStore {
    /// SQLite in the data directory.
    Sqlite(sqlite::SqliteStore),
    /// The database at `TOOLPACK_DATABASE_URL`, opened by the engine the program supplied.
    Database {
        /// The engine's name (`postgres`).
        engine: &'static str,
        /// Its store.
        store: Arc<dyn SavedPlaces>,
    },
    /// `TOOLPACK_DATABASE_URL` is set, but the program supplied no engine to open it.
    NoEngine,
}

/// The failure of every call of a store configured for a database no engine opens.
fn no_engine<T>() -> Result<T, Failure> {
    Err(storage(
        "TOOLPACK_DATABASE_URL is set, but this build has no database engine (the \
toolpack-mcp server has PostgreSQL)"
            .into(),
    ))
}

impl UserStore {
    /// The store `config` asks for (nothing is opened yet).
    pub fn new(config: &Config) -> Self {
        match (config.database_url(), config.database()) {
            (Some(url), Some(engine)) => Self::Database {
                engine: engine.name(),
                store: engine.saved_places(url),
            },
            (Some(_), None) => Self::NoEngine,
            (None, _) => Self::Sqlite(sqlite::SqliteStore::new(config.data_dir())),
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
            Self::Database { store, .. } => {
                let stored = StoredVariable {
                    key: key.clone(),
                    kind: kind.as_str().to_owned(),
                    value: serde_json::to_string(&value).map_err(|e| storage(e.to_string()))?,
                    created_at: now.clone(),
                    updated_at: now.clone(),
                };
                store.save(&caller, &stored).await.map_err(storage)
            }
            Self::NoEngine => no_engine(),
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
            Self::Database { store, .. } => match store
                .list(&caller, kind.map(UserVariableType::as_str))
                .await
            {
                Ok(rows) => rows.into_iter().map(read_stored).collect(),
                Err(message) => Err(storage(message)),
            },
            Self::NoEngine => no_engine(),
        };
        self.counted(result)
    }

    /// The variable `caller` saved under `key`, if any.
    pub async fn get(&self, caller: String, key: String) -> Result<Option<UserVariable>, Failure> {
        let result = match self {
            Self::Sqlite(store) => store.get(caller, key).await,
            Self::Database { store, .. } => match store.get(&caller, &key).await {
                Ok(row) => row.map(read_stored).transpose(),
                Err(message) => Err(storage(message)),
            },
            Self::NoEngine => no_engine(),
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

    /// Which store this is, for logs and metrics (`sqlite`, `postgres`; `database` when
    /// no engine opens the URL).
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Sqlite(_) => "sqlite",
            Self::Database { engine, .. } => engine,
            Self::NoEngine => "database",
        }
    }
}

/// A stored variable as the contract's: its type and JSON value checked.
fn read_stored(row: StoredVariable) -> Result<UserVariable, Failure> {
    read_variable(row.key, row.kind, row.value, row.created_at, row.updated_at)
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
