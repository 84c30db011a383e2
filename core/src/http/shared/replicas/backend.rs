//! [`Backend`]: what the replicas of one key share, whatever holds it (PostgreSQL now; a
//! Valkey or Redis backend would be a second implementation), and the records that cross it.
//! Every operation may fail: the caller ([`super::Replicas`]) falls back to the replica's
//! own state.

use std::time::{Duration, SystemTime};

use futures_util::future::BoxFuture;

/// One key's budget across replicas: the family and a fingerprint of the key (never the key).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BudgetId {
    /// The family's name (`tfl`, `digitransit`).
    pub family: &'static str,
    /// A stable fingerprint of the key (hex), the same on every replica.
    pub key: String,
}

/// A replica asks for tokens of a budget.
#[derive(Debug)]
pub struct LeaseAsk<'a> {
    /// Whose tokens.
    pub budget: &'a BudgetId,
    /// Requests the key may send in one window, over every replica.
    pub per_window: u32,
    /// The window: a minute, and the life of a lease (2 s, which the shared budget also
    /// counts each lease for).
    pub window: Duration,
    /// Tokens wanted (at most; fewer may be granted).
    pub want: u32,
}

/// What a lease asked for got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeaseGrant {
    /// Tokens granted (0: none now).
    pub granted: u32,
    /// With none granted: how long until one may be (the budget refills, or a pause ends).
    pub wait: Duration,
    /// Replicas that asked for tokens in the last minute, this one included.
    pub replicas: u32,
}

/// An upstream answer as the replicas share it: what the layer keeps, never the key.
#[derive(Debug, Clone)]
pub struct SharedEntry {
    /// The HTTP status.
    pub status: u16,
    /// The response headers, one `name: value` per line.
    pub headers: String,
    /// The body as the upstream sent it.
    pub body: Vec<u8>,
    /// When it was fetched.
    pub as_of: SystemTime,
    /// How long it stays fresh from now (zero: past fresh, only good in place of an error).
    pub fresh_for: Duration,
    /// How long it may still stand in for an error from now.
    pub stale_for: Duration,
}

/// What the shared cache held for a request.
#[derive(Debug)]
pub struct SharedLookup {
    /// The answer kept, fresh or not.
    pub entry: Option<SharedEntry>,
    /// Whether this replica now fetches the request for every replica (no fresh answer was
    /// there and no other replica was fetching it).
    pub claimed: bool,
}

/// A request's identity across replicas: the SHA-256 of its cache key, and the key (never
/// holding the API key) kept beside it for operators.
#[derive(Debug, Clone)]
pub struct RequestId {
    /// SHA-256 of `request`.
    pub hash: [u8; 32],
    /// Method, URL, query, plain headers and body.
    pub request: String,
}

/// Where the replicas' shared state lives. Each call is one round trip at most.
pub trait Backend: Send + Sync + std::fmt::Debug {
    /// Takes up to `ask.want` tokens of a budget; says how many replicas use budgets.
    fn lease<'a>(&'a self, ask: LeaseAsk<'a>) -> BoxFuture<'a, Result<LeaseGrant, String>>;
    /// The upstream asked a key to send nothing for `wait` (a `Retry-After`): every
    /// replica's leases of it wait.
    fn pause<'a>(
        &'a self,
        budget: &'a BudgetId,
        wait: Duration,
    ) -> BoxFuture<'a, Result<(), String>>;
    /// The shared answer to a request; when none is fresh, claims the fetching of it
    /// for `claim_for` unless another replica holds the claim.
    fn lookup<'a>(
        &'a self,
        id: &'a RequestId,
        claim_for: Duration,
    ) -> BoxFuture<'a, Result<SharedLookup, String>>;
    /// Keeps `entry` for every replica and gives up this replica's claim.
    fn put<'a>(
        &'a self,
        id: &'a RequestId,
        entry: SharedEntry,
    ) -> BoxFuture<'a, Result<(), String>>;
    /// Gives up this replica's claim without an answer to share.
    fn release<'a>(&'a self, id: &'a RequestId) -> BoxFuture<'a, Result<(), String>>;
    /// Forgets the answers no longer good even in place of an error, then the least fresh
    /// ones until the cache holds at most `capacity` bytes; forgets idle claims, limits
    /// and replicas.
    fn trim(&self, capacity: u64) -> BoxFuture<'_, Result<(), String>>;
    /// Takes one call of `tool` for `caller` under a limit of `per_second` (a burst of as
    /// many), over every replica: whether it may run.
    fn caller_permit<'a>(
        &'a self,
        tool: &'a str,
        caller: &'a str,
        per_second: u32,
    ) -> BoxFuture<'a, Result<bool, String>>;
}
