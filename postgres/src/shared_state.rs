//! [`PostgresSharedState`]: the replicas' shared state in PostgreSQL, through
//! [`crate::database::Database`]. Every operation is one call of a function the migration
//! defines, so it is one round trip, atomic, and timed by the database's clock (replicas'
//! clocks may differ). The tables are `UNLOGGED`: fast, and what they hold is worth
//! losing in a crash (answers to refetch, a minute of budget, a second of limits).

use std::time::{Duration, SystemTime};

use futures_util::future::BoxFuture;

use toolpack::Secret;
use toolpack::database::{
    BudgetId, FIRST_DEADLINE, LeaseAsk, LeaseGrant, RequestId, SharedEntry, SharedLookup,
    SharedState,
};

use crate::database::{Database, Schema, sql};

/// Connections one replica keeps open at most for the shared state.
const POOL_SIZE: usize = 16;

/// The shared state's schema; `toolpack_shared_migrations` lists the migrations applied,
/// under an advisory lock whose key is "tpshared" in ASCII.
static SCHEMA: Schema = Schema {
    applied_table: "toolpack_shared_migrations",
    lock: 0x7470_7368_6172_6564,
    migrations: &[include_str!("shared_state.sql")],
};

/// The shared state at `TOOLPACK_DATABASE_URL`, for one replica.
#[derive(Debug)]
pub(crate) struct PostgresSharedState {
    database: Database,
    /// This replica, as the budget's count of replicas and the claims know it.
    replica: i64,
}

impl PostgresSharedState {
    /// The shared state at `url` (nothing is connected yet).
    pub fn new(url: Secret) -> Self {
        Self {
            database: Database::new(url, &SCHEMA, POOL_SIZE, FIRST_DEADLINE),
            replica: fastrand::i64(..),
        }
    }

    /// Runs `statement` (prepared once per connection) with `params`: its one row.
    async fn one_row(
        &self,
        statement: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<tokio_postgres::Row, String> {
        let client = self.database.client().await?;
        let prepared = client.prepare_cached(statement).await.map_err(sql)?;
        client.query_one(&prepared, params).await.map_err(sql)
    }
}

fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

fn from_millis(ms: i64) -> Duration {
    Duration::from_millis(u64::try_from(ms).unwrap_or(0))
}

impl SharedState for PostgresSharedState {
    fn lease<'a>(&'a self, ask: LeaseAsk<'a>) -> BoxFuture<'a, Result<LeaseGrant, String>> {
        Box::pin(async move {
            let per_window = i32::try_from(ask.per_window).unwrap_or(i32::MAX);
            let want = i32::try_from(ask.want).unwrap_or(i32::MAX);
            let row = self
                .one_row(
                    "SELECT granted, wait_ms, replicas FROM toolpack_lease($1, $2, $3, $4, $5, $6)",
                    &[
                        &ask.budget.family,
                        &ask.budget.key,
                        &per_window,
                        &want,
                        &millis(ask.window),
                        &self.replica,
                    ],
                )
                .await?;
            Ok(LeaseGrant {
                granted: u32::try_from(row.get::<_, i32>(0)).unwrap_or(0),
                wait: from_millis(row.get(1)),
                replicas: u32::try_from(row.get::<_, i32>(2)).unwrap_or(1),
            })
        })
    }

    fn pause<'a>(
        &'a self,
        budget: &'a BudgetId,
        wait: Duration,
    ) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            self.one_row(
                "SELECT toolpack_pause($1, $2, $3)",
                &[&budget.family, &budget.key, &millis(wait)],
            )
            .await
            .map(drop)
        })
    }

    fn lookup<'a>(
        &'a self,
        id: &'a RequestId,
        claim_for: Duration,
    ) -> BoxFuture<'a, Result<SharedLookup, String>> {
        Box::pin(async move {
            let row = self
                .one_row(
                    "SELECT status, headers, body, as_of, fresh_ms, stale_ms, claimed
                     FROM toolpack_cache_lookup($1, $2, $3)",
                    &[&&id.hash[..], &self.replica, &millis(claim_for)],
                )
                .await?;
            let entry = row.get::<_, Option<i32>>(0).map(|status| SharedEntry {
                status: u16::try_from(status).unwrap_or(0),
                headers: row.get(1),
                body: row.get(2),
                as_of: row.get::<_, SystemTime>(3),
                fresh_for: from_millis(row.get(4)),
                stale_for: from_millis(row.get(5)),
            });
            Ok(SharedLookup {
                entry,
                claimed: row.get(6),
            })
        })
    }

    fn put<'a>(
        &'a self,
        id: &'a RequestId,
        entry: SharedEntry,
    ) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            self.one_row(
                "SELECT toolpack_cache_put($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                &[
                    &&id.hash[..],
                    &id.request,
                    &i32::from(entry.status),
                    &entry.headers,
                    &entry.body,
                    &entry.as_of,
                    &millis(entry.fresh_for),
                    &millis(entry.stale_for),
                    &self.replica,
                ],
            )
            .await
            .map(drop)
        })
    }

    fn release<'a>(&'a self, id: &'a RequestId) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            self.one_row(
                "SELECT toolpack_cache_release($1, $2)",
                &[&&id.hash[..], &self.replica],
            )
            .await
            .map(drop)
        })
    }

    fn trim(&self, capacity: u64) -> BoxFuture<'_, Result<(), String>> {
        Box::pin(async move {
            let capacity = i64::try_from(capacity).unwrap_or(i64::MAX);
            self.one_row("SELECT toolpack_trim($1)", &[&capacity])
                .await
                .map(drop)
        })
    }

    fn caller_permit<'a>(
        &'a self,
        tool: &'a str,
        caller: &'a str,
        per_second: u32,
    ) -> BoxFuture<'a, Result<bool, String>> {
        Box::pin(async move {
            let per_second = i32::try_from(per_second).unwrap_or(i32::MAX);
            let row = self
                .one_row(
                    "SELECT toolpack_caller_permit($1, $2, $3)",
                    &[&tool, &caller, &per_second],
                )
                .await?;
            Ok(row.get(0))
        })
    }
}
