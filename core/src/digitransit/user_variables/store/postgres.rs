//! The shared store: PostgreSQL at `TOOLPACK_DATABASE_URL` (libpq URL form), through a
//! connection pool (deadpool + tokio-postgres; TLS through rustls when the URL's
//! `sslmode` asks for it).
//!
//! - **Deadlines.** Every operation, connecting included, has [`DEADLINE`]: a database
//!   that is down or hung answers the contract's `storage-error` in time, and never holds
//!   up other tools.
//! - **Recovery.** Connections are checked before reuse, so after an outage the next call
//!   connects afresh: no restart needed.
//! - **Migrations.** Versioned and forward-only, applied on first use under a
//!   transaction-scoped advisory lock, so replicas starting at once migrate once.
//! - **Secrets.** The URL is a [`Secret`]; no error or `Debug` shows the password.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};

use super::{Upserted, read_variable, storage};
use crate::digitransit::response::Failure;
use crate::digitransit::user_variables::types::{
    UserVariable, UserVariableType, UserVariableValue,
};
use crate::secret::Secret;

/// How long one store operation may take, from waiting for a connection to the answer.
pub const DEADLINE: Duration = Duration::from_secs(5);

/// Connections one toolpack keeps open at most.
const POOL_SIZE: usize = 16;

/// The advisory-lock key migrations run under (any fixed number; "toolpack" in ASCII).
const MIGRATION_LOCK: i64 = 0x746f_6f6c_7061_636b;

/// Schema migrations, in order; `toolpack_schema_migrations` lists those applied.
const MIGRATIONS: &[&str] = &[
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
];

/// The PostgreSQL store of one toolpack: the pool is made on first use.
pub(crate) struct PostgresStore {
    url: Secret,
    pool: tokio::sync::OnceCell<Result<Pool, String>>,
    migrated: AtomicBool,
}

impl std::fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresStore")
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

impl PostgresStore {
    /// A store at `url` (nothing is connected yet).
    pub fn new(url: Secret) -> Self {
        Self {
            url,
            pool: tokio::sync::OnceCell::new(),
            migrated: AtomicBool::new(false),
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
        let pool = self
            .pool
            .get_or_init(|| {
                // Reading the platform's root certificates blocks: off the executor.
                let url = self.url.clone();
                async move {
                    tokio::task::spawn_blocking(move || build_pool(&url))
                        .await
                        .unwrap_or_else(|e| Err(format!("cannot make the connection pool: {e}")))
                }
            })
            .await
            .as_ref()
            .map_err(|e| storage(e.clone()))?;
        let mut client = pool
            .get()
            .await
            .map_err(|e| storage(format!("cannot connect to the database: {}", causes(&e))))?;
        if !self.migrated.load(Ordering::Acquire) {
            migrate(&mut client).await?;
            self.migrated.store(true, Ordering::Release);
        }
        Ok(client)
    }
}

/// The pool for `url`: connections made on demand, checked before reuse, each wait
/// bounded by [`DEADLINE`].
fn build_pool(url: &Secret) -> Result<Pool, String> {
    let config: tokio_postgres::Config = url
        .expose()
        .parse()
        .map_err(|_| "TOOLPACK_DATABASE_URL is not a PostgreSQL URL".to_owned())?;
    let manager = Manager::from_config(
        config,
        tls()?,
        ManagerConfig {
            recycling_method: RecyclingMethod::Verified,
        },
    );
    Pool::builder(manager)
        .max_size(POOL_SIZE)
        .wait_timeout(Some(DEADLINE))
        .create_timeout(Some(DEADLINE))
        .recycle_timeout(Some(DEADLINE))
        .runtime(Runtime::Tokio1)
        .build()
        .map_err(|e| format!("cannot make the connection pool: {e}"))
}

/// TLS through rustls with the platform's root certificates (read from disk: it blocks);
/// used when the URL's `sslmode` asks for it (`prefer`, the default, falls back to plain
/// when the server has no TLS).
fn tls() -> Result<tokio_postgres_rustls::MakeRustlsConnect, String> {
    crate::http::platform_tls_config().map(tokio_postgres_rustls::MakeRustlsConnect::new)
}

/// Applies the migrations not yet applied, in one transaction holding the migration
/// advisory lock (so replicas starting at once take turns); refuses a database whose
/// schema is newer than this build knows.
async fn migrate(client: &mut deadpool_postgres::Object) -> Result<(), Failure> {
    let tx = client.transaction().await.map_err(sql)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await
        .map_err(sql)?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS toolpack_schema_migrations (
            version INTEGER PRIMARY KEY,
            applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )",
    )
    .await
    .map_err(sql)?;
    let applied: i32 = tx
        .query_one(
            "SELECT COALESCE(MAX(version), 0) FROM toolpack_schema_migrations",
            &[],
        )
        .await
        .map_err(sql)?
        .get(0);
    let applied = applied as usize;
    if applied > MIGRATIONS.len() {
        return Err(storage(format!(
            "the database schema version {applied} is newer than this toolpack knows ({}); upgrade toolpack",
            MIGRATIONS.len()
        )));
    }
    for (index, migration) in MIGRATIONS.iter().enumerate().skip(applied) {
        tx.batch_execute(migration).await.map_err(sql)?;
        let version = (index + 1) as i32;
        tx.execute(
            "INSERT INTO toolpack_schema_migrations (version) VALUES ($1)",
            &[&version],
        )
        .await
        .map_err(sql)?;
    }
    tx.commit().await.map_err(sql)
}

fn read_row(row: &tokio_postgres::Row) -> Result<UserVariable, Failure> {
    read_variable(row.get(0), row.get(1), row.get(2), row.get(3), row.get(4))
}

/// The storage error of a database error (its text names no password).
/// `error` and its sources, joined by `: ` (the pool's error alone hides why, e.g. which
/// certificate check failed). No source holds the password: the URL is never in them.
fn causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let next = cause.to_string();
        if !text.ends_with(&next) {
            text = format!("{text}: {next}");
        }
        source = cause.source();
    }
    text
}

fn sql(error: tokio_postgres::Error) -> Failure {
    let detail = error
        .as_db_error()
        .map_or_else(|| error.to_string(), |db| db.message().to_owned());
    storage(format!("database error: {detail}"))
}
