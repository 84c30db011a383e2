//! The Digitransit family's settings table, and its router choice.

use std::str::FromStr;

use super::setting::{ConfigError, SettingValue, number, parsed, secret, settings_table, url};
use crate::secret::Secret;

/// Default Digitransit base URL.
pub const DEFAULT_DIGITRANSIT_BASE_URL: &str = "https://api.digitransit.fi";

settings_table! {
    /// The Digitransit family's settings.
    DigitransitSettings {
        /// Digitransit API key (sent as the `digitransit-subscription-key` header).
        api_key: Option<Secret> = None, DIGITRANSIT_API_KEY, secret;
        /// Digitransit base URL. Default `https://api.digitransit.fi`.
        base_url: String = DEFAULT_DIGITRANSIT_BASE_URL.to_owned(), DIGITRANSIT_BASE_URL, url;
        /// Digitransit router: `hsl`, `waltti`, `finland` (default) or `varely`.
        router: DigitransitRouter = DigitransitRouter::default(), DIGITRANSIT_ROUTER, parsed;
        /// Optional shared ceiling of Digitransit upstream calls per second, over every
        /// caller (protects the Digitransit key's quota; default 0 = none).
        api_rate_limit: u32 = 0, DIGITRANSIT_API_RATE_LIMIT_PER_SECOND, number;
        /// The Digitransit key's budget of upstream requests per minute, over every caller
        /// and every retry (default 0 = none: set it to your subscription's quota).
        api_budget_per_minute: u32 = 0, DIGITRANSIT_API_BUDGET_PER_MINUTE, number;
    }
}

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

impl SettingValue for DigitransitRouter {
    const SECRET: bool = false;
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
