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
        /// HSL's live vehicle feed (HFP), an MQTT broker: `mqtts://host:port` (TLS) or
        /// `mqtt://host:port`. Default `mqtts://mqtt.hsl.fi:8883`; no key.
        hfp_url: HfpUrl = HfpUrl::default(), DIGITRANSIT_HFP_URL, parsed;
        /// Seconds a route's or stop's live vehicles are still followed after the last call
        /// that asked for them (default 300).
        hfp_idle_seconds: u32 = 300, DIGITRANSIT_HFP_IDLE_SECONDS, number;
        /// The most routes and stops whose live vehicles are followed at once (default 50);
        /// asking for one more stops following the one asked for least recently.
        hfp_max_subscriptions: u32 = 50, DIGITRANSIT_HFP_MAX_SUBSCRIPTIONS, number;
        /// The most live vehicle positions held, over every route and stop (default 5000).
        hfp_max_vehicles: u32 = 5000, DIGITRANSIT_HFP_MAX_VEHICLES, number;
        /// Seconds held vehicle positions are still served, marked stale, while the feed
        /// cannot be reached (default 120).
        hfp_stale_seconds: u32 = 120, DIGITRANSIT_HFP_STALE_SECONDS, number;
    }
}

/// How HSL's live vehicle feed is reached, and the bounds of what following it holds
/// ([`crate::Config::hfp`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HfpSettings {
    /// The broker.
    pub url: HfpUrl,
    /// How long a route or stop is followed after the last call that asked for it.
    pub idle: std::time::Duration,
    /// The most routes and stops followed at once (at least 1).
    pub max_subscriptions: usize,
    /// The most vehicle positions held.
    pub max_vehicles: usize,
    /// How old held positions may be and still be served, marked stale, while the broker
    /// cannot be reached.
    pub stale_after: std::time::Duration,
}

/// Where HSL's live vehicle feed is: an MQTT broker's host and port, and whether it speaks
/// TLS (`mqtts://`) or not (`mqtt://`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HfpUrl {
    /// Whether the connection uses TLS (`mqtts://`).
    pub tls: bool,
    /// The broker's host name or address.
    pub host: String,
    /// The broker's port.
    pub port: u16,
}

impl Default for HfpUrl {
    fn default() -> Self {
        Self {
            tls: true,
            host: "mqtt.hsl.fi".to_owned(),
            port: 8883,
        }
    }
}

impl SettingValue for HfpUrl {
    const SECRET: bool = false;
}

impl std::fmt::Display for HfpUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let scheme = if self.tls { "mqtts" } else { "mqtt" };
        write!(f, "{scheme}://{}:{}", self.host, self.port)
    }
}

impl FromStr for HfpUrl {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let invalid = || {
            ConfigError::invalid(
                env::DIGITRANSIT_HFP_URL,
                "expected mqtts://host:port or mqtt://host:port",
            )
        };
        let s = s.trim().trim_end_matches('/');
        let (tls, rest) = if let Some(rest) = s.strip_prefix("mqtts://") {
            (true, rest)
        } else if let Some(rest) = s.strip_prefix("mqtt://") {
            (false, rest)
        } else {
            return Err(invalid());
        };
        let (host, port) = match rest.rsplit_once(':') {
            Some((host, port)) => (host, port.parse().map_err(|_| invalid())?),
            None => (rest, if tls { 8883 } else { 1883 }),
        };
        if host.is_empty() || host.contains(['/', '@', ' ']) {
            return Err(invalid());
        }
        Ok(Self {
            tls,
            host: host.to_owned(),
            port,
        })
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
