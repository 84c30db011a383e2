//! The shared store: PostgreSQL at `TOOLPACK_DATABASE_URL` (libpq URL form), through
//! [`crate::postgres::Database`] (the pool, TLS, recovery, migrations, the secret URL).
//! Every operation, connecting included, has [`DEADLINE`]: a database that is down or
//! hung answers the contract's `storage-error` in time, and never holds up other tools.

use std::time::Duration;

use super::{Upserted, read_variable, storage};
use crate::digitransit::response::Failure;
use crate::digitransit::user_variables::types::{
    UserVariable, UserVariableType, UserVariableValue,
};
use crate::postgres::{Database, Schema};
use crate::secret::Secret;

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
pub(crate) struct PostgresStore {
    database: Database,
}

impl PostgresStore {
    /// A store at `url` (nothing is connected yet).
    pub fn new(url: Secret) -> Self {
        Self {
            database: Database::new(url, &SCHEMA, POOL_SIZE, DEADLINE),
        }
    }

    /// Saves `value` under `caller`'s `key` (replacing what was there), at `now`.
    /// Saves of one key are serialised by a transaction-scoped advisory lock, so each
    /// reports the one before it as `previous`.
    pub async fn save(
        &self,
        caller: String,
        key: String,
        kind: UserVariableType,
        value: &UserVariableValue,
        now: String,
    ) -> Result<Upserted, Failure> {
        let json = serde_json::to_string(value).map_err(|e| storage(e.to_string()))?;
        let (before, created_at) = self
            .within_deadline(async {
                let mut client = self.client().await?;
                let tx = client.transaction().await.map_err(sql)?;
                tx.execute(
                    "SELECT pg_advisory_xact_lock(hashtextextended($1 || chr(31) || $2, 0))",
                    &[&caller, &key],
                )
                .await
                .map_err(sql)?;
                let before = tx
                    .query_opt(
                        "SELECT type FROM user_variables WHERE caller = $1 AND key = $2",
                        &[&caller, &key],
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
                        &[&caller, &key, &kind.as_str(), &json, &now],
                    )
                    .await
                    .map_err(sql)?;
                tx.commit().await.map_err(sql)?;
                Ok((before, row.get::<_, String>(0)))
            })
            .await?;
        Ok(Upserted {
            previous_type: before,
            created_at,
        })
    }

    /// Every variable `caller` saved (of `kind` when given), by key (byte order, as
    /// SQLite sorts).
    pub async fn list(
        &self,
        caller: String,
        kind: Option<UserVariableType>,
    ) -> Result<Vec<UserVariable>, Failure> {
        let kind = kind.map(UserVariableType::as_str);
        let rows = self
            .within_deadline(async {
                let client = self.client().await?;
                client
                    .query(
                        "SELECT key, type, value, created_at, updated_at FROM user_variables
                         WHERE caller = $1 AND ($2::TEXT IS NULL OR type = $2)
                         ORDER BY key COLLATE \"C\"",
                        &[&caller, &kind],
                    )
                    .await
                    .map_err(sql)
            })
            .await?;
        rows.iter().map(read_row).collect()
    }

    /// The variable `caller` saved under `key`, if any.
    pub async fn get(&self, caller: String, key: String) -> Result<Option<UserVariable>, Failure> {
        let row = self
            .within_deadline(async {
                let client = self.client().await?;
                client
                    .query_opt(
                        "SELECT key, type, value, created_at, updated_at FROM user_variables
                         WHERE caller = $1 AND key = $2",
                        &[&caller, &key],
                    )
                    .await
                    .map_err(sql)
            })
            .await?;
        row.as_ref().map(read_row).transpose()
    }

    /// `work`, or the storage error when it takes longer than [`DEADLINE`].
    async fn within_deadline<T>(
        &self,
        work: impl Future<Output = Result<T, Failure>>,
    ) -> Result<T, Failure> {
        tokio::time::timeout(DEADLINE, work)
            .await
            .unwrap_or_else(|_| {
                Err(storage(format!(
                    "the database did not answer within {} s",
                    DEADLINE.as_secs()
                )))
            })
    }

    /// A pooled connection to a migrated database.
    async fn client(&self) -> Result<deadpool_postgres::Object, Failure> {
        self.database.client().await.map_err(storage)
    }
}

fn read_row(row: &tokio_postgres::Row) -> Result<UserVariable, Failure> {
    read_variable(row.get(0), row.get(1), row.get(2), row.get(3), row.get(4))
}

/// The storage error of a database error (its text names no password).
fn sql(error: tokio_postgres::Error) -> Failure {
    storage(crate::postgres::sql(error))
}
