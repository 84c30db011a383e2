//! How long a client may keep what the server lists.

/// How long a host may keep a `tools/list`, `resources/list` or `prompts/list` answer
/// (`ttlMs`), or a view's page: the catalog, the prompts and the views are fixed for the
/// life of the process. A list's
/// scope is private, since what a caller sees depends on its scopes and headers.
pub(crate) const LIST_TTL_MS: u64 = 60 * 60 * 1000;
