//! The HSL route a call names, from OTP: its id, its lines of stops per direction, and the
//! names of its stops by HFP's stop number. Read once per upstream answer.

use std::collections::HashMap;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::json;

use super::hfp::Watched;
use super::types::{LineStop, VehicleRouteLine};
use crate::Toolpack;
use crate::digitransit::place::{Language, contract_mode};
use crate::digitransit::response::{DigitransitErrorCode, Failure};
use crate::digitransit::stop_info::StopRoute;
use crate::digitransit::upstream::{self, UpstreamFailure};
use crate::http::AnswerKind;

/// The query sent (also checked against the OTP schema in tests).
pub const QUERY: &str = include_str!("../queries/vehicle_route.graphql");
/// The feed whose routes HFP reports, and the prefix of their ids.
pub(crate) use super::hfp::GTFS_FEED as HSL_FEED;

/// A route as the tool uses it.
#[derive(Debug)]
pub(crate) struct KnownRoute {
    pub(crate) route: StopRoute,
    /// HFP's id of the route: the GTFS id without its feed.
    pub(crate) hfp_id: String,
    pub(crate) lines: Vec<VehicleRouteLine>,
    /// Stop names by HFP's stop number.
    pub(crate) stop_names: HashMap<String, String>,
}

/// The routes of one upstream answer.
pub(crate) struct Routes(Vec<KnownRoute>);

#[derive(Deserialize)]
struct Data {
    #[serde(default)]
    route: Option<OtpRoute>,
    #[serde(default)]
    routes: Option<Vec<Option<OtpRoute>>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct OtpRoute {
    gtfs_id: String,
    short_name: Option<String>,
    long_name: Option<String>,
    mode: Option<String>,
    #[serde(default)]
    patterns: Option<Vec<Option<OtpPattern>>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct OtpPattern {
    direction_id: Option<i64>,
    headsign: Option<String>,
    #[serde(default)]
    stops: Option<Vec<OtpStop>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct OtpStop {
    gtfs_id: String,
    name: Option<String>,
    lat: f64,
    lon: f64,
}

impl Routes {
    fn of(data: Data) -> Self {
        let listed = data.routes.unwrap_or_default().into_iter().flatten();
        Self(
            data.route
                .into_iter()
                .chain(listed)
                .filter_map(KnownRoute::of)
                .collect(),
        )
    }
}

impl KnownRoute {
    fn of(otp: OtpRoute) -> Option<Self> {
        let hfp_id = otp
            .gtfs_id
            .strip_prefix(HSL_FEED)
            .filter(|id| Watched::is_topic_safe(id))?
            .to_owned();
        let mut longest: HashMap<u8, (Option<String>, Vec<LineStop>)> = HashMap::new();
        let mut stop_names = HashMap::new();
        for pattern in otp.patterns.unwrap_or_default().into_iter().flatten() {
            let stops: Vec<LineStop> = pattern
                .stops
                .unwrap_or_default()
                .into_iter()
                .map(|s| LineStop {
                    name: s.name.unwrap_or_else(|| s.gtfs_id.clone()),
                    gtfs_id: s.gtfs_id,
                    lat: s.lat,
                    lon: s.lon,
                })
                .collect();
            for stop in &stops {
                if let Some(number) = stop.gtfs_id.strip_prefix(HSL_FEED) {
                    stop_names.insert(number.to_owned(), stop.name.clone());
                }
            }
            let Some(direction) = pattern.direction_id.and_then(|d| u8::try_from(d).ok()) else {
                continue;
            };
            let known = longest.entry(direction).or_default();
            if stops.len() > known.1.len() {
                *known = (pattern.headsign, stops);
            }
        }
        let mut lines: Vec<VehicleRouteLine> = longest
            .into_iter()
            .map(|(direction_id, (headsign, stops))| VehicleRouteLine {
                direction_id,
                headsign,
                stops,
            })
            .collect();
        lines.sort_by_key(|line| line.direction_id);
        Some(Self {
            route: StopRoute {
                gtfs_id: otp.gtfs_id,
                short_name: otp.short_name,
                long_name: otp.long_name,
                mode: contract_mode(otp.mode.as_deref().unwrap_or("BUS")),
            },
            hfp_id,
            lines,
            stop_names,
        })
    }

    /// The line as riders know it.
    pub(crate) fn line(&self) -> &str {
        self.route
            .short_name
            .as_deref()
            .unwrap_or(&self.route.gtfs_id)
    }
}

/// The HSL route `asked` names: an id (`HSL:2550`) or a line (`550`).
pub(crate) async fn find(toolpack: &Toolpack, asked: &str) -> Result<FoundRoute, Failure> {
    let by_id = asked.contains(':');
    if by_id && !asked.starts_with(HSL_FEED) {
        return Err(only_hsl(&format!("'{asked}' is not one of HSL's routes")));
    }
    let (operation, variables) = if by_id {
        ("VehicleRoute", json!({ "id": asked }))
    } else {
        ("VehicleRoutesNamed", json!({ "name": asked }))
    };
    let routes = upstream::graphql_shaped(
        toolpack,
        AnswerKind::Places,
        QUERY,
        operation,
        variables,
        Language::En,
        Routes::of,
    )
    .await
    .map_err(UpstreamFailure::for_routing)?;
    let wanted = |r: &KnownRoute| {
        by_id
            || r.route
                .short_name
                .as_deref()
                .is_some_and(|n| n.eq_ignore_ascii_case(asked))
    };
    let index = routes.0.iter().position(wanted).ok_or_else(|| {
        Failure::new(
            DigitransitErrorCode::NotFound,
            format!("HSL has no route '{asked}'."),
        )
        .hint(
            "Give the line as riders say it (\"550\", \"4\", \"M1\") or an id from get_stop_info.",
        )
    })?;
    Ok(FoundRoute { routes, index })
}

/// The route a call found, inside the upstream answer every caller shares.
pub(crate) struct FoundRoute {
    routes: Arc<Routes>,
    index: usize,
}

impl std::ops::Deref for FoundRoute {
    type Target = KnownRoute;
    fn deref(&self) -> &KnownRoute {
        &self.routes.0[self.index]
    }
}

/// The answer for what HSL's live feed does not cover.
pub(crate) fn only_hsl(what: &str) -> Failure {
    Failure::new(
        DigitransitErrorCode::UnsupportedRegion,
        format!("{what}: live vehicle positions come from HSL's feed (HFP), which covers the Helsinki region's routes only."),
    )
    .hint("Ask for an HSL route or stop, e.g. \"550\" or \"HSL:1130446\".")
}
