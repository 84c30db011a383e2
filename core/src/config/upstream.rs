//! The settings of the shared upstream layer (`crate::http`): its response cache, how
//! long each kind of answer stays fresh, how long a stale answer may stand in for an
//! error, how long a caller waits for the key's budget, and what replicas share.

use super::setting::{number, settings_table, switch};

/// Default size of the shared response cache, in bytes (64 MiB).
pub const DEFAULT_UPSTREAM_CACHE_BYTES: u64 = 64 * 1024 * 1024;

/// Default bound of the cache replicas share in PostgreSQL, in bytes (256 MiB).
pub const DEFAULT_SHARED_CACHE_BYTES: u64 = 256 * 1024 * 1024;

settings_table! {
    /// The shared upstream layer's settings.
    UpstreamSettings {
        /// Size of the shared upstream response cache, in bytes (least recently used answers
        /// go first; default 64 MiB; 0 = no cache, identical requests in flight are still
        /// coalesced).
        cache_bytes: u64 = DEFAULT_UPSTREAM_CACHE_BYTES, TOOLPACK_UPSTREAM_CACHE_BYTES, number;
        /// How long past fresh a cached answer may stand in when the upstream times out, errs
        /// or is over budget, in seconds (default 300; 0 = never). Such answers say
        /// `stale: true`.
        stale_if_error_seconds: u32 = 300, TOOLPACK_STALE_IF_ERROR_SECONDS, number;
        /// How long a call waits for the upstream key's budget before it is answered from the
        /// cache (stale) or refused with the contract's rate-limit code, in milliseconds
        /// (default 2000).
        budget_wait_ms: u32 = 2000, TOOLPACK_UPSTREAM_BUDGET_WAIT_MS, number;
        /// Freshness of line status answers (`lineStatus`) when the upstream says nothing, in
        /// seconds (default 30; an upstream `max-age` or `Expires` that is shorter wins).
        fresh_line_status_seconds: u32 = 30, TOOLPACK_FRESH_LINE_STATUS_SECONDS, number;
        /// Freshness of arrivals and departures (`arrivals`, `get_departures`), in seconds
        /// (default 20).
        fresh_arrivals_seconds: u32 = 20, TOOLPACK_FRESH_ARRIVALS_SECONDS, number;
        /// Freshness of journeys (`planJourney`, `plan_trip`), in seconds (default 60).
        fresh_journeys_seconds: u32 = 60, TOOLPACK_FRESH_JOURNEYS_SECONDS, number;
        /// Freshness of disruptions: alerts and lift outages (`liftOutages`, `get_alerts`,
        /// and `get_stop_info`, whose answer carries the stop's alerts), in seconds
        /// (default 60).
        fresh_disruptions_seconds: u32 = 60, TOOLPACK_FRESH_DISRUPTIONS_SECONDS, number;
        /// Freshness of bike and rental availability (`bikePoints`, `find_rental_vehicles`),
        /// in seconds (default 60).
        fresh_bikes_seconds: u32 = 60, TOOLPACK_FRESH_BIKES_SECONDS, number;
        /// Freshness of places: stop searches, line routes and geocoding (`stopSearch`,
        /// `lineRoute`, `find_stops`, `geocode_address`, `reverse_geocode`, and the stop
        /// lookups of `arrivals`), in seconds (default 43200, 12 h).
        fresh_places_seconds: u32 = 43_200, TOOLPACK_FRESH_PLACES_SECONDS, number;
        /// With `TOOLPACK_DATABASE_URL`, whether replicas share each key's budget, the upstream
        /// answers and the per-caller limits there (`on`, the default; `off`: each replica
        /// keeps its own, as without a database).
        shared_state: bool = true, TOOLPACK_SHARED_STATE, switch;
        /// Bound of the upstream answers replicas share in PostgreSQL, in bytes (the least
        /// fresh go first; default 256 MiB; 0 = none shared, the budget and limits still are).
        shared_cache_bytes: u64 = DEFAULT_SHARED_CACHE_BYTES, TOOLPACK_SHARED_CACHE_BYTES, number;
    }
}
