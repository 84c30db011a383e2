//! `vehicle_positions`: where HSL's buses, trams, metros, trains and ferries are now, from
//! HSL's high-frequency positioning feed (HFP, MQTT). A route's vehicles (one direction or
//! both), or the vehicles whose next stop is a stop. The route and the stop are checked
//! through OTP; the positions come from one subscription per route or stop, shared by
//! every caller ([`feed`]).

mod answer;
pub(crate) mod feed;
pub(crate) mod hfp;
mod route;
mod types;

pub use feed::FeedCounts;
pub use types::{
    LineStop, NextStop, VehiclePosition, VehiclePositionsRequest, VehiclePositionsResult,
    VehicleRouteLine,
};

use super::place::checked_text;
use super::response::{DigitransitErrorCode, DigitransitResponse, Failure};
use super::stop_info::stop_details;
use super::upstream;
use crate::Toolpack;
use crate::config::{Config, DigitransitRouter};
use crate::tool::{Tool, ToolSpec};
use answer::{Asked, answer};
use hfp::Watched;

/// Longest route or stop text, in characters.
const MAX_ID_CHARS: usize = 64;

/// The `vehicle_positions` tool.
#[derive(Debug, Clone, Copy)]
pub struct VehiclePositions;

// `asOf` and `stale` say how fresh the positions are, not the route's upstream answer:
// the tool fills them in itself.
impl crate::tool::SuccessBody for VehiclePositionsResult {}

impl Tool for VehiclePositions {
    type Input = VehiclePositionsRequest;
    type Output = DigitransitResponse<VehiclePositionsResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "vehicle_positions",
        title: "Where HSL's vehicles are now",
        description: "Where is my bus now? Live positions of the Helsinki region's buses, trams, \
metros and trains on a line, or heading to a stop: delay, speed, next stop, how full.",
        summary: "Live vehicle positions on an HSL line or heading to a stop",
        ..upstream::LIVE_TOOL
    };

    fn missing_prerequisite(config: &Config) -> Option<String> {
        upstream::missing_key(config)
    }

    async fn run(toolpack: &Toolpack, input: Self::Input) -> Self::Output {
        DigitransitResponse::answer(|id| vehicle_positions(toolpack, input, id)).await
    }
}

async fn vehicle_positions(
    toolpack: &Toolpack,
    input: VehiclePositionsRequest,
    correlation_id: String,
) -> Result<VehiclePositionsResult, Failure> {
    let asked = checked(&input)?;
    let router = toolpack.config().digitransit_router();
    if matches!(
        router,
        DigitransitRouter::Waltti | DigitransitRouter::Varely
    ) {
        return Err(route::only_hsl(&format!(
            "The router is '{}'",
            router.as_str()
        )));
    }
    let feed = &toolpack.digitransit().vehicles;
    match asked {
        Target::Route(text) => {
            let found = route::find(toolpack, text).await?;
            let snapshot = feed.watch(&Watched::Route(found.hfp_id.clone())).await;
            answer(
                Asked::Route(&found, input.direction),
                snapshot,
                feed.stale_after(),
                correlation_id,
            )
        }
        Target::Stop(id) => {
            let Some(number) = id.strip_prefix(route::HSL_FEED) else {
                return Err(route::only_hsl(&format!(
                    "'{id}' is not one of HSL's stops"
                )));
            };
            if !Watched::is_topic_safe(number) {
                return Err(Failure::validation(format!(
                    "stop must be a stop id such as HSL:1130446; got '{id}'."
                )));
            }
            let stop = stop_details(toolpack, id).await?.ok_or_else(|| {
                Failure::new(
                    DigitransitErrorCode::NotFound,
                    format!("No stop has the id '{id}'."),
                )
                .hint("Find stop ids with find_stops.")
            })?;
            let snapshot = feed.watch(&Watched::NextStop(number.to_owned())).await;
            answer(
                Asked::Stop(stop),
                snapshot,
                feed.stale_after(),
                correlation_id,
            )
        }
    }
}

/// What a call asks about, once checked.
enum Target<'a> {
    Route(&'a str),
    Stop(&'a str),
}

fn checked(input: &VehiclePositionsRequest) -> Result<Target<'_>, Failure> {
    if input.direction.is_some_and(|d| d > 1) {
        return Err(Failure::validation("direction must be 0 or 1."));
    }
    match (&input.route, &input.stop) {
        (Some(route), None) => {
            let route = checked_text("route", route, MAX_ID_CHARS)?;
            let local = route.split_once(':').map_or(route, |(_, id)| id);
            if !Watched::is_topic_safe(local) {
                return Err(Failure::validation(format!(
                    "route must be a line such as 550 or an id such as HSL:2550; got '{route}'."
                )));
            }
            Ok(Target::Route(route))
        }
        (None, Some(stop)) if input.direction.is_none() => {
            Ok(Target::Stop(checked_text("stop", stop, MAX_ID_CHARS)?))
        }
        (None, Some(_)) => Err(Failure::validation(
            "direction goes with a route; a stop's vehicles are those heading to it.",
        )),
        _ => Err(Failure::validation("Give exactly one of route and stop.")
            .hint("route: a line such as \"550\"; stop: an id such as \"HSL:1130446\".")),
    }
}

impl Toolpack {
    /// What the live vehicle feed holds and has counted: routes and stops followed,
    /// positions held, messages kept, skipped as malformed or over the bound, and
    /// subscriptions asked of the broker.
    pub fn vehicle_feed_counts(&self) -> FeedCounts {
        self.digitransit().vehicles.counts()
    }
}
