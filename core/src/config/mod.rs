//! Configuration: one [`Config`] built with [`ConfigBuilder`], from the environment
//! ([`Config::from_env`]) or from any name → value lookup ([`Config::from_lookup`]).
//!
//! Each family owns its settings table (`tfl`, `digitransit`, `loko`, and `common` for
//! what they share), where each setting is written once: its environment
//! name, type, default, parser and doc. The same names are the keys the bindings and the
//! shared test vectors use, so there is one parsing path. This module composes the
//! tables, adds the per-tool rate limits, and keeps the typed getters and setters.

mod common;
mod digitransit;
mod loko;
mod setting;
mod tfl;
mod upstream;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::database::Database;
use crate::secret::Secret;
use crate::toolset::Toolset;

use common::CommonSettings;
use digitransit::DigitransitSettings;
use loko::LokoSettings;
use setting::{non_blank_secret, trim_url};
use tfl::TflSettings;
use upstream::UpstreamSettings;

pub use common::DEFAULT_RATE_LIMIT_PER_SECOND;
pub use digitransit::{DEFAULT_DIGITRANSIT_BASE_URL, DigitransitRouter, HfpSettings, HfpUrl};
pub use setting::{ConfigError, SettingInfo};
pub use tfl::DEFAULT_TFL_API_BASE_URL;
pub use upstream::DEFAULT_UPSTREAM_CACHE_BYTES;

/// The environment names of every setting, from every family's table.
pub mod env {
    pub use super::common::env::*;
    pub use super::digitransit::env::*;
    pub use super::loko::env::*;
    pub use super::tfl::env::*;
    pub use super::upstream::env::*;

    /// Prefix of the per-tool rate limit: `TOOLPACK_RATE_LIMIT_` + the tool name in
    /// upper snake case, e.g. `TOOLPACK_RATE_LIMIT_STATION_TOILETS=10`.
    pub const TOOLPACK_RATE_LIMIT_PREFIX: &str = "TOOLPACK_RATE_LIMIT_";
}

/// The contract's default station-data directory, relative to the home directory.
pub const DEFAULT_STATION_DATA_SUBDIR: &str = "Downloads/TfL station data detailed";

/// Every setting of a [`crate::Toolpack`]. Build it with [`Config::builder`],
/// [`Config::from_env`] or [`Config::from_lookup`]. Its `Debug` output shows keys as
/// `[REDACTED]`.
#[derive(Clone, Debug, Default)]
pub struct Config {
    common: CommonSettings,
    tfl: TflSettings,
    digitransit: DigitransitSettings,
    loko: LokoSettings,
    upstream: UpstreamSettings,
    /// `TOOLPACK_RATE_LIMIT_<TOOL>` → calls per second.
    rate_limits: BTreeMap<String, u32>,
    /// The engine that opens `TOOLPACK_DATABASE_URL`, when the program supplies one.
    database: Option<Arc<dyn Database>>,
}

impl Config {
    /// A builder starting from the defaults (no keys, public base URLs).
    pub fn builder() -> ConfigBuilder {
        ConfigBuilder::default()
    }

    /// A builder starting from this configuration, to change some settings.
    pub fn to_builder(&self) -> ConfigBuilder {
        ConfigBuilder {
            config: self.clone(),
        }
    }

    /// Reads every setting from the process environment: the names in [`mod@env`] and every
    /// `TOOLPACK_RATE_LIMIT_<TOOL>`. Other variables are not settings and are ignored.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(std::env::vars())
    }

    /// Reads the settings among `variables` (environment name, value): the names in
    /// [`mod@env`] and every `TOOLPACK_RATE_LIMIT_<TOOL>`; other names are ignored. Blank
    /// values count as unset.
    pub fn from_lookup(
        variables: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Self, ConfigError> {
        Self::from_pairs(variables.into_iter().filter(|(name, _)| {
            setting_names().any(|known| known == name) || per_tool_rate_limit(name).is_some()
        }))
    }

    /// Reads settings from `(environment name, value)` pairs; unknown names are an error
    /// so that a typo never silently falls back to a default.
    pub fn from_pairs<K, V>(pairs: impl IntoIterator<Item = (K, V)>) -> Result<Self, ConfigError>
    where
        K: AsRef<str>,
        V: AsRef<str>,
    {
        Ok(Config::builder().set_pairs(pairs)?.build())
    }

    /// TfL API key, if configured.
    pub fn tfl_api_key(&self) -> Option<&Secret> {
        self.tfl.api_key.as_ref()
    }
    /// TfL API base URL, without a trailing slash.
    pub fn tfl_api_base_url(&self) -> &str {
        &self.tfl.base_url
    }
    /// Configured station-data directory (`TFL_STATION_DATA_DETAILED_DIR`), if any.
    pub fn station_data_dir(&self) -> Option<&PathBuf> {
        self.tfl.station_data_dir.as_ref()
    }
    /// The contract's default station-data directory under the home directory, if known.
    pub fn default_station_data_dir(&self) -> Option<PathBuf> {
        self.common
            .home_dir
            .as_ref()
            .map(|home| home.join(DEFAULT_STATION_DATA_SUBDIR))
    }
    /// The directory for data that must persist: `TOOLPACK_DATA_DIR`, else the
    /// platform's per-user data directory + `toolpack` (`$XDG_DATA_HOME/toolpack`,
    /// `~/.local/share/toolpack` on Linux, `~/Library/Application Support/toolpack` on
    /// macOS, `%APPDATA%\\toolpack` on Windows); `None` when none of those is known.
    pub fn data_dir(&self) -> Option<PathBuf> {
        let common = &self.common;
        if let Some(dir) = &common.data_dir {
            return Some(dir.clone());
        }
        let platform = if cfg!(windows) {
            common.appdata_dir.clone()
        } else if cfg!(target_os = "macos") {
            common
                .home_dir
                .as_ref()
                .map(|home| home.join("Library/Application Support"))
        } else {
            common.xdg_data_home.clone().or_else(|| {
                common
                    .home_dir
                    .as_ref()
                    .map(|home| home.join(".local/share"))
            })
        };
        platform.map(|dir| dir.join("toolpack"))
    }
    /// The database URL of the shared store (`TOOLPACK_DATABASE_URL`), if any.
    pub fn database_url(&self) -> Option<&Secret> {
        self.common.database_url.as_ref()
    }
    /// The engine that opens [`Self::database_url`], when the program supplied one
    /// ([`ConfigBuilder::database`]).
    pub fn database(&self) -> Option<&Arc<dyn Database>> {
        self.database.as_ref()
    }
    /// The configured `d2` binary (`D2_BIN`), if any.
    pub fn d2_bin(&self) -> Option<&PathBuf> {
        self.loko.d2_bin.as_ref()
    }
    /// The configured Chromium (`CHROMIUM_BIN`), if any.
    pub fn chromium_bin(&self) -> Option<&PathBuf> {
        self.loko.chromium_bin.as_ref()
    }
    /// The directories a loko project must lie in (`LOKO_ALLOWED_ROOTS`); empty = any.
    pub fn loko_allowed_roots(&self) -> &[PathBuf] {
        &self.loko.allowed_roots
    }
    /// Digitransit API key, if configured.
    pub fn digitransit_api_key(&self) -> Option<&Secret> {
        self.digitransit.api_key.as_ref()
    }
    /// Digitransit base URL, without a trailing slash.
    pub fn digitransit_base_url(&self) -> &str {
        &self.digitransit.base_url
    }
    /// Digitransit router.
    pub fn digitransit_router(&self) -> DigitransitRouter {
        self.digitransit.router
    }
    /// How HSL's live vehicle feed is reached and what following it may hold.
    pub fn hfp(&self) -> HfpSettings {
        let d = &self.digitransit;
        HfpSettings {
            url: d.hfp_url.clone(),
            idle: Duration::from_secs(d.hfp_idle_seconds.into()),
            max_subscriptions: d.hfp_max_subscriptions.max(1) as usize,
            max_vehicles: d.hfp_max_vehicles as usize,
            stale_after: Duration::from_secs(d.hfp_stale_seconds.into()),
        }
    }
    /// The timeout for an upstream call whose own default is `default`:
    /// `TOOLPACK_UPSTREAM_TIMEOUT_MS` when set, else `default`.
    pub fn upstream_timeout(&self, default: Duration) -> Duration {
        self.common.upstream_timeout.unwrap_or(default)
    }
    /// The per-tool local rate limit set for `tool`, else the default, in calls per
    /// second (0 = unlimited); see [`Config::rate_limit_of`] for the rule applied.
    pub fn rate_limit(&self, tool: &str) -> u32 {
        self.rate_limits
            .get(&rate_limit_env_name(tool))
            .copied()
            .unwrap_or(self.common.default_rate_limit)
    }
    /// The `TOOLPACK_RATE_LIMIT_<TOOL>` names that were set (the toolpack checks that
    /// each names a tool).
    pub fn per_tool_rate_limit_names(&self) -> impl Iterator<Item = &str> {
        self.rate_limits.keys().map(String::as_str)
    }
    /// The local rate limit of `tool`, per caller: its own setting, else the default
    /// for tools that call an upstream API. Tools that work on local data only
    /// (`stationToilets`, loko, saved places) are unlimited unless a per-tool limit is
    /// set: no shared quota needs protecting, and a burst of local lookups is cheap.
    pub fn rate_limit_of(&self, tool: &str, calls_upstream: bool) -> u32 {
        match self.rate_limits.get(&rate_limit_env_name(tool)) {
            Some(limit) => *limit,
            None if calls_upstream => self.common.default_rate_limit,
            None => 0,
        }
    }
    /// Why `toolset`'s tools must not be served to remote callers (over HTTP) with this
    /// configuration, or `None`. The loko tools read and write the file system wherever
    /// a `project_path` points, so remote callers get them only inside
    /// `LOKO_ALLOWED_ROOTS`; stdio and library use are local and keep them.
    pub fn missing_remote_prerequisite(&self, toolset: Toolset) -> Option<String> {
        match toolset {
            Toolset::Loko if self.loko.allowed_roots.is_empty() => Some(
                "LOKO_ALLOWED_ROOTS is not set, and the loko tools write files: remote callers \
get them only inside allowed roots"
                    .to_owned(),
            ),
            _ => None,
        }
    }
    /// The budget of upstream requests per minute of `toolset`'s API key, over every
    /// caller and retry (0 = none; loko calls no upstream).
    pub fn upstream_budget_per_minute(&self, toolset: Toolset) -> u32 {
        match toolset {
            Toolset::Tfl => self.tfl.api_budget_per_minute,
            Toolset::Digitransit => self.digitransit.api_budget_per_minute,
            Toolset::Loko => 0,
        }
    }
    /// Size of the shared upstream response cache, in bytes (0 = no cache).
    pub fn upstream_cache_bytes(&self) -> u64 {
        self.upstream.cache_bytes
    }
    /// How long past fresh a cached answer may stand in for an upstream error.
    pub fn stale_if_error(&self) -> Duration {
        Duration::from_secs(self.upstream.stale_if_error_seconds.into())
    }
    /// How long a call waits for its upstream key's budget.
    pub fn upstream_budget_wait(&self) -> Duration {
        Duration::from_millis(self.upstream.budget_wait_ms.into())
    }
    /// Where replicas share each key's budget, the upstream answers and the per-caller
    /// limits: the database, when `TOOLPACK_DATABASE_URL` is set and
    /// `TOOLPACK_SHARED_STATE` is on.
    pub fn shared_state_url(&self) -> Option<&Secret> {
        self.database_url().filter(|_| self.upstream.shared_state)
    }
    /// Bound of the upstream answers replicas share, in bytes (0 = none shared).
    pub fn shared_cache_bytes(&self) -> u64 {
        self.upstream.shared_cache_bytes
    }
    /// How long an answer of `kind` stays fresh when the upstream says nothing.
    pub fn freshness(&self, kind: crate::http::AnswerKind) -> Duration {
        use crate::http::AnswerKind;
        let u = &self.upstream;
        let seconds = match kind {
            AnswerKind::LineStatus => u.fresh_line_status_seconds,
            AnswerKind::Arrivals => u.fresh_arrivals_seconds,
            AnswerKind::Journeys => u.fresh_journeys_seconds,
            AnswerKind::Disruptions => u.fresh_disruptions_seconds,
            AnswerKind::Bikes => u.fresh_bikes_seconds,
            AnswerKind::Places => u.fresh_places_seconds,
        };
        Duration::from_secs(seconds.into())
    }
    /// The shared ceiling of upstream calls per second of `toolset`'s API key, over
    /// every caller (0 = none, the default; loko calls no upstream).
    pub fn upstream_rate_limit(&self, toolset: Toolset) -> u32 {
        match toolset {
            Toolset::Tfl => self.tfl.api_rate_limit,
            Toolset::Digitransit => self.digitransit.api_rate_limit,
            Toolset::Loko => 0,
        }
    }
}

/// Builds a [`Config`]. Every setter has a matching environment name in [`mod@env`].
#[derive(Debug, Default, Clone)]
pub struct ConfigBuilder {
    config: Config,
}

impl ConfigBuilder {
    /// Sets the TfL API key.
    pub fn tfl_api_key(mut self, key: impl Into<String>) -> Self {
        self.config.tfl.api_key = non_blank_secret(key.into());
        self
    }
    /// Sets the TfL API base URL (e.g. a fake upstream on loopback).
    pub fn tfl_api_base_url(mut self, url: impl Into<String>) -> Self {
        self.config.tfl.base_url = trim_url(&url.into());
        self
    }
    /// Sets the station-data directory.
    pub fn station_data_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.config.tfl.station_data_dir = Some(dir.into());
        self
    }
    /// Sets the home directory used for the contract's default station-data path.
    pub fn home_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.config.common.home_dir = Some(dir.into());
        self
    }
    /// Sets the data directory (`TOOLPACK_DATA_DIR`).
    pub fn data_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.config.common.data_dir = Some(dir.into());
        self
    }
    /// Keeps what replicas share (the saved places, the upstream layer's state) in the
    /// database at `url` (`TOOLPACK_DATABASE_URL`), opened by the [`Self::database`] engine.
    pub fn database_url(mut self, url: impl Into<String>) -> Self {
        self.config.common.database_url = non_blank_secret(url.into());
        self
    }
    /// Supplies the engine that opens the database URL (the `toolpack-mcp` server supplies
    /// PostgreSQL, crate `toolpack-postgres`). Without one, a database URL makes saving
    /// places fail with `storage-error`, and each process keeps its own upstream state.
    pub fn database(mut self, engine: Arc<dyn Database>) -> Self {
        self.config.database = Some(engine);
        self
    }
    /// Sets the `d2` binary the loko tools run (`D2_BIN`).
    pub fn d2_bin(mut self, path: impl Into<PathBuf>) -> Self {
        self.config.loko.d2_bin = Some(path.into());
        self
    }
    /// Sets the Chromium `build_docs` prints PDFs with (`CHROMIUM_BIN`).
    pub fn chromium_bin(mut self, path: impl Into<PathBuf>) -> Self {
        self.config.loko.chromium_bin = Some(path.into());
        self
    }
    /// Fences loko projects to these directories (`LOKO_ALLOWED_ROOTS`).
    pub fn loko_allowed_roots(mut self, roots: impl IntoIterator<Item = PathBuf>) -> Self {
        self.config.loko.allowed_roots = roots.into_iter().collect();
        self
    }
    /// Sets the Digitransit API key.
    pub fn digitransit_api_key(mut self, key: impl Into<String>) -> Self {
        self.config.digitransit.api_key = non_blank_secret(key.into());
        self
    }
    /// Sets the Digitransit base URL.
    pub fn digitransit_base_url(mut self, url: impl Into<String>) -> Self {
        self.config.digitransit.base_url = trim_url(&url.into());
        self
    }
    /// Sets the Digitransit router.
    pub fn digitransit_router(mut self, router: DigitransitRouter) -> Self {
        self.config.digitransit.router = router;
        self
    }
    /// Overrides every upstream timeout.
    pub fn upstream_timeout(mut self, timeout: Duration) -> Self {
        self.config.common.upstream_timeout = Some(timeout);
        self
    }
    /// Sets the default local rate limit, in calls per second per tool (0 = unlimited).
    pub fn default_rate_limit(mut self, per_second: u32) -> Self {
        self.config.common.default_rate_limit = per_second;
        self
    }
    /// Sets the shared ceiling of `toolset`'s upstream calls per second (0 = none;
    /// loko calls no upstream, so it has none).
    pub fn upstream_rate_limit(mut self, toolset: Toolset, per_second: u32) -> Self {
        match toolset {
            Toolset::Tfl => self.config.tfl.api_rate_limit = per_second,
            Toolset::Digitransit => self.config.digitransit.api_rate_limit = per_second,
            Toolset::Loko => {}
        }
        self
    }
    /// Sets the budget of upstream requests per minute of `toolset`'s API key (0 = none).
    pub fn upstream_budget_per_minute(mut self, toolset: Toolset, per_minute: u32) -> Self {
        match toolset {
            Toolset::Tfl => self.config.tfl.api_budget_per_minute = per_minute,
            Toolset::Digitransit => self.config.digitransit.api_budget_per_minute = per_minute,
            Toolset::Loko => {}
        }
        self
    }
    /// Sets the size of the shared upstream response cache, in bytes (0 = no cache).
    pub fn upstream_cache_bytes(mut self, bytes: u64) -> Self {
        self.config.upstream.cache_bytes = bytes;
        self
    }
    /// Sets the local rate limit of one tool, in calls per second (0 = unlimited).
    pub fn rate_limit(mut self, tool: impl AsRef<str>, per_second: u32) -> Self {
        self.config
            .rate_limits
            .insert(rate_limit_env_name(tool.as_ref()), per_second);
        self
    }

    /// Sets one setting by its environment name: the family table that has it parses
    /// it. Blank values leave the default.
    pub fn set(mut self, name: &str, value: &str) -> Result<Self, ConfigError> {
        let value = value.trim();
        if value.is_empty() {
            return Ok(self);
        }
        let config = &mut self.config;
        let known = config.common.set(name, value)?
            || config.tfl.set(name, value)?
            || config.digitransit.set(name, value)?
            || config.loko.set(name, value)?
            || config.upstream.set(name, value)?;
        if !known {
            if per_tool_rate_limit(name).is_none() {
                return Err(ConfigError::invalid(name, "unknown setting"));
            }
            let limit = setting::number(name, value)?;
            config.rate_limits.insert(name.to_owned(), limit);
        }
        Ok(self)
    }

    /// Sets every `(environment name, value)` pair, in order (see [`ConfigBuilder::set`]).
    pub fn set_pairs<K, V>(
        mut self,
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Self, ConfigError>
    where
        K: AsRef<str>,
        V: AsRef<str>,
    {
        for (name, value) in pairs {
            self = self.set(name.as_ref(), value.as_ref())?;
        }
        Ok(self)
    }

    /// Finishes the configuration.
    pub fn build(self) -> Config {
        self.config
    }
}

/// Every fixed setting name, from every family's table (besides them, one
/// `TOOLPACK_RATE_LIMIT_<TOOL>` per tool).
pub fn setting_names() -> impl Iterator<Item = &'static str> {
    [
        CommonSettings::NAMES,
        TflSettings::NAMES,
        DigitransitSettings::NAMES,
        LokoSettings::NAMES,
        UpstreamSettings::NAMES,
    ]
    .into_iter()
    .flatten()
    .copied()
}

/// What every fixed setting is (name, doc, whether secret), in the order of
/// [`setting_names`].
pub fn settings() -> impl Iterator<Item = &'static SettingInfo> {
    [
        CommonSettings::INFO,
        TflSettings::INFO,
        DigitransitSettings::INFO,
        LokoSettings::INFO,
        UpstreamSettings::INFO,
    ]
    .into_iter()
    .flatten()
}

/// The per-tool rate-limit environment name of `tool`, e.g. `stationToilets` →
/// `TOOLPACK_RATE_LIMIT_STATION_TOILETS`.
pub fn rate_limit_env_name(tool: &str) -> String {
    let mut out = String::from(env::TOOLPACK_RATE_LIMIT_PREFIX);
    for (i, c) in tool.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

/// The `<TOOL>` of a per-tool rate-limit name (`TOOLPACK_RATE_LIMIT_` + upper snake
/// case), if `name` is one. Whether a tool has that name is the toolpack's to check.
fn per_tool_rate_limit(name: &str) -> Option<&str> {
    name.strip_prefix(env::TOOLPACK_RATE_LIMIT_PREFIX)
        .filter(|tool| {
            name != env::TOOLPACK_RATE_LIMIT_PER_SECOND
                && !tool.is_empty()
                && tool
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(all(unix, not(target_os = "macos")))]
    fn the_data_directory_is_the_setting_else_the_platform_default() {
        let config = |pairs: &[(&str, &str)]| Config::from_pairs(pairs.iter().copied()).unwrap();
        assert_eq!(config(&[]).data_dir(), None);
        assert_eq!(
            config(&[("HOME", "/home/u")]).data_dir(),
            Some(PathBuf::from("/home/u/.local/share/toolpack"))
        );
        assert_eq!(
            config(&[("HOME", "/home/u"), ("XDG_DATA_HOME", "/xdg")]).data_dir(),
            Some(PathBuf::from("/xdg/toolpack"))
        );
        assert_eq!(
            config(&[("XDG_DATA_HOME", "/xdg"), ("TOOLPACK_DATA_DIR", "/srv/tp")]).data_dir(),
            Some(PathBuf::from("/srv/tp"))
        );
    }

    #[test]
    fn every_setting_is_described_and_the_keys_are_the_secrets() {
        let names: Vec<_> = settings().map(|s| s.name).collect();
        assert_eq!(names, setting_names().collect::<Vec<_>>());
        let secrets: Vec<_> = settings().filter(|s| s.secret).map(|s| s.name).collect();
        assert_eq!(
            secrets,
            [
                env::TOOLPACK_DATABASE_URL,
                env::TFL_API_KEY,
                env::DIGITRANSIT_API_KEY
            ]
        );
        for setting in settings() {
            let text = setting.description();
            assert!(
                text.ends_with('.') || text.ends_with(')'),
                "{}: {text:?}",
                setting.name
            );
            assert!(!text.contains("  "), "{}: {text:?}", setting.name);
        }
        let tfl = settings().find(|s| s.name == env::TFL_API_KEY).unwrap();
        assert_eq!(
            tfl.description(),
            "TfL API key (sent as the `app_key` header). Required by `planJourney`."
        );
    }

    fn from(pairs: &[(&str, &str)]) -> Result<Config, ConfigError> {
        Config::from_pairs(pairs.iter().copied())
    }

    #[test]
    fn defaults_are_the_public_endpoints() {
        let c = Config::default();
        assert_eq!(c.tfl_api_base_url(), "https://api.tfl.gov.uk");
        assert_eq!(c.digitransit_base_url(), "https://api.digitransit.fi");
        assert_eq!(c.digitransit_router(), DigitransitRouter::Finland);
        assert_eq!(c.rate_limit("stationToilets"), 5);
        assert_eq!(
            c.upstream_timeout(Duration::from_secs(10)),
            Duration::from_secs(10)
        );
        assert!(c.tfl_api_key().is_none());
    }

    #[test]
    fn reads_every_named_setting() {
        let c = from(&[
            ("TFL_API_KEY", "secret-tfl"),
            ("TFL_API_BASE_URL", "http://127.0.0.1:9/"),
            ("TFL_STATION_DATA_DETAILED_DIR", "/data/tfl"),
            ("DIGITRANSIT_API_KEY", "secret-dt"),
            ("DIGITRANSIT_BASE_URL", "http://127.0.0.1:8"),
            ("DIGITRANSIT_ROUTER", "HSL"),
            ("TOOLPACK_UPSTREAM_TIMEOUT_MS", "250"),
            ("TOOLPACK_RATE_LIMIT_PER_SECOND", "7"),
            ("TOOLPACK_RATE_LIMIT_STATION_TOILETS", "2"),
            ("HOME", "/home/u"),
        ])
        .unwrap();
        assert_eq!(c.tfl_api_key().unwrap().expose(), "secret-tfl");
        assert_eq!(c.tfl_api_base_url(), "http://127.0.0.1:9");
        assert_eq!(c.station_data_dir().unwrap(), &PathBuf::from("/data/tfl"));
        assert_eq!(c.digitransit_router(), DigitransitRouter::Hsl);
        assert_eq!(
            c.upstream_timeout(Duration::from_secs(10)),
            Duration::from_millis(250)
        );
        assert_eq!(c.rate_limit("stationToilets"), 2);
        assert_eq!(c.rate_limit("someOtherTool"), 7);
        assert_eq!(
            c.default_station_data_dir().unwrap(),
            PathBuf::from("/home/u/Downloads/TfL station data detailed")
        );
    }

    #[test]
    fn debug_never_shows_keys() {
        let c = from(&[
            ("TFL_API_KEY", "tfl-super-secret"),
            ("DIGITRANSIT_API_KEY", "dt-secret"),
        ])
        .unwrap();
        let shown = format!("{c:?}");
        assert!(!shown.contains("tfl-super-secret") && !shown.contains("dt-secret"));
        assert!(shown.contains("[REDACTED]"));
    }

    #[test]
    fn bad_values_are_named_errors() {
        let err = from(&[("TOOLPACK_UPSTREAM_TIMEOUT_MS", "soon")]).unwrap_err();
        assert_eq!(err.name, "TOOLPACK_UPSTREAM_TIMEOUT_MS");
        assert!(from(&[("TOOLPACK_UPSTREAM_TIMEOUT_MS", "0")]).is_err());
        assert_eq!(
            from(&[("DIGITRANSIT_ROUTER", "mars")]).unwrap_err().name,
            "DIGITRANSIT_ROUTER"
        );
        assert_eq!(
            from(&[("TFL_APIKEY", "x")]).unwrap_err().reason,
            "unknown setting"
        );
        assert!(from(&[("TOOLPACK_RATE_LIMIT_station", "1")]).is_err());
    }

    #[test]
    fn the_environment_gives_its_settings_and_nothing_else() {
        let variables = [
            ("PATH", "/usr/bin"),
            ("TFL_API_KEY", "k"),
            ("TOOLPACK_RATE_LIMIT_PLAN_TRIP", "3"),
            ("TOOLPACK_RATE_LIMIT_PER_SECOND", "9"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned()));
        let c = Config::from_lookup(variables).unwrap();
        assert_eq!(c.tfl_api_key().unwrap().expose(), "k");
        assert_eq!(c.rate_limit("plan_trip"), 3);
        assert_eq!(c.rate_limit("stationToilets"), 9);
        assert_eq!(
            c.per_tool_rate_limit_names().collect::<Vec<_>>(),
            ["TOOLPACK_RATE_LIMIT_PLAN_TRIP"]
        );
        assert_eq!(
            c.missing_remote_prerequisite(Toolset::Loko).is_some(),
            c.loko_allowed_roots().is_empty()
        );
        assert_eq!(c.missing_remote_prerequisite(Toolset::Tfl), None);
    }

    #[test]
    fn blank_values_count_as_unset() {
        let c = from(&[("TFL_API_KEY", "   "), ("DIGITRANSIT_ROUTER", "")]).unwrap();
        assert!(c.tfl_api_key().is_none());
        assert_eq!(c.digitransit_router(), DigitransitRouter::Finland);
    }

    #[test]
    fn the_hfp_url_is_an_mqtt_broker_with_tls_or_without() {
        let c = from(&[("DIGITRANSIT_HFP_URL", "mqtt://127.0.0.1:1883/")]).unwrap();
        assert_eq!(c.hfp().url.to_string(), "mqtt://127.0.0.1:1883");
        assert!(!c.hfp().url.tls);
        assert_eq!(
            Config::default().hfp().url.to_string(),
            "mqtts://mqtt.hsl.fi:8883"
        );
        let plain = from(&[("DIGITRANSIT_HFP_URL", "mqtts://broker.example")]).unwrap();
        assert_eq!(plain.hfp().url.port, 8883);
        for bad in [
            "http://mqtt.hsl.fi",
            "mqtt://",
            "mqtt://host:port",
            "mqtt://u:p@host:1",
        ] {
            let error = from(&[("DIGITRANSIT_HFP_URL", bad)]).unwrap_err();
            assert_eq!(error.name, "DIGITRANSIT_HFP_URL", "{bad}");
        }
    }

    #[test]
    fn replicas_share_state_only_with_a_database_and_the_switch_on() {
        let url = "postgres://u:p@127.0.0.1:5432/db";
        assert!(from(&[]).unwrap().shared_state_url().is_none());
        let shared = from(&[("TOOLPACK_DATABASE_URL", url)]).unwrap();
        assert_eq!(shared.shared_state_url().unwrap().expose(), url);
        assert_eq!(shared.shared_cache_bytes(), 256 * 1024 * 1024);
        for off in ["off", "OFF", "false", "0"] {
            let config = from(&[
                ("TOOLPACK_DATABASE_URL", url),
                ("TOOLPACK_SHARED_STATE", off),
            ]);
            assert!(config.unwrap().shared_state_url().is_none(), "{off}");
        }
        for on in ["on", "true", "1"] {
            let config = from(&[
                ("TOOLPACK_DATABASE_URL", url),
                ("TOOLPACK_SHARED_STATE", on),
            ]);
            assert!(config.unwrap().shared_state_url().is_some(), "{on}");
        }
        let error = from(&[("TOOLPACK_SHARED_STATE", "maybe")]).unwrap_err();
        assert_eq!(error.name, "TOOLPACK_SHARED_STATE");
        assert_eq!(error.reason, "expected on or off");
    }

    #[test]
    fn every_family_table_contributes_its_settings_once() {
        let names: Vec<&str> = setting_names().collect();
        assert_eq!(names.len(), 36);
        let mut distinct = names.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), names.len(), "a name in two tables");
        for name in [
            "TFL_API_KEY",
            "DIGITRANSIT_ROUTER",
            "DIGITRANSIT_HFP_URL",
            "LOKO_ALLOWED_ROOTS",
            "HOME",
            "TFL_API_BUDGET_PER_MINUTE",
            "TOOLPACK_UPSTREAM_CACHE_BYTES",
            "TOOLPACK_FRESH_PLACES_SECONDS",
        ] {
            assert!(names.contains(&name), "{name}");
        }
        let c = from(&[
            ("TFL_API_RATE_LIMIT_PER_SECOND", "4"),
            ("DIGITRANSIT_API_RATE_LIMIT_PER_SECOND", "6"),
            ("LOKO_ALLOWED_ROOTS", "/a:/b"),
            ("D2_BIN", "/opt/d2"),
        ])
        .unwrap();
        assert_eq!(c.upstream_rate_limit(Toolset::Tfl), 4);
        assert_eq!(c.upstream_rate_limit(Toolset::Digitransit), 6);
        assert_eq!(c.upstream_rate_limit(Toolset::Loko), 0);
        assert_eq!(
            c.loko_allowed_roots(),
            [PathBuf::from("/a"), PathBuf::from("/b")]
        );
        assert_eq!(c.d2_bin(), Some(&PathBuf::from("/opt/d2")));
    }

    #[test]
    fn rate_limit_env_names_are_upper_snake() {
        assert_eq!(
            rate_limit_env_name("stationToilets"),
            "TOOLPACK_RATE_LIMIT_STATION_TOILETS"
        );
        assert_eq!(
            rate_limit_env_name("geocode_address"),
            "TOOLPACK_RATE_LIMIT_GEOCODE_ADDRESS"
        );
    }
}
