//! PostgreSQL at `TOOLPACK_DATABASE_URL`: one lazily made connection pool per store
//! (deadpool + tokio-postgres; TLS through rustls when the URL's `sslmode` asks for it) and
//! versioned, forward-only migrations. The saved places ([`crate::saved_places`]) and the
//! upstream layer's shared state ([`crate::shared_state`]) each keep their own schema
//! through it.
//!
//! - **Deadlines.** Waiting for, making and checking a connection are each bounded by the
//!   deadline its user gives: a database that is down or hung is an error in time.
//! - **Recovery.** Connections are checked before reuse, so after an outage the next use
//!   connects afresh: no restart needed.
//! - **Migrations.** Applied on first use under a transaction-scoped advisory lock, so
//!   replicas starting at once migrate once.
//! - **Secrets.** The URL is a [`Secret`]; no error or `Debug` shows the password.

use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod, Runtime};

use toolpack::Secret;

/// A schema one user of the database keeps: its migrations, in order, and the table that
/// lists those applied.
#[derive(Debug)]
pub(crate) struct Schema {
    /// The table listing the applied migrations (one per schema).
    pub applied_table: &'static str,
    /// The advisory-lock key migrations run under (any fixed number, one per schema).
    pub lock: i64,
    /// The migrations, in order.
    pub migrations: &'static [&'static str],
}

/// A database at a URL: the pool is made on first use, the schema migrated on the first
/// connection.
pub(crate) struct Database {
    url: Secret,
    pool_size: usize,
    deadline: Duration,
    schema: &'static Schema,
    pool: tokio::sync::OnceCell<Result<Pool, String>>,
    /// Set once the schema is migrated; the first connections wait for one migration.
    migrated: tokio::sync::OnceCell<()>,
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Database")
            .field("url", &self.url)
            .field("schema", &self.schema.applied_table)
            .finish_non_exhaustive()
    }
}

impl Database {
    /// The database at `url` keeping `schema`, with at most `pool_size` connections, each
    /// wait for one bounded by `deadline` (nothing is connected yet).
    pub fn new(url: Secret, schema: &'static Schema, pool_size: usize, deadline: Duration) -> Self {
        Self {
            url,
            pool_size,
            deadline,
            schema,
            pool: tokio::sync::OnceCell::new(),
            migrated: tokio::sync::OnceCell::new(),
        }
    }

    /// A pooled connection to the migrated database; the error says why not (no password).
    pub async fn client(&self) -> Result<Object, String> {
        let pool = self
            .pool
            .get_or_init(|| {
                // Reading the platform's root certificates blocks: off the executor.
                let (url, size, deadline) = (self.url.clone(), self.pool_size, self.deadline);
                async move {
                    tokio::task::spawn_blocking(move || build_pool(&url, size, deadline))
                        .await
                        .unwrap_or_else(|e| Err(format!("cannot make the connection pool: {e}")))
                }
            })
            .await
            .as_ref()
            .map_err(Clone::clone)?;
        let mut client = pool
            .get()
            .await
            .map_err(|e| format!("cannot connect to the database: {}", causes(&e)))?;
        self.migrated
            .get_or_try_init(|| migrate(&mut client, self.schema))
            .await?;
        Ok(client)
    }
}

/// The pool for `url`: connections made on demand, checked before reuse, each wait
/// bounded by `deadline`.
fn build_pool(url: &Secret, size: usize, deadline: Duration) -> Result<Pool, String> {
    let mut config: tokio_postgres::Config = url
        .expose()
        .parse()
        .map_err(|_| "TOOLPACK_DATABASE_URL is not a PostgreSQL URL".to_owned())?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(deadline);
    }
    let manager = Manager::from_config(
        config,
        tls()?,
        ManagerConfig {
            recycling_method: RecyclingMethod::Verified,
        },
    );
    Pool::builder(manager)
        .max_size(size)
        .wait_timeout(Some(deadline))
        .create_timeout(Some(deadline))
        .recycle_timeout(Some(deadline))
        .runtime(Runtime::Tokio1)
        .build()
        .map_err(|e| format!("cannot make the connection pool: {e}"))
}

/// TLS through rustls with the platform's root certificates (read from disk: it blocks);
/// used when the URL's `sslmode` asks for it (`prefer`, the default, falls back to plain
/// when the server has no TLS).
fn tls() -> Result<tokio_postgres_rustls::MakeRustlsConnect, String> {
    toolpack::http::platform_tls_config().map(tokio_postgres_rustls::MakeRustlsConnect::new)
}

/// Applies the migrations of `schema` not yet applied, in one transaction holding its
/// advisory lock (so replicas starting at once take turns); refuses a database whose
/// schema is newer than this build knows.
async fn migrate(client: &mut Object, schema: &Schema) -> Result<(), String> {
    let tx = client.transaction().await.map_err(sql)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&schema.lock])
        .await
        .map_err(sql)?;
    tx.batch_execute(&format!(
        "CREATE TABLE IF NOT EXISTS {} (
            version INTEGER PRIMARY KEY,
            applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )",
        schema.applied_table
    ))
    .await
    .map_err(sql)?;
    let applied: i32 = tx
        .query_one(
            &format!(
                "SELECT COALESCE(MAX(version), 0) FROM {}",
                schema.applied_table
            ),
            &[],
        )
        .await
        .map_err(sql)?
        .get(0);
    let applied = applied as usize;
    if applied > schema.migrations.len() {
        return Err(format!(
            "the database schema version {applied} is newer than this toolpack knows ({}); upgrade toolpack",
            schema.migrations.len()
        ));
    }
    for (index, migration) in schema.migrations.iter().enumerate().skip(applied) {
        tx.batch_execute(migration).await.map_err(sql)?;
        let version = (index + 1) as i32;
        tx.execute(
            &format!("INSERT INTO {} (version) VALUES ($1)", schema.applied_table),
            &[&version],
        )
        .await
        .map_err(sql)?;
    }
    tx.commit().await.map_err(sql)
}

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

/// What a database error says (the server's message when it sent one); never a password.
pub(crate) fn sql(error: tokio_postgres::Error) -> String {
    let detail = error
        .as_db_error()
        .map_or_else(|| error.to_string(), |db| db.message().to_owned());
    format!("database error: {detail}")
}
