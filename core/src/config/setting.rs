//! What every settings table is made of: [`ConfigError`], the value parsers, and
//! [`settings_table!`], which turns one list of settings into the table's struct, its
//! defaults, its environment names and the one function that sets a setting by name.
//! A setting is written once, in its family's table.

use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use crate::secret::Secret;

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

/// What a setting is, for the people and files that describe it (the MCP Registry's
/// `server.json`, a bundle's user configuration): one entry per setting of every table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SettingInfo {
    /// The environment name, e.g. `TFL_API_KEY`.
    pub name: &'static str,
    /// The setting's doc comment as written, one line per source line.
    pub doc: &'static str,
    /// Whether the value is a secret (an API key, a URL carrying a password).
    pub secret: bool,
}

impl SettingInfo {
    /// The doc comment as one paragraph (source lines joined by a space).
    pub fn description(&self) -> String {
        self.doc
            .lines()
            .map(str::trim)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// What kind of value a setting holds; the compiler asks for an impl of each type a
/// table uses, so a new kind of setting has to say whether it is secret.
pub(crate) trait SettingValue {
    /// Whether values of this type are secrets.
    const SECRET: bool;
}

impl SettingValue for Option<Secret> {
    const SECRET: bool = true;
}

macro_rules! plain_setting_values {
    ($($ty:ty),*) => { $(impl SettingValue for $ty { const SECRET: bool = false; })* };
}
plain_setting_values!(
    bool,
    String,
    u32,
    u64,
    Option<PathBuf>,
    Vec<PathBuf>,
    Option<Duration>
);

/// A table of settings: `Table { field: Type = default, ENV_NAME, parser; … }`, each
/// with its doc comment. Defines the struct (one public field per setting), its
/// `Default`, a module `env` with one constant per environment name, `Table::NAMES`,
/// `Table::INFO` (each setting's [`SettingInfo`]) and `Table::set(name, value)`, which
/// parses with the setting's parser (a `fn(&str, &str) -> Result<Type, ConfigError>`
/// given the name and a non-blank value).
macro_rules! settings_table {
    ($(#[doc = $table_doc:literal])* $table:ident {
        $($(#[doc = $doc:literal])* $field:ident: $ty:ty = $default:expr, $env:ident, $parse:expr;)*
    }) => {
        $(#[doc = $table_doc])*
        #[derive(Clone, Debug)]
        pub struct $table {
            $($(#[doc = $doc])* pub $field: $ty,)*
        }

        impl Default for $table {
            fn default() -> Self {
                Self { $($field: $default,)* }
            }
        }

        /// The environment names of this table's settings.
        pub mod env {
            $($(#[doc = $doc])* pub const $env: &str = stringify!($env);)*
        }

        impl $table {
            /// Every setting name of this table.
            pub const NAMES: &[&str] = &[$(env::$env,)*];

            /// What each setting of this table is.
            pub const INFO: &[$crate::config::SettingInfo] = &[$(
                $crate::config::SettingInfo {
                    name: env::$env,
                    doc: concat!($($doc, "\n",)*),
                    secret: <$ty as $crate::config::setting::SettingValue>::SECRET,
                },
            )*];

            /// Sets setting `name` from a non-blank `value`; `Ok(false)` when this table
            /// has no setting of that name.
            pub fn set(&mut self, name: &str, value: &str) -> Result<bool, $crate::config::ConfigError> {
                $(
                    if name == env::$env {
                        let parse: fn(&str, &str) -> Result<$ty, $crate::config::ConfigError> = $parse;
                        self.$field = parse(name, value)?;
                        return Ok(true);
                    }
                )*
                Ok(false)
            }
        }
    };
}
pub(crate) use settings_table;

/// A secret (an API key); blank is unset.
pub(crate) fn secret(_: &str, value: &str) -> Result<Option<Secret>, ConfigError> {
    Ok(non_blank_secret(value.to_owned()))
}

/// A base URL, without surrounding blanks or a trailing slash.
pub(crate) fn url(_: &str, value: &str) -> Result<String, ConfigError> {
    Ok(trim_url(value))
}

/// A path.
pub(crate) fn path(_: &str, value: &str) -> Result<Option<PathBuf>, ConfigError> {
    Ok(Some(PathBuf::from(value)))
}

/// Paths separated like `PATH` (`:` on Unix).
pub(crate) fn paths(_: &str, value: &str) -> Result<Vec<PathBuf>, ConfigError> {
    Ok(std::env::split_paths(value).collect())
}

/// A whole number.
pub(crate) fn number<T: FromStr>(name: &str, value: &str) -> Result<T, ConfigError> {
    value
        .parse()
        .map_err(|_| ConfigError::invalid(name, "expected a whole number"))
}

/// A switch: `on`, `true`, `1` or `off`, `false`, `0`.
pub(crate) fn switch(name: &str, value: &str) -> Result<bool, ConfigError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "on" | "true" | "1" => Ok(true),
        "off" | "false" | "0" => Ok(false),
        _ => Err(ConfigError::invalid(name, "expected on or off")),
    }
}

/// A duration in milliseconds, at least 1.
pub(crate) fn millis(name: &str, value: &str) -> Result<Option<Duration>, ConfigError> {
    match number::<u64>(name, value)? {
        0 => Err(ConfigError::invalid(name, "must be at least 1")),
        ms => Ok(Some(Duration::from_millis(ms))),
    }
}

/// A value of a type that parses itself (naming the setting in its error).
pub(crate) fn parsed<T: FromStr<Err = ConfigError>>(
    _: &str,
    value: &str,
) -> Result<T, ConfigError> {
    value.parse()
}

/// `value` as a secret, or `None` when blank.
pub(crate) fn non_blank_secret(value: String) -> Option<Secret> {
    let secret = Secret::new(value);
    (!secret.expose().is_empty()).then_some(secret)
}

/// A base URL without surrounding blanks or a trailing slash.
pub(crate) fn trim_url(url: &str) -> String {
    url.trim().trim_end_matches('/').to_owned()
}
