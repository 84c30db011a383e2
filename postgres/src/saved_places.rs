//! [`PostgresSavedPlaces`]: the saved places in PostgreSQL at `TOOLPACK_DATABASE_URL`
//! (libpq URL form), through [`crate::database::Database`] (the pool, TLS, recovery, migrations, the secret URL).
//! Every operation, connecting included, has [`DEADLINE`]: a database that is down or
//! hung answers the contract's `storage-error` in time, and never holds up other tools.

use std::time::Duration;

use futures_util::future::BoxFuture;
use toolpack::Secret;
use toolpack::database::{SavedPlaces, StoredVariable, Upserted};

use crate::database::{Database, Schema, sql};

/// How long one store operation may take, from waiting for a connection to the answer.
pub const DEADLINE: Duration = Duration::from_secs(5);

/// Connections one toolpack keeps open at most.
const POOL_SIZE: usize = 16;

/// The saved places' schema; `toolpack_schema_migrations` lists the migrations applied,
/// under an advisory lock whose key is "toolpack" in ASCII.
static SCHEMA: Schema = Schema {
    applied_table: "toolpack_schema_migrations",
    lock: 0x746f_6f6c_7061_636b,
    migrations: &[
        // 1: variables, one row per (caller, key); the value is the contract's JSON.
        "CREATE TABLE user_variables (
            caller TEXT NOT NULL,
            key TEXT NOT NULL,
            type TEXT NOT NULL CHECK (type IN ('location', 'preference', 'other')),
            value TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (caller, key)
        )",
    ],
};

/// The PostgreSQL store of one toolpack: the pool is made on first use.
#[derive(Debug)]
pub(crate) struct PostgresSavedPlaces {
    database: Database,
}

impl PostgresSavedPlaces {
    /// A store at `url` (nothing is connected yet).
    pub fn new(url: Secret) -> Self {
        Self {
            database: Database::new(url, &SCHEMA, POOL_SIZE, DEADLINE),
        }
    }

    /// `work` on a pooled connection to the migrated database, or the error when it takes
    /// longer than [`DEADLINE`] (connecting included).
    async fn within_deadline<T>(
        &self,
        work: impl AsyncFnOnce(deadpool_postgres::Object) -> Result<T, String>,
    ) -> Result<T, String> {
        let run = async { work(self.database.client().await?).await };
        tokio::time::timeout(DEADLINE, run)
            .await
            .unwrap_or_else(|_| {
                Err(format!(
                    "the database did not answer within {} s",
                    DEADLINE.as_secs()
                ))
            })
    }
}

impl SavedPlaces for PostgresSavedPlaces {
    /// Saves of one key are serialised by a transaction-scoped advisory lock, so each
    /// reports the one before it as `previous`.
    fn save<'a>(
        &'a self,
        caller: &'a str,
        variable: &'a StoredVariable,
    ) -> BoxFuture<'a, Result<Upserted, String>> {
        Box::pin(self.within_deadline(async move |mut client| {
            let StoredVariable {
                key, kind, value, updated_at, ..
            } = variable;
            let tx = client.transaction().await.map_err(sql)?;
            tx.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended($1 || chr(31) || $2, 0))",
                &[&caller, key],
            )
            .await
            .map_err(sql)?;
            let previous_type = tx
                .query_opt(
                    "SELECT type FROM user_variables WHERE caller = $1 AND key = $2",
                    &[&caller, key],
                )
                .await
                .map_err(sql)?
                .map(|row| row.get::<_, String>(0));
            let row = tx
                .query_one(
                    "INSERT INTO user_variables (caller, key, type, value, created_at, updated_at)
                     VALUES ($1, $2, $3, $4, $5, $5)
                     ON CONFLICT (caller, key) DO UPDATE SET
                       type = excluded.type, value = excluded.value, updated_at = excluded.updated_at
                     RETURNING created_at",
                    &[&caller, key, kind, value, updated_at],
                )
                .await
                .map_err(sql)?;
            tx.commit().await.map_err(sql)?;
            Ok(Upserted {
                previous_type,
                created_at: row.get(0),
            })
        }))
    }

    /// By key in byte order, as SQLite sorts.
    fn list<'a>(
        &'a self,
        caller: &'a str,
        kind: Option<&'a str>,
    ) -> BoxFuture<'a, Result<Vec<StoredVariable>, String>> {
        Box::pin(self.within_deadline(async move |client| {
            let rows = client
                .query(
                    "SELECT key, type, value, created_at, updated_at FROM user_variables
                     WHERE caller = $1 AND ($2::TEXT IS NULL OR type = $2)
                     ORDER BY key COLLATE \"C\"",
                    &[&caller, &kind],
                )
                .await
                .map_err(sql)?;
            Ok(rows.iter().map(read_row).collect())
        }))
    }

    fn get<'a>(
        &'a self,
        caller: &'a str,
        key: &'a str,
    ) -> BoxFuture<'a, Result<Option<StoredVariable>, String>> {
        Box::pin(self.within_deadline(async move |client| {
            let row = client
                .query_opt(
                    "SELECT key, type, value, created_at, updated_at FROM user_variables
                     WHERE caller = $1 AND key = $2",
                    &[&caller, &key],
                )
                .await
                .map_err(sql)?;
            Ok(row.as_ref().map(read_row))
        }))
    }
}

/// A row's columns, as stored.
fn read_row(row: &tokio_postgres::Row) -> StoredVariable {
    StoredVariable {
        key: row.get(0),
        kind: row.get(1),
        value: row.get(2),
        created_at: row.get(3),
        updated_at: row.get(4),
    }
}
