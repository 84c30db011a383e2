//! `liftOutages`: the lifts out of service at London stations, from the TfL Unified API
//! (`GET /Disruptions/Lifts/v2`, which needs no key), named from the TfL station data
//! `stationToilets` uses.

mod types;

pub use types::{LiftOutage, LiftOutagesRequest, LiftOutagesResponse};

use serde::Deserialize;

use crate::Toolpack;
use crate::http::AnswerKind;
use crate::tfl::station_toilets::{Asked, resolve_asking, station_data, validate_station_name};
use crate::tfl::stops::station_lines;
use crate::tfl::upstream;
use crate::tfl::{TflCode, lenient};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

/// The `liftOutages` tool.
#[derive(Debug, Clone, Copy)]
pub struct LiftOutages;

impl Tool for LiftOutages {
    type Input = LiftOutagesRequest;
    type Output = LiftOutagesResponse;
    const SPEC: ToolSpec = ToolSpec {
        name: "liftOutages",
        title: "London lift outages",
        description: "Lifts out of service at London stations now (TfL): is the lift working, is there \
step-free access.",
        summary: "Lifts out of service at London stations now (TfL), by station: step-free access at a glance",
        needs: "nothing (TfL answers lift outages without a key)",
        toolset: Toolset::Tfl,
        annotations: Annotations::READ_ONLY_REMOTE,
    };

    async fn run(toolpack: &Toolpack, input: Self::Input) -> Self::Output {
        let query = match input.station.as_deref() {
            None => None,
            Some(raw) => match validate_station_name("station", raw) {
                Ok(query) => Some((raw, query)),
                Err(message) => {
                    return LiftOutagesResponse::error(TflCode::ValidationError, message);
                }
            },
        };
        // Without station data, outages show their ids, and a station is matched by id.
        let data = station_data(toolpack).await.ok();
        let station = match (&query, &data) {
            (None, _) => None,
            (Some((raw, _)), None) => Some(((*raw).trim().to_owned(), (*raw).trim().to_owned())),
            (Some((raw, query)), Some(data)) => {
                // A live tool: TfL's lines tell same-named stations apart.
                let lines_of = async |ids: &[String]| station_lines(toolpack, ids).await;
                match resolve_asking(data, raw, query, "station", lines_of).await {
                    Asked::Found(station) => {
                        Some((station.unique_id.clone(), station.name.clone()))
                    }
                    Asked::Ambiguous(candidates) => {
                        return LiftOutagesResponse {
                            station_disambiguation: Some(candidates),
                            ..LiftOutagesResponse::error(
                                TflCode::DisambiguationRequired,
                                "Input station name is ambiguous. Choose one of the suggested \
stationUniqueId values.",
                            )
                        };
                    }
                    Asked::NotFound => {
                        return LiftOutagesResponse::error(
                            TflCode::StationNotFound,
                            "No station matches the given name.",
                        );
                    }
                }
            }
        };
        let reported: Vec<Reported> = match upstream::get(
            toolpack,
            AnswerKind::Disruptions,
            "/Disruptions/Lifts/v2",
            &[],
        )
        .await
        {
            Ok(reported) => reported,
            Err(failure) => {
                return LiftOutagesResponse::error(TflCode::from(&failure), failure.message());
            }
        };
        let name_of = |id: &str| {
            data.as_ref()
                .and_then(|data| data.station_by_id(id))
                .map_or_else(|| id.to_owned(), |station| station.name.clone())
        };
        let mut outages: Vec<LiftOutage> = reported
            .into_iter()
            .filter_map(|r| {
                let station_id = r.station_unique_id.filter(|id| !id.trim().is_empty())?;
                Some(LiftOutage {
                    station_name: name_of(&station_id),
                    station_id,
                    lifts: r.disrupted_lift_unique_ids,
                    message: r.message.unwrap_or_default().trim().to_owned(),
                })
            })
            .filter(|o| station.as_ref().is_none_or(|(id, _)| o.station_id == *id))
            .collect();
        outages.sort_by(|a, b| {
            (&a.station_name, &a.station_id).cmp(&(&b.station_name, &b.station_id))
        });
        let message = outages_message(station.as_ref().map(|(_, name)| name.as_str()), &outages);
        LiftOutagesResponse {
            served: None,
            success: true,
            code: TflCode::Ok,
            message,
            outages: Some(outages),
            station_disambiguation: None,
        }
    }
}

/// The most stations the message names.
const STATIONS_SAID: usize = 5;

/// What a person asking "is the lift working" hears: at one station, TfL's own words on
/// the outage; over the network, which stations.
fn outages_message(station: Option<&str>, outages: &[LiftOutage]) -> String {
    match (station, outages) {
        (Some(name), []) => format!("No lift out of service reported at {name}."),
        (Some(name), [first, ..]) if first.message.starts_with(name) => first.message.clone(),
        (Some(name), [first, ..]) if !first.message.is_empty() => {
            format!("{name}: {}", first.message)
        }
        (Some(name), _) => format!("A lift is out of service at {name}."),
        (None, []) => "No lift out of service reported at any station.".to_owned(),
        (None, _) => {
            let names: Vec<&str> = outages
                .iter()
                .map(|o| o.station_name.as_str())
                .take(STATIONS_SAID)
                .collect();
            let more = match outages.len().saturating_sub(STATIONS_SAID) {
                0 => String::new(),
                n => format!(" and {n} more"),
            };
            let plural = if outages.len() == 1 {
                "station has"
            } else {
                "stations have"
            };
            format!(
                "{} {plural} a lift out of service: {}{more}.",
                outages.len(),
                names.join(", ")
            )
        }
    }
}

crate::tfl::tfl_tool_output!(
    LiftOutagesResponse,
    TflCode,
    "Unexpected error while getting lift outages.",
    live
);

/// One entry of `/Disruptions/Lifts/v2`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Reported {
    #[serde(default, deserialize_with = "lenient::string")]
    station_unique_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::list")]
    disrupted_lift_unique_ids: Vec<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    message: Option<String>,
}
