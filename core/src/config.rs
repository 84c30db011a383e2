//! Configuration: one [`Config`] built with [`ConfigBuilder`], from the environment
//! ([`Config::from_env`]) or from any name → value lookup ([`Config::from_lookup`]).
//!
//! Every setting has one environment name (listed in [`env`]); the same names are the
//! keys the bindings and the shared test vectors use, so there is one parsing path.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use crate::secret::Secret;
use crate::toolset::Toolset;

/// The environment names of every setting.
pub mod env {
    /// TfL API key (sent as the `app_key` header). Required by `planJourney`.
    pub const TFL_API_KEY: &str = "TFL_API_KEY";
    /// TfL API base URL. Default `https://api.tfl.gov.uk`.
    pub const TFL_API_BASE_URL: &str = "TFL_API_BASE_URL";
    /// Directory of the "TfL station data detailed" CSVs (`tfl.station-data.detailed-dir`).
    pub const TFL_STATION_DATA_DETAILED_DIR: &str = "TFL_STATION_DATA_DETAILED_DIR";
    /// Digitransit API key (sent as the `digitransit-subscription-key` header).
    pub const DIGITRANSIT_API_KEY: &str = "DIGITRANSIT_API_KEY";
    /// Digitransit base URL. Default `https://api.digitransit.fi`.
    pub const DIGITRANSIT_BASE_URL: &str = "DIGITRANSIT_BASE_URL";
    /// Digitransit router: `hsl`, `waltti`, `finland` (default) or `varely`.
    pub const DIGITRANSIT_ROUTER: &str = "DIGITRANSIT_ROUTER";
    /// Overrides every upstream timeout, in milliseconds.
    pub const TOOLPACK_UPSTREAM_TIMEOUT_MS: &str = "TOOLPACK_UPSTREAM_TIMEOUT_MS";
    /// Default local rate limit of every tool that calls an upstream API, per caller, in
    /// calls per second (default 5; 0 = off).
    pub const TOOLPACK_RATE_LIMIT_PER_SECOND: &str = "TOOLPACK_RATE_LIMIT_PER_SECOND";
    /// Optional shared ceiling of TfL upstream calls per second, over every caller
    /// (protects the TfL key's quota; default 0 = none).
    pub const TFL_API_RATE_LIMIT_PER_SECOND: &str = "TFL_API_RATE_LIMIT_PER_SECOND";
    /// Optional shared ceiling of Digitransit upstream calls per second, over every
    /// caller (protects the Digitransit key's quota; default 0 = none).
    pub const DIGITRANSIT_API_RATE_LIMIT_PER_SECOND: &str = "DIGITRANSIT_API_RATE_LIMIT_PER_SECOND";
    /// Prefix of the per-tool rate limit: `TOOLPACK_RATE_LIMIT_` + the tool name in
    /// upper snake case, e.g. `TOOLPACK_RATE_LIMIT_STATION_TOILETS=10`.
    pub const TOOLPACK_RATE_LIMIT_PREFIX: &str = "TOOLPACK_RATE_LIMIT_";
    /// Home directory, used for the default station-data path and data directory.
    pub const HOME: &str = "HOME";
    /// Where toolpack keeps data that must persist (the Digitransit saved places).
    /// Default: the platform's per-user data directory + `/toolpack`.
    pub const TOOLPACK_DATA_DIR: &str = "TOOLPACK_DATA_DIR";
    /// The XDG per-user data directory (Linux), for the default data directory.
    pub const XDG_DATA_HOME: &str = "XDG_DATA_HOME";
    /// The roaming application-data directory (Windows), for the default data directory.
    pub const APPDATA: &str = "APPDATA";
    /// The `d2` binary the loko tools run (default: `d2` found on `PATH`).
    pub const D2_BIN: &str = "D2_BIN";
    /// Directories a loko `project_path` must lie in, separated like `PATH` (`:` on
    /// Unix); unset means any directory.
    pub const LOKO_ALLOWED_ROOTS: &str = "LOKO_ALLOWED_ROOTS";
    /// The Chromium `build_docs` prints the PDF with (default: `chromium`,
    /// `chromium-browser` or `google-chrome` on `PATH`).
    pub const CHROMIUM_BIN: &str = "CHROMIUM_BIN";
}

/// Default TfL API base URL.
pub const DEFAULT_TFL_API_BASE_URL: &str = "https://api.tfl.gov.uk";
/// Default Digitransit base URL.
pub const DEFAULT_DIGITRANSIT_BASE_URL: &str = "https://api.digitransit.fi";
/// Default local rate limit per tool, in calls per second.
pub const DEFAULT_RATE_LIMIT_PER_SECOND: u32 = 5;
/// The contract's default station-data directory, relative to the home directory.
pub const DEFAULT_STATION_DATA_SUBDIR: &str = "Downloads/TfL station data detailed";

/// Which Digitransit router (regional deployment) to query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DigitransitRouter {
    /// Helsinki region.
    Hsl,
    /// Other Finnish cities.
    Waltti,
    /// The whole of Finland (default).
    #[default]
    Finland,
    /// Varsinais-Suomi.
    Varely,
}

impl DigitransitRouter {
    /// The router's name as used in Digitransit URLs.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Hsl => "hsl",
            Self::Waltti => "waltti",
            Self::Finland => "finland",
            Self::Varely => "varely",
        }
    }
}

impl FromStr for DigitransitRouter {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "hsl" => Ok(Self::Hsl),
            "waltti" => Ok(Self::Waltti),
            "finland" => Ok(Self::Finland),
            "varely" => Ok(Self::Varely),
            _ => Err(ConfigError::invalid(
                env::DIGITRANSIT_ROUTER,
                "expected one of hsl, waltti, finland, varely",
            )),
        }
    }
}

/// A setting that could not be parsed. Never carries a secret's value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid setting {name}: {reason}")]
pub struct ConfigError {
    /// The environment name of the setting.
    pub name: String,
    /// What is wrong with it.
    pub reason: String,
}

impl ConfigError {
    /// The error of setting `name`: `reason`.
    pub fn invalid(name: &str, reason: &str) -> Self {
        Self {
            name: name.to_owned(),
            reason: reason.to_owned(),
        }
    }
}

/// Every setting of a [`crate::Toolpack`]. Build it with [`Config::builder`],
/// [`Config::from_env`] or [`Config::from_lookup`].
#[derive(Clone)]
pub struct Config {
    tfl_api_key: Option<Secret>,
    tfl_api_base_url: String,
    station_data_dir: Option<PathBuf>,
    home_dir: Option<PathBuf>,
    data_dir: Option<PathBuf>,
    xdg_data_home: Option<PathBuf>,
    appdata_dir: Option<PathBuf>,
    d2_bin: Option<PathBuf>,
    chromium_bin: Option<PathBuf>,
    loko_allowed_roots: Vec<PathBuf>,
    digitransit_api_key: Option<Secret>,
    digitransit_base_url: String,
    digitransit_router: DigitransitRouter,
    upstream_timeout: Option<Duration>,
    default_rate_limit: u32,
    rate_limits: BTreeMap<String, u32>,
    upstream_rate_limits: BTreeMap<Toolset, u32>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            tfl_api_key: None,
            tfl_api_base_url: DEFAULT_TFL_API_BASE_URL.to_owned(),
            station_data_dir: None,
            home_dir: None,
            data_dir: None,
            xdg_data_home: None,
            appdata_dir: None,
            d2_bin: None,
            chromium_bin: None,
            loko_allowed_roots: Vec::new(),
            digitransit_api_key: None,
            digitransit_base_url: DEFAULT_DIGITRANSIT_BASE_URL.to_owned(),
            digitransit_router: DigitransitRouter::default(),
            upstream_timeout: None,
            default_rate_limit: DEFAULT_RATE_LIMIT_PER_SECOND,
            rate_limits: BTreeMap::new(),
            upstream_rate_limits: BTreeMap::new(),
        }
    }
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("tfl_api_key", &self.tfl_api_key)
            .field("tfl_api_base_url", &self.tfl_api_base_url)
            .field("station_data_dir", &self.station_data_dir)
            .field("home_dir", &self.home_dir)
            .field("data_dir", &self.data_dir)
            .field("d2_bin", &self.d2_bin)
            .field("chromium_bin", &self.chromium_bin)
            .field("loko_allowed_roots", &self.loko_allowed_roots)
            .field("digitransit_api_key", &self.digitransit_api_key)
            .field("digitransit_base_url", &self.digitransit_base_url)
            .field("digitransit_router", &self.digitransit_router)
            .field("upstream_timeout", &self.upstream_timeout)
            .field("default_rate_limit", &self.default_rate_limit)
            .field("rate_limits", &self.rate_limits)
            .field("upstream_rate_limits", &self.upstream_rate_limits)
            .finish()
    }
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

    /// Reads every setting from the process environment: the names in [`env`] and every
    /// `TOOLPACK_RATE_LIMIT_<TOOL>`. Other variables are not settings and are ignored.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(std::env::vars())
    }

    /// Reads the settings among `variables` (environment name, value): the names in
    /// [`env`] and every `TOOLPACK_RATE_LIMIT_<TOOL>`; other names are ignored. Blank
    /// values count as unset.
    pub fn from_lookup(
        variables: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Self, ConfigError> {
        Self::from_pairs(variables.into_iter().filter(|(name, _)| {
            SETTINGS.contains(&name.as_str()) || per_tool_rate_limit(name).is_some()
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
        self.tfl_api_key.as_ref()
    }
    /// TfL API base URL, without a trailing slash.
    pub fn tfl_api_base_url(&self) -> &str {
        &self.tfl_api_base_url
    }
    /// Configured station-data directory (`TFL_STATION_DATA_DETAILED_DIR`), if any.
    pub fn station_data_dir(&self) -> Option<&PathBuf> {
        self.station_data_dir.as_ref()
    }
    /// The contract's default station-data directory under the home directory, if known.
    pub fn default_station_data_dir(&self) -> Option<PathBuf> {
        self.home_dir
            .as_ref()
            .map(|home| home.join(DEFAULT_STATION_DATA_SUBDIR))
    }
    /// The directory for data that must persist: `TOOLPACK_DATA_DIR`, else the
    /// platform's per-user data directory + `toolpack` (`$XDG_DATA_HOME/toolpack`,
    /// `~/.local/share/toolpack` on Linux, `~/Library/Application Support/toolpack` on
    /// macOS, `%APPDATA%\\toolpack` on Windows); `None` when none of those is known.
    pub fn data_dir(&self) -> Option<PathBuf> {
        if let Some(dir) = &self.data_dir {
            return Some(dir.clone());
        }
        let platform = if cfg!(windows) {
            self.appdata_dir.clone()
        } else if cfg!(target_os = "macos") {
            self.home_dir
                .as_ref()
                .map(|home| home.join("Library/Application Support"))
        } else {
            self.xdg_data_home
                .clone()
                .or_else(|| self.home_dir.as_ref().map(|home| home.join(".local/share")))
        };
        platform.map(|dir| dir.join("toolpack"))
    }
    /// The configured `d2` binary (`D2_BIN`), if any.
    pub fn d2_bin(&self) -> Option<&PathBuf> {
        self.d2_bin.as_ref()
    }
    /// The configured Chromium (`CHROMIUM_BIN`), if any.
    pub fn chromium_bin(&self) -> Option<&PathBuf> {
        self.chromium_bin.as_ref()
    }
    /// The directories a loko project must lie in (`LOKO_ALLOWED_ROOTS`); empty = any.
    pub fn loko_allowed_roots(&self) -> &[PathBuf] {
        &self.loko_allowed_roots
    }
    /// Digitransit API key, if configured.
    pub fn digitransit_api_key(&self) -> Option<&Secret> {
        self.digitransit_api_key.as_ref()
    }
    /// Digitransit base URL, without a trailing slash.
    pub fn digitransit_base_url(&self) -> &str {
        &self.digitransit_base_url
    }
    /// Digitransit router.
    pub fn digitransit_router(&self) -> DigitransitRouter {
        self.digitransit_router
    }
    /// The timeout for an upstream call whose own default is `default`:
    /// `TOOLPACK_UPSTREAM_TIMEOUT_MS` when set, else `default`.
    pub fn upstream_timeout(&self, default: Duration) -> Duration {
        self.upstream_timeout.unwrap_or(default)
    }
    /// The per-tool local rate limit set for `tool`, else the default, in calls per
    /// second (0 = unlimited); see [`Config::rate_limit_of`] for the rule applied.
    pub fn rate_limit(&self, tool: &str) -> u32 {
        self.rate_limits
            .get(&rate_limit_env_name(tool))
            .copied()
            .unwrap_or(self.default_rate_limit)
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
            None if calls_upstream => self.default_rate_limit,
            None => 0,
        }
    }
    /// Why `toolset`'s tools must not be served to remote callers (over HTTP) with this
    /// configuration, or `None`. The loko tools read and write the file system wherever
    /// a `project_path` points, so remote callers get them only inside
    /// `LOKO_ALLOWED_ROOTS`; stdio and library use are local and keep them.
    pub fn missing_remote_prerequisite(&self, toolset: Toolset) -> Option<String> {
        match toolset {
            Toolset::Loko if self.loko_allowed_roots.is_empty() => Some(
                "LOKO_ALLOWED_ROOTS is not set, and the loko tools write files: remote callers \
get them only inside allowed roots"
                    .to_owned(),
            ),
            _ => None,
        }
    }
    /// The shared ceiling of upstream calls per second of `toolset`'s API key, over
    /// every caller (0 = none, the default).
    pub fn upstream_rate_limit(&self, toolset: Toolset) -> u32 {
        self.upstream_rate_limits
            .get(&toolset)
            .copied()
            .unwrap_or(0)
    }
}

/// Builds a [`Config`]. Every setter has a matching environment name in [`env`].
#[derive(Debug, Default, Clone)]
pub struct ConfigBuilder {
    config: Config,
}

impl ConfigBuilder {
    /// Sets the TfL API key.
    pub fn tfl_api_key(mut self, key: impl Into<String>) -> Self {
        self.config.tfl_api_key = non_blank_secret(key.into());
        self
    }
    /// Sets the TfL API base URL (e.g. a fake upstream on loopback).
    pub fn tfl_api_base_url(mut self, url: impl Into<String>) -> Self {
        self.config.tfl_api_base_url = trim_url(url.into());
        self
    }
    /// Sets the station-data directory.
    pub fn station_data_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.config.station_data_dir = Some(dir.into());
        self
    }
    /// Sets the home directory used for the contract's default station-data path.
    pub fn home_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.config.home_dir = Some(dir.into());
        self
    }
    /// Sets the data directory (`TOOLPACK_DATA_DIR`).
    pub fn data_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.config.data_dir = Some(dir.into());
        self
    }
    /// Sets the `d2` binary the loko tools run (`D2_BIN`).
    pub fn d2_bin(mut self, path: impl Into<PathBuf>) -> Self {
        self.config.d2_bin = Some(path.into());
        self
    }
    /// Sets the Chromium `build_docs` prints PDFs with (`CHROMIUM_BIN`).
    pub fn chromium_bin(mut self, path: impl Into<PathBuf>) -> Self {
        self.config.chromium_bin = Some(path.into());
        self
    }
    /// Fences loko projects to these directories (`LOKO_ALLOWED_ROOTS`).
    pub fn loko_allowed_roots(mut self, roots: impl IntoIterator<Item = PathBuf>) -> Self {
        self.config.loko_allowed_roots = roots.into_iter().collect();
        self
    }
    /// Sets the Digitransit API key.
    pub fn digitransit_api_key(mut self, key: impl Into<String>) -> Self {
        self.config.digitransit_api_key = non_blank_secret(key.into());
        self
    }
    /// Sets the Digitransit base URL.
    pub fn digitransit_base_url(mut self, url: impl Into<String>) -> Self {
        self.config.digitransit_base_url = trim_url(url.into());
        self
    }
    /// Sets the Digitransit router.
    pub fn digitransit_router(mut self, router: DigitransitRouter) -> Self {
        self.config.digitransit_router = router;
        self
    }
    /// Overrides every upstream timeout.
    pub fn upstream_timeout(mut self, timeout: Duration) -> Self {
        self.config.upstream_timeout = Some(timeout);
        self
    }
    /// Sets the default local rate limit, in calls per second per tool (0 = unlimited).
    pub fn default_rate_limit(mut self, per_second: u32) -> Self {
        self.config.default_rate_limit = per_second;
        self
    }
    /// Sets the shared ceiling of `toolset`'s upstream calls per second (0 = none).
    pub fn upstream_rate_limit(mut self, toolset: Toolset, per_second: u32) -> Self {
        self.config.upstream_rate_limits.insert(toolset, per_second);
        self
    }
    /// Sets the local rate limit of one tool, in calls per second (0 = unlimited).
    pub fn rate_limit(mut self, tool: impl AsRef<str>, per_second: u32) -> Self {
        self.config
            .rate_limits
            .insert(rate_limit_env_name(tool.as_ref()), per_second);
        self
    }

    /// Sets one setting by its environment name. Blank values leave the default.
    pub fn set(mut self, name: &str, value: &str) -> Result<Self, ConfigError> {
        let value = value.trim();
        if value.is_empty() {
            return Ok(self);
        }
        Ok(match name {
            env::TFL_API_KEY => self.tfl_api_key(value),
            env::TFL_API_BASE_URL => self.tfl_api_base_url(value),
            env::TFL_STATION_DATA_DETAILED_DIR => self.station_data_dir(value),
            env::HOME => self.home_dir(value),
            env::TOOLPACK_DATA_DIR => self.data_dir(value),
            env::XDG_DATA_HOME => {
                self.config.xdg_data_home = Some(PathBuf::from(value));
                self
            }
            env::APPDATA => {
                self.config.appdata_dir = Some(PathBuf::from(value));
                self
            }
            env::D2_BIN => self.d2_bin(value),
            env::CHROMIUM_BIN => self.chromium_bin(value),
            env::LOKO_ALLOWED_ROOTS => self.loko_allowed_roots(std::env::split_paths(value)),
            env::DIGITRANSIT_API_KEY => self.digitransit_api_key(value),
            env::DIGITRANSIT_BASE_URL => self.digitransit_base_url(value),
            env::DIGITRANSIT_ROUTER => self.digitransit_router(value.parse()?),
            env::TOOLPACK_UPSTREAM_TIMEOUT_MS => {
                let ms: u64 = parse_number(name, value)?;
                if ms == 0 {
                    return Err(ConfigError::invalid(name, "must be at least 1"));
                }
                self.upstream_timeout(Duration::from_millis(ms))
            }
            env::TOOLPACK_RATE_LIMIT_PER_SECOND => {
                self.default_rate_limit(parse_number(name, value)?)
            }
            env::TFL_API_RATE_LIMIT_PER_SECOND => {
                self.upstream_rate_limit(Toolset::Tfl, parse_number(name, value)?)
            }
            env::DIGITRANSIT_API_RATE_LIMIT_PER_SECOND => {
                self.upstream_rate_limit(Toolset::Digitransit, parse_number(name, value)?)
            }
            _ if per_tool_rate_limit(name).is_some() => {
                let limit = parse_number(name, value)?;
                self.config.rate_limits.insert(name.to_owned(), limit);
                self
            }
            _ => return Err(ConfigError::invalid(name, "unknown setting")),
        })
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

/// Every fixed setting name (besides them, one `TOOLPACK_RATE_LIMIT_<TOOL>` per tool).
pub const SETTINGS: [&str; 17] = [
    env::TFL_API_KEY,
    env::TFL_API_BASE_URL,
    env::TFL_STATION_DATA_DETAILED_DIR,
    env::DIGITRANSIT_API_KEY,
    env::DIGITRANSIT_BASE_URL,
    env::DIGITRANSIT_ROUTER,
    env::TOOLPACK_UPSTREAM_TIMEOUT_MS,
    env::TOOLPACK_RATE_LIMIT_PER_SECOND,
    env::TFL_API_RATE_LIMIT_PER_SECOND,
    env::DIGITRANSIT_API_RATE_LIMIT_PER_SECOND,
    env::HOME,
    env::TOOLPACK_DATA_DIR,
    env::XDG_DATA_HOME,
    env::APPDATA,
    env::D2_BIN,
    env::CHROMIUM_BIN,
    env::LOKO_ALLOWED_ROOTS,
];

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

fn parse_number<T: FromStr>(name: &str, value: &str) -> Result<T, ConfigError> {
    value
        .parse()
        .map_err(|_| ConfigError::invalid(name, "expected a whole number"))
}

fn non_blank_secret(value: String) -> Option<Secret> {
    let secret = Secret::new(value);
    (!secret.expose().is_empty()).then_some(secret)
}

fn trim_url(url: String) -> String {
    url.trim().trim_end_matches('/').to_owned()
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
