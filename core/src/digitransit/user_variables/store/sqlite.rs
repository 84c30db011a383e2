//! The embedded store: SQLite (bundled) at `TOOLPACK_DATA_DIR/digitransit.sqlite3`,
//! one row per (caller, key), so a caller only ever sees its own places; in WAL mode
//! with a busy timeout so two processes can write at once, its schema
//! versioned by `PRAGMA user_version` and migrated forward on open. A file that cannot be
//! opened (corrupt, read-only, newer schema) is never replaced or deleted: the call
//! answers `storage-error` and the file stays as it was.
#![allow(
    clippy::disallowed_methods,
    reason = "the SQLite store's I/O: every operation runs on the blocking pool (with_connection)"
)]

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior, params};

use super::{Upserted, read_variable, storage};
use crate::digitransit::response::Failure;
use crate::digitransit::user_variables::types::{
    UserVariable, UserVariableType, UserVariableValue,
};

/// The database file's name inside the data directory.
pub const DATABASE_FILE: &str = "digitransit.sqlite3";
/// How long a write waits for another writer before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Schema migrations, in order; `PRAGMA user_version` counts those applied.
const MIGRATIONS: &[&str] = &[
    // 1 (toolpack 0.1.0): one set of variables for everybody.
    "CREATE TABLE user_variables (
        key TEXT PRIMARY KEY NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('location', 'preference', 'other')),
        value TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    ) WITHOUT ROWID",
    // 2: variables belong to a caller; what existed becomes the local caller's, so a
    // single-user install keeps its places.
    "CREATE TABLE user_variables_by_caller (
        caller TEXT NOT NULL,
        key TEXT NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('location', 'preference', 'other')),
        value TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (caller, key)
    ) WITHOUT ROWID;
    INSERT INTO user_variables_by_caller (caller, key, type, value, created_at, updated_at)
        SELECT 'local', key, type, value, created_at, updated_at FROM user_variables;
    DROP TABLE user_variables;
    ALTER TABLE user_variables_by_caller RENAME TO user_variables;",
];

/// The SQLite store of one toolpack: opened on first use, kept open.
#[derive(Debug, Clone)]
pub(crate) struct SqliteStore {
    path: Option<PathBuf>,
    connection: Arc<Mutex<Option<Connection>>>,
}

impl SqliteStore {
    /// A store in `data_dir` (not opened yet); `None` when no data directory is known.
    pub fn new(data_dir: Option<PathBuf>) -> Self {
        Self {
            path: data_dir.map(|dir| dir.join(DATABASE_FILE)),
            connection: Arc::default(),
        }
    }

    /// Saves `value` under `caller`'s `key` (replacing what was there), at `now`.
    pub async fn save(
        &self,
        caller: String,
        key: String,
        kind: UserVariableType,
        value: &UserVariableValue,
        now: String,
    ) -> Result<Upserted, Failure> {
        let json = serde_json::to_string(value).map_err(|e| storage(e.to_string()))?;
        self.with_connection(move |connection| {
            let tx = connection
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(sql_failure)?;
            let before: Option<(String, String)> = tx
                .query_row(
                    "SELECT type, created_at FROM user_variables WHERE caller = ?1 AND key = ?2",
                    params![caller, key],
                    |row| Ok((row.get(0)?, row.get(1)?)),
                )
                .optional()
                .map_err(sql_failure)?;
            let created_at = before.as_ref().map_or(now.clone(), |(_, c)| c.clone());
            tx.execute(
                "INSERT INTO user_variables (caller, key, type, value, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT (caller, key) DO UPDATE SET
                   type = excluded.type, value = excluded.value, updated_at = excluded.updated_at",
                params![caller, key, kind.as_str(), json, created_at, now],
            )
            .map_err(sql_failure)?;
            tx.commit().map_err(sql_failure)?;
            Ok(Upserted {
                previous_type: before.map(|(t, _)| t),
                created_at,
            })
        })
        .await
    }

    /// Every variable `caller` saved (of `kind` when given), by key.
    pub async fn list(
        &self,
        caller: String,
        kind: Option<UserVariableType>,
    ) -> Result<Vec<UserVariable>, Failure> {
        self.with_connection(move |connection| {
            let mut statement = connection
                .prepare_cached(
                    "SELECT key, type, value, created_at, updated_at FROM user_variables
                     WHERE caller = ?1 AND (?2 IS NULL OR type = ?2) ORDER BY key",
                )
                .map_err(sql_failure)?;
            let rows = statement
                .query_map(
                    params![caller, kind.map(UserVariableType::as_str)],
                    read_row,
                )
                .map_err(sql_failure)?;
            rows.map(|row| row.map_err(sql_failure).and_then(|r| r))
                .collect()
        })
        .await
    }

    /// The variable `caller` saved under `key`, if any.
    pub async fn get(&self, caller: String, key: String) -> Result<Option<UserVariable>, Failure> {
        self.with_connection(move |connection| {
            connection
                .prepare_cached(
                    "SELECT key, type, value, created_at, updated_at FROM user_variables
                     WHERE caller = ?1 AND key = ?2",
                )
                .map_err(sql_failure)?
                .query_row(params![caller, key], read_row)
                .optional()
                .map_err(sql_failure)?
                .transpose()
        })
        .await
    }

    /// Runs `work` on the open connection, on a blocking thread (a write may wait up to
    /// [`BUSY_TIMEOUT`] for another process).
    async fn with_connection<T, F>(&self, work: F) -> Result<T, Failure>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T, Failure> + Send + 'static,
    {
        let Some(path) = self.path.clone() else {
            return Err(storage(
                "no data directory is known: set TOOLPACK_DATA_DIR (or HOME)".into(),
            ));
        };
        let connection = Arc::clone(&self.connection);
        tokio::task::spawn_blocking(move || {
            let mut guard = connection.lock().unwrap_or_else(|p| p.into_inner());
            if guard.is_none() {
                *guard = Some(open(&path)?);
            }
            match guard.as_mut() {
                Some(open) => work(open),
                None => Err(storage("the database is not open".into())),
            }
        })
        .await
        .unwrap_or_else(|_| Err(storage("the database task failed".into())))
    }
}

/// Opens (creating when missing) and migrates the database at `path`.
fn open(path: &Path) -> Result<Connection, Failure> {
    let shown = path.display();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| {
            storage(format!(
                "cannot create the data directory {}: {e}",
                dir.display()
            ))
        })?;
    }
    let mut connection = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| storage(format!("cannot open {shown}: {e}")))?;
    connection
        .busy_timeout(BUSY_TIMEOUT)
        .map_err(|e| storage(format!("cannot configure {shown}: {e}")))?;
    // WAL lets readers and one writer work at once; a read-only file keeps its mode.
    let _ = connection.pragma_update(None, "journal_mode", "WAL");
    let _ = connection.pragma_update(None, "synchronous", "NORMAL");
    migrate(&mut connection).map_err(|f| storage(format!("{shown}: {}", f.message)))?;
    Ok(connection)
}

/// Applies the migrations not yet applied, in one write transaction (re-reading the
/// version inside it, in case another process migrated first); refuses a database whose
/// schema is newer than this build knows. An up-to-date database is only read, so a
/// read-only one still answers reads.
fn migrate(connection: &mut Connection) -> Result<(), Failure> {
    let current = MIGRATIONS.len();
    if schema_version(connection)? == current {
        return Ok(());
    }
    let tx = connection
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(sql_failure)?;
    let version = schema_version(&tx)?;
    for migration in &MIGRATIONS[version..] {
        tx.execute_batch(migration).map_err(sql_failure)?;
    }
    tx.pragma_update(None, "user_version", current)
        .map_err(sql_failure)?;
    tx.commit().map_err(sql_failure)
}

fn schema_version(connection: &Connection) -> Result<usize, Failure> {
    let version: usize = connection
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .map_err(sql_failure)?;
    if version > MIGRATIONS.len() {
        return Err(storage(format!(
            "its schema version {version} is newer than this toolpack knows ({}); upgrade toolpack",
            MIGRATIONS.len()
        )));
    }
    Ok(version)
}

fn read_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Result<UserVariable, Failure>> {
    Ok(read_variable(
        row.get(0)?,
        row.get(1)?,
        row.get(2)?,
        row.get(3)?,
        row.get(4)?,
    ))
}

fn sql_failure(error: rusqlite::Error) -> Failure {
    storage(error.to_string())
}
