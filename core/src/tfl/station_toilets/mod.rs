//! `stationToilets`: toilet facilities at a London station, from TfL station data.

mod completion;
pub(crate) mod data;
mod matching;
mod name;
mod platforms;
mod station_lines;
mod titles;
mod types;

use std::collections::HashMap;
use std::sync::Arc;

pub use types::{
    StationDisambiguationSuggestion, StationToiletDetail, StationToiletLookupRequest,
    StationToiletToolResponse, StationToiletsCode,
};

pub use self::completion::station_names;
use self::data::{StationData, StationDataSource};
pub(crate) use self::matching::{Asked, Resolution, resolve, resolve_asking};
pub(crate) use self::name::NormalizedName;
use crate::Toolpack;
use crate::report::{self, Level};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

/// Longest accepted station name, in characters.
pub const MAX_STATION_NAME_CHARS: usize = 100;

/// The `stationToilets` tool.
#[derive(Debug, Clone, Copy)]
pub struct StationToilets;

impl Tool for StationToilets {
    type Input = StationToiletLookupRequest;
    type Output = StationToiletToolResponse;
    const SPEC: ToolSpec = ToolSpec {
        name: "stationToilets",
        title: "London station toilets",
        description: "Toilets at a London station: where, accessible, baby changing, inside the gates, free or \
paid (TfL station data, offline).",
        summary: "Toilets at a London station (location, platform numbers, accessible, baby changing, inside the gates, fee, type), from TfL station data bundled in the crate",
        needs: "nothing (offline)",
        toolset: Toolset::Tfl,
        annotations: Annotations::READ_ONLY_LOCAL,
    };

    async fn run(toolpack: &Toolpack, input: Self::Input) -> Self::Output {
        let query = match validate_station_name("stationName", &input.station_name) {
            Ok(query) => query,
            Err(message) => {
                return StationToiletToolResponse::error(
                    StationToiletsCode::ValidationError,
                    message,
                );
            }
        };
        let data = match station_data(toolpack).await {
            Ok(data) => data,
            Err(()) => {
                return StationToiletToolResponse::error(
                    StationToiletsCode::DataNotAvailable,
                    "Station data is not available.",
                );
            }
        };
        // The tool stays offline: no lines, so its choices are titled by the kind of station
        // their ids name (and the id, where two are of one kind).
        let no_lines = async |_: &[String]| HashMap::new();
        let asked = resolve_asking(&data, &input.station_name, &query, "stationName", no_lines);
        answer(&data, asked.await)
    }
}

crate::tfl::tfl_tool_output!(
    StationToiletToolResponse,
    StationToiletsCode,
    "Unexpected error while looking up station toilets."
);

/// A station name given in `field` as a query for [`resolve`], or why it cannot be one.
/// The one check of a station name in the TfL family (`stationToilets`, `liftOutages`).
pub(crate) fn validate_station_name(
    field: &str,
    station_name: &str,
) -> Result<NormalizedName, String> {
    let trimmed = station_name.trim();
    if trimmed.is_empty() {
        return Err(format!("Field '{field}' must be provided."));
    }
    if trimmed.chars().count() > MAX_STATION_NAME_CHARS {
        return Err(format!(
            "Field '{field}' must be at most {MAX_STATION_NAME_CHARS} characters."
        ));
    }
    if trimmed.chars().any(char::is_control) {
        return Err(format!(
            "Field '{field}' must not contain control characters."
        ));
    }
    let query = NormalizedName::new(trimmed);
    if query.is_empty() {
        return Err(format!("Field '{field}' must contain letters or digits."));
    }
    Ok(query)
}

/// The station data of this toolpack, loaded on first use and cached. A failed load
/// is logged and retried on the next call, so a directory that appears later works.
pub(crate) async fn station_data(toolpack: &Toolpack) -> Result<Arc<StationData>, ()> {
    toolpack
        .tfl()
        .stations
        .get_or_try_init(|| async {
            // Finding the source (a directory check) and parsing the CSVs block: keep them
            // off the caller's thread, which may be an event loop (Node, asyncio).
            let config = toolpack.config().clone();
            let (source, loaded) = tokio::task::spawn_blocking(move || {
                let source = StationDataSource::resolve(&config);
                let loaded = StationData::load(&source);
                (source, loaded)
            })
            .await
            .map_err(|_| ())?;
            if source == StationDataSource::Bundled {
                report::log(
                    Level::Notice,
                    "toolpack::tfl",
                    "no station data directory is configured or found: using the bundled \
snapshot (TfL feed of 2026-08-03)",
                );
            }
            loaded.map(Arc::new).map_err(|error| {
                report::log(
                    Level::Error,
                    "toolpack::tfl",
                    format!("station data not available: {error}"),
                );
                tracing::warn!(%error, "station data not available");
            })
        })
        .await
        .cloned()
}

fn answer(data: &StationData, asked: Asked<'_>) -> StationToiletToolResponse {
    match asked {
        Asked::Found(station) => {
            let toilets = data.toilets_of(&station.unique_id).to_vec();
            let message = toilets_message(&station.name, &toilets);
            StationToiletToolResponse {
                success: true,
                code: StationToiletsCode::Ok,
                message,
                station_name: Some(station.name.clone()),
                station_unique_id: Some(station.unique_id.clone()),
                toilets: Some(toilets),
                station_disambiguation: None,
            }
        }
        Asked::Ambiguous(candidates) => StationToiletToolResponse {
            station_disambiguation: Some(candidates),
            ..StationToiletToolResponse::error(
                StationToiletsCode::DisambiguationRequired,
                "Input station name is ambiguous. Choose one of the suggested stationUniqueId values.",
            )
        },
        Asked::NotFound => StationToiletToolResponse::error(
            StationToiletsCode::StationNotFound,
            "No station matches the given name.",
        ),
    }
}

/// What a person asking "are there toilets" hears: how many, how many accessible, with
/// baby changing, inside the gate line, and what a fee is asked for
/// ("King's Cross St. Pancras: 4 toilets, 3 accessible, 2 with baby changing, 1 inside the
/// gate line; all free.").
fn toilets_message(station: &str, toilets: &[StationToiletDetail]) -> String {
    if toilets.is_empty() {
        return format!("{station} has no toilets in TfL's station data.");
    }
    let count = |has: fn(&StationToiletDetail) -> bool| toilets.iter().filter(|t| has(t)).count();
    let total = toilets.len();
    let plural = if total == 1 { "toilet" } else { "toilets" };
    let mut parts = vec![format!("{total} {plural}")];
    for (n, what) in [
        (count(|t| t.accessible), "accessible"),
        (count(|t| t.baby_changing), "with baby changing"),
        (count(|t| t.inside_gate_line), "inside the gate line"),
    ] {
        parts.push(match n {
            0 => format!("none {what}"),
            n if n == total && total > 1 => format!("all {what}"),
            n => format!("{n} {what}"),
        });
    }
    let fees = match count(|t| t.fee_charged) {
        0 => "free".to_owned(),
        n if n == total => "a fee is charged".to_owned(),
        1 => "1 charges a fee".to_owned(),
        n => format!("{n} charge a fee"),
    };
    format!("{station}: {}; {fees}.", parts.join(", "))
}
