//! The settings every family shares: where data lives, upstream timeouts, the default
//! local rate limit.

use std::path::PathBuf;
use std::time::Duration;

use super::setting::{millis, number, path, secret, settings_table};
use crate::secret::Secret;

/// Default local rate limit per tool, in calls per second.
pub const DEFAULT_RATE_LIMIT_PER_SECOND: u32 = 5;

settings_table! {
    /// The settings every family shares.
    CommonSettings {
        /// Home directory, used for the default station-data path and data directory.
        home_dir: Option<PathBuf> = None, HOME, path;
        /// Where toolpack keeps data that must persist (the Digitransit saved places).
        /// Default: the platform's per-user data directory + `/toolpack`.
        data_dir: Option<PathBuf> = None, TOOLPACK_DATA_DIR, path;
        /// The XDG per-user data directory (Linux), for the default data directory.
        xdg_data_home: Option<PathBuf> = None, XDG_DATA_HOME, path;
        /// The roaming application-data directory (Windows), for the default data directory.
        appdata_dir: Option<PathBuf> = None, APPDATA, path;
        /// Overrides every upstream timeout, in milliseconds.
        upstream_timeout: Option<Duration> = None, TOOLPACK_UPSTREAM_TIMEOUT_MS, millis;
        /// Default local rate limit of every tool that calls an upstream API, per caller, in
        /// calls per second (default 5; 0 = off).
        default_rate_limit: u32 = DEFAULT_RATE_LIMIT_PER_SECOND, TOOLPACK_RATE_LIMIT_PER_SECOND, number;
        /// A PostgreSQL URL (`postgres://user:password@host:port/db`, libpq form) for the
        /// state replicas share (the saved places); unset: SQLite in the data directory.
        /// A secret: it carries the password.
        database_url: Option<Secret> = None, TOOLPACK_DATABASE_URL, secret;
    }
}
