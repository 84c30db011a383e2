//! `crowding`: how busy a London Underground station is now against its usual level, and
//! through a typical day, from TfL's crowding figures (`/crowding/{naptan}/Live` and
//! `/crowding/{naptan}`; not in TfL's Swagger file). The figures are each station's
//! busyness as a fraction of its own baseline, never head counts, and the answer says so.
//! `/StopPoint/{id}/Crowding/{line}`, which the Swagger file lists, is not used: it answers
//! a plain stop point with no crowding in it (radiosilence/tfl-mcp's finding).

mod answer;
mod types;
mod wire;

pub use types::{
    Busyness, CrowdingRequest, CrowdingResponse, CrowdingStation, LiveCrowding, TimeBand,
    TypicalDay, Weekday,
};

use crate::Toolpack;
use crate::http::AnswerKind;
use crate::tfl::london::london;
use crate::tfl::station_toilets::validate_station_name;
use crate::tfl::stops::{Stop, resolve_stop, stop_point};
use crate::tfl::upstream::{self, Failure};
use crate::tfl::{TflCode, station_data};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};
use wire::{LiveBody, Week};

/// The `crowding` tool.
#[derive(Debug, Clone, Copy)]
pub struct Crowding;

impl Tool for Crowding {
    type Input = CrowdingRequest;
    type Output = CrowdingResponse;
    const SPEC: ToolSpec = ToolSpec {
        name: "crowding",
        title: "How busy is a London station",
        description: "How busy a London Underground station is now against its usual level, \
and through a typical day: the peaks and the quietest times (TfL).",
        summary: "How busy a London Underground station is now against its usual level, and \
its typical day with peaks and quietest times (TfL)",
        needs: "nothing (`TFL_API_KEY` raises TfL's limit from 50 to 500 requests a minute)",
        toolset: Toolset::Tfl,
        annotations: Annotations::READ_ONLY_REMOTE,
    };

    async fn run(toolpack: &Toolpack, input: Self::Input) -> Self::Output {
        let query = match validate_station_name("station", &input.station) {
            Ok(query) => query,
            Err(message) => return CrowdingResponse::error(TflCode::ValidationError, message),
        };
        let (id, name) = match resolve_stop(toolpack, &input.station, &query).await {
            Ok(Stop::Found { id, name }) => (id, name),
            Ok(Stop::Ambiguous(candidates)) => {
                return CrowdingResponse {
                    stop_disambiguation: Some(candidates),
                    ..CrowdingResponse::error(
                        TflCode::DisambiguationRequired,
                        "Input station name is ambiguous. Choose one of the suggested stop ids.",
                    )
                };
            }
            Ok(Stop::NotFound) => {
                return CrowdingResponse::error(
                    TflCode::StopNotFound,
                    "No station matches the given name or id.",
                );
            }
            Err(failure) => return failed(&failure),
        };
        let naptan = if id.starts_with("HUB") {
            match underground_station_of_hub(toolpack, &id).await {
                Ok((Some(station), _)) => station,
                Ok((None, hub_name)) => {
                    let name = name.or(hub_name).unwrap_or_else(|| id.clone());
                    return no_figures(&name, &id);
                }
                Err(failure) => return failed(&failure),
            }
        } else {
            id
        };
        let name = match name {
            Some(name) => name,
            None => station_name(toolpack, &naptan).await,
        };
        // The week first: kept for hours, it is usually answered from the cache, and a
        // station it does not know needs no live request.
        let week = match upstream::get_shared::<Week>(
            toolpack,
            AnswerKind::Places,
            &format!("/crowding/{naptan}"),
            &[],
        )
        .await
        {
            Ok(week) => week,
            Err(Failure::NotFound(_)) => return no_figures(&name, &naptan),
            Err(failure) => return failed(&failure),
        };
        let live = upstream::get::<LiveBody>(
            toolpack,
            AnswerKind::Arrivals,
            &format!("/crowding/{naptan}/Live"),
            &[],
        )
        .await;
        // A 404 for the live figure is no live figure.
        let live = match live {
            Ok(live) => Some(live),
            Err(Failure::NotFound(_)) => None,
            Err(failure) => return failed(&failure),
        };
        let live_now = live
            .as_ref()
            .is_some_and(|l| l.data_available == Some(true));
        if !week.found && !live_now {
            return no_figures(&name, &naptan);
        }
        let today = answer::weekday_of(jiff::Zoned::now().with_time_zone(london()).weekday());
        answer::answer(
            CrowdingStation { id: naptan, name },
            live.as_ref(),
            &week,
            input.day,
            input.quarter_hours.unwrap_or(false),
            today,
        )
    }
}

crate::tfl::tfl_tool_output!(
    CrowdingResponse,
    TflCode,
    "Unexpected error while getting crowding figures.",
    live
);

/// The Underground station of hub `hub` (`HUBKGX` → `940GZZLUKSX`), and the hub's name:
/// TfL's crowding figures are by Underground station, and it refuses a hub's id.
async fn underground_station_of_hub(
    toolpack: &Toolpack,
    hub: &str,
) -> Result<(Option<String>, Option<String>), Failure> {
    let hub = stop_point(toolpack, hub).await?;
    let station = hub
        .children
        .iter()
        .filter_map(|child| child.stop_id())
        .find(|id| id.starts_with(UNDERGROUND_STATION))
        .map(str::to_owned);
    Ok((station, hub.common_name))
}

/// The name of the station of NaPTAN stop area `naptan`, from the bundled station data
/// (its platforms' stop areas); the id itself when the data does not list it.
async fn station_name(toolpack: &Toolpack, naptan: &str) -> String {
    station_data(toolpack)
        .await
        .ok()
        .and_then(|data| data.station_by_naptan(naptan).map(|s| s.name.clone()))
        .unwrap_or_else(|| naptan.to_owned())
}

/// `CROWDING_NOT_FOUND`: TfL has no figures for the station `name` (stop `id`). Only of
/// a stop that is not an Underground station is the reason known: TfL publishes figures
/// for Underground stations alone (and not for every one of them).
fn no_figures(name: &str, id: &str) -> CrowdingResponse {
    let message = if id.starts_with(UNDERGROUND_STATION) {
        format!("TfL has no crowding figures for {name}.")
    } else {
        format!(
            "TfL has no crowding figures for {name}: it publishes them for London Underground \
stations only, not for the Elizabeth line, Overground, DLR, trams or bus stops."
        )
    };
    CrowdingResponse::error(TflCode::CrowdingNotFound, message)
}

/// The NaPTAN prefix of an Underground station's stop area.
const UNDERGROUND_STATION: &str = "940GZZLU";

fn failed(failure: &Failure) -> CrowdingResponse {
    CrowdingResponse::error(TflCode::from(failure), failure.message())
}
