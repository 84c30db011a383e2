//! The TfL family's settings table.

use std::path::PathBuf;

use super::setting::{number, path, secret, settings_table, url};
use crate::secret::Secret;

/// Default TfL API base URL.
pub const DEFAULT_TFL_API_BASE_URL: &str = "https://api.tfl.gov.uk";

settings_table! {
    /// The TfL family's settings.
    TflSettings {
        /// TfL API key (sent as the `app_key` header). Required by `planJourney`.
        api_key: Option<Secret> = None, TFL_API_KEY, secret;
        /// TfL API base URL. Default `https://api.tfl.gov.uk`.
        base_url: String = DEFAULT_TFL_API_BASE_URL.to_owned(), TFL_API_BASE_URL, url;
        /// Directory of the "TfL station data detailed" CSVs (`tfl.station-data.detailed-dir`).
        station_data_dir: Option<PathBuf> = None, TFL_STATION_DATA_DETAILED_DIR, path;
        /// Optional shared ceiling of TfL upstream calls per second, over every caller
        /// (protects the TfL key's quota; default 0 = none).
        api_rate_limit: u32 = 0, TFL_API_RATE_LIMIT_PER_SECOND, number;
        /// The TfL key's budget of upstream requests per minute, over every caller and every
        /// retry (default 500, TfL's limit for a registered key; 0 = none). Cached answers
        /// cost nothing; over budget, a call waits `TOOLPACK_UPSTREAM_BUDGET_WAIT_MS`.
        api_budget_per_minute: u32 = 500, TFL_API_BUDGET_PER_MINUTE, number;
    }
}
