//! `arrivals`: the next trains, trams and buses at a stop, from the TfL Unified API
//! (`GET /StopPoint/{id}/Arrivals`; a hub has no predictions of its own, so it is expanded
//! to its stations and stops through `GET /StopPoint/{hub}`).

mod types;

pub use types::{
    ArrivalDirection, ArrivalsRequest, ArrivalsResponse, ArrivalsStop, PlatformArrivals,
};

use std::sync::Arc;

use futures_util::future::join_all;
use serde::Deserialize;

use crate::Toolpack;
use crate::http::AnswerKind;
use crate::tfl::checks::{id_beside_name, is_id};
use crate::tfl::london::london_iso_of_utc;
use crate::tfl::station_toilets::validate_station_name;
use crate::tfl::stops::{Stop, resolve_stop, short_place, stop_point};
use crate::tfl::upstream::{self, Failure};
use crate::tfl::{TflCode, lenient};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

/// Arrivals in an answer unless the call asks for fewer or more.
pub const DEFAULT_LIMIT: u32 = 20;
/// The most arrivals in one answer.
pub const MAX_LIMIT: u32 = 50;
/// The most stations and stops of a hub asked for their arrivals.
const MAX_HUB_CHILDREN: usize = 8;

/// The `arrivals` tool.
#[derive(Debug, Clone, Copy)]
pub struct Arrivals;

impl Tool for Arrivals {
    type Input = ArrivalsRequest;
    type Output = ArrivalsResponse;
    const SPEC: ToolSpec = ToolSpec {
        name: "arrivals",
        title: "Next arrivals at a London stop",
        description: "Next trains, tubes, trams and buses due at a London station or bus stop, live (TfL): \
line, platform, destination, minutes away.",
        summary: "The next trains, trams and buses at a London stop (TfL live predictions), soonest first",
        needs: "nothing (`TFL_API_KEY` raises TfL's limit from 50 to 500 requests a minute)",
        toolset: Toolset::Tfl,
        annotations: Annotations::READ_ONLY_REMOTE,
    };

    async fn run(toolpack: &Toolpack, input: Self::Input) -> Self::Output {
        let query = match validate_station_name("stop", &input.stop) {
            Ok(query) => query,
            Err(message) => return ArrivalsResponse::error(TflCode::ValidationError, message),
        };
        let lines = match line_filter(input.lines.as_deref()) {
            Ok(lines) => lines,
            Err(message) => return ArrivalsResponse::error(TflCode::ValidationError, message),
        };
        let limit = input.limit.unwrap_or(DEFAULT_LIMIT);
        if limit == 0 || limit > MAX_LIMIT {
            return ArrivalsResponse::error(
                TflCode::ValidationError,
                format!("Field 'limit' must be between 1 and {MAX_LIMIT}."),
            );
        }
        let (id, name) = match resolve_stop(toolpack, &input.stop, &query).await {
            Ok(Stop::Found { id, name }) => (id, name),
            Ok(Stop::Ambiguous(candidates)) => {
                return ArrivalsResponse {
                    stop_disambiguation: Some(candidates),
                    ..ArrivalsResponse::error(
                        TflCode::DisambiguationRequired,
                        "Input stop name is ambiguous. Choose one of the suggested stop ids.",
                    )
                };
            }
            Ok(Stop::NotFound) => return stop_not_found(),
            Err(failure) => return failed(&failure),
        };
        let (predictions, hub_name) = match predictions(toolpack, &id).await {
            Ok(found) => found,
            Err(Failure::NotFound(_)) => return stop_not_found(),
            Err(failure) => return failed(&failure),
        };
        let name = name
            .or(hub_name)
            .or_else(|| {
                predictions
                    .iter()
                    .flat_map(|answer| answer.iter())
                    .find_map(|p| p.station_name.clone())
            })
            .unwrap_or_else(|| id.clone());
        answer(
            &predictions,
            ArrivalsStop { id, name },
            &lines,
            input.direction,
            limit,
        )
    }
}

crate::tfl::tfl_tool_output!(
    ArrivalsResponse,
    TflCode,
    "Unexpected error while getting arrivals.",
    live
);

fn stop_not_found() -> ArrivalsResponse {
    ArrivalsResponse::error(
        TflCode::StopNotFound,
        "No stop matches the given name or id.",
    )
}

fn failed(failure: &Failure) -> ArrivalsResponse {
    ArrivalsResponse::error(TflCode::from(failure), failure.message())
}

/// The line ids to keep (trimmed, lower case), or why they are not ids.
fn line_filter(lines: Option<&[String]>) -> Result<Vec<String>, String> {
    let Some(lines) = lines else {
        return Ok(Vec::new());
    };
    if lines.is_empty() || lines.len() > 20 {
        return Err("Field 'lines' must list 1 to 20 line ids.".into());
    }
    lines
        .iter()
        .map(|line| {
            let id = line.trim().to_ascii_lowercase();
            if is_id(&id) {
                Ok(id)
            } else {
                Err(format!(
                    "Field 'lines' holds \"{}\", which is not a line id.",
                    upstream::clip(line, 60)
                ))
            }
        })
        .collect()
}

/// One `Tfl.Api.Presentation.Entities.Prediction`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Prediction {
    #[serde(default, deserialize_with = "lenient::string")]
    line_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    line_name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    platform_name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    direction: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    destination_name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    towards: Option<String>,
    #[serde(default, deserialize_with = "lenient::int")]
    time_to_station: Option<i64>,
    #[serde(default, deserialize_with = "lenient::string")]
    timestamp: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    station_name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    naptan_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    destination_naptan_id: Option<String>,
}

impl Prediction {
    /// Whether the vehicle ends its journey at the stop it is predicted at (TfL lists a
    /// Waterloo & City train arriving at Bank, its terminus, as arriving there).
    fn terminates_here(&self) -> bool {
        match (
            trimmed(&self.naptan_id),
            trimmed(&self.destination_naptan_id),
        ) {
            (Some(stop), Some(destination)) => stop == destination,
            _ => false,
        }
    }
}

/// Each upstream answer's predictions, as the shared layer keeps them decoded.
type Predictions = Arc<Vec<Prediction>>;

/// The predictions at `id` (one upstream answer, or one per child of a hub), and a hub's
/// name. A hub has no predictions of its own: its stations and stop clusters (not its
/// entrances) are asked, side by side, and merged; a child that fails is left out, unless
/// every one fails.
async fn predictions(
    toolpack: &Toolpack,
    id: &str,
) -> Result<(Vec<Predictions>, Option<String>), Failure> {
    if !id.starts_with("HUB") {
        let path = format!("/StopPoint/{id}/Arrivals");
        return Ok((
            vec![upstream::get_shared(toolpack, AnswerKind::Arrivals, &path, &[]).await?],
            None,
        ));
    }
    let hub = stop_point(toolpack, id).await?;
    let children: Vec<String> = hub
        .children
        .iter()
        .filter(|child| {
            child
                .stop_type
                .as_deref()
                .is_none_or(|t| !t.ends_with("Entrance") && !t.ends_with("AccessArea"))
        })
        .filter_map(|child| child.stop_id().map(str::to_owned))
        .take(MAX_HUB_CHILDREN)
        .collect();
    let answers = join_all(children.iter().map(|child| async move {
        let path = format!("/StopPoint/{child}/Arrivals");
        upstream::get_shared::<Vec<Prediction>>(toolpack, AnswerKind::Arrivals, &path, &[]).await
    }))
    .await;
    let mut merged = Vec::new();
    let mut first_failure = None;
    let mut answered = false;
    for answer in answers {
        match answer {
            Ok(predictions) => {
                answered = true;
                merged.push(predictions);
            }
            Err(failure) => {
                first_failure.get_or_insert(failure);
            }
        }
    }
    match first_failure {
        Some(failure) if !answered => Err(failure),
        _ => Ok((merged, hub.common_name)),
    }
}

fn answer(
    predictions: &[Predictions],
    stop: ArrivalsStop,
    lines: &[String],
    direction: Option<ArrivalDirection>,
    limit: u32,
) -> ArrivalsResponse {
    let direction = direction.map(|d| match d {
        ArrivalDirection::Inbound => "inbound",
        ArrivalDirection::Outbound => "outbound",
    });
    // Chosen and ordered on TfL's own values; only the first `limit` are copied out.
    let mut terminating = 0;
    let mut chosen: Vec<(i64, &str, Option<&str>, &Prediction)> = predictions
        .iter()
        .flat_map(|answer| answer.iter())
        .filter_map(|p| {
            let line_id = p.line_id.as_deref().filter(|l| !l.is_empty())?;
            Some((p.time_to_station?, line_id, trimmed(&p.platform_name), p))
        })
        .filter(|(_, line_id, ..)| {
            lines.is_empty() || lines.contains(&line_id.to_ascii_lowercase())
        })
        .filter(|(.., p)| direction.is_none_or(|d| trimmed(&p.direction) == Some(d)))
        .filter(|(.., p)| {
            let ends_here = p.terminates_here();
            terminating += usize::from(ends_here);
            !ends_here
        })
        .collect();
    // TfL lists predictions in no order; ties keep a stable, readable order.
    chosen.sort_by(|a, b| (a.0, a.1, a.2).cmp(&(b.0, b.1, b.2)));
    let predicted = chosen.len();
    chosen.truncate(limit as usize);
    let predicted_at = chosen
        .iter()
        .find_map(|(.., p)| trimmed(&p.timestamp))
        .map(london_iso_of_utc);
    let mut groups: Vec<PlatformArrivals> = Vec::new();
    for (seconds, line_id, platform, p) in chosen {
        let line = p.line_name.clone().unwrap_or_else(|| line_id.to_owned());
        let destination = trimmed(&p.destination_name).map(|d| short_place(d).to_owned());
        let towards = non_blank(&p.towards).filter(|t| !says_the_same(t, destination.as_deref()));
        let minutes = seconds.div_euclid(60).max(0);
        let same = |g: &&mut PlatformArrivals| {
            g.line == line
                && g.platform.as_deref() == platform
                && g.destination == destination
                && g.towards == towards
        };
        match groups.iter_mut().find(same) {
            Some(group) => group.minutes.push(minutes),
            None => groups.push(PlatformArrivals {
                line_id: id_beside_name(&line, line_id),
                line,
                platform: platform.map(str::to_owned),
                destination,
                towards,
                minutes: vec![minutes],
            }),
        }
    }
    let shown = groups.iter().map(|g| g.minutes.len()).sum();
    let message = arrivals_message(&stop.name, &groups, (predicted, shown), terminating);
    ArrivalsResponse {
        served: None,
        success: true,
        code: TflCode::Ok,
        message,
        stop: Some(stop),
        predicted_at,
        arrivals: Some(groups),
        stop_disambiguation: None,
    }
}

/// The most groups the message names.
const GROUPS_SAID: usize = 3;
/// The most arrivals of a group the message names.
const MINUTES_SAID: usize = 3;

/// What a person asking "when is the next one" hears: the first groups, where to and
/// when ("Victoria to Brixton in 4, 8 and 14 min"); how many are predicted (and shown);
/// and the trains that end here, left out.
fn arrivals_message(
    stop: &str,
    groups: &[PlatformArrivals],
    (predicted, shown): (usize, usize),
    terminating: usize,
) -> String {
    let mut message = if groups.is_empty() {
        format!("No arrivals predicted at {stop} now.")
    } else {
        let said: Vec<String> = groups
            .iter()
            .take(GROUPS_SAID)
            .map(|g| {
                let to = g
                    .destination
                    .as_deref()
                    .or(g.towards.as_deref())
                    .map(|d| format!(" to {d}"))
                    .unwrap_or_default();
                let next = &g.minutes[..g.minutes.len().min(MINUTES_SAID)];
                format!("{}{to} {}", g.line, when(next))
            })
            .collect();
        let more = match predicted {
            1 => String::new(),
            n if n > shown => format!(" ({n} predicted, {shown} shown)"),
            n => format!(" ({n} predicted)"),
        };
        format!("Next at {stop}: {}{more}.", said.join("; "))
    };
    match terminating {
        0 => {}
        1 => message.push_str(" 1 train that ends its journey here is left out."),
        n => message.push_str(&format!(
            " {n} trains that end their journey here are left out."
        )),
    }
    message
}

/// Arrivals of one group in whole minutes, in order, as people say them: "due", "in 4
/// min", "in 4 and 8 min", "due, then in 8 and 14 min".
fn when(minutes: &[i64]) -> String {
    let (due, later): (Vec<i64>, Vec<i64>) = minutes.iter().partition(|m| **m <= 0);
    let later: Vec<String> = later.iter().map(i64::to_string).collect();
    let later = match later.as_slice() {
        [] => String::new(),
        [one] => format!("in {one} min"),
        [rest @ .., last] => format!("in {} and {last} min", rest.join(", ")),
    };
    match (due.is_empty(), later.is_empty()) {
        (false, true) => "due".to_owned(),
        (false, false) => format!("due, then {later}"),
        _ => later,
    }
}

/// Whether TfL's "towards" text names the same place as the destination ("Elephant and
/// Castle" and "Elephant & Castle Underground Station" are one place).
fn says_the_same(towards: &str, destination: Option<&str>) -> bool {
    let plain = |text: &str| text.to_lowercase().replace(" & ", " and ");
    destination.is_some_and(|d| {
        let towards = plain(towards);
        towards == plain(d) || towards == plain(short_place(d))
    })
}

/// `text` trimmed, or `None` when it is blank.
fn trimmed(text: &Option<String>) -> Option<&str> {
    text.as_deref().map(str::trim).filter(|t| !t.is_empty())
}

fn non_blank(text: &Option<String>) -> Option<String> {
    trimmed(text).map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrivals_of_one_line_are_said_together() {
        assert_eq!(when(&[0]), "due");
        assert_eq!(when(&[4]), "in 4 min");
        assert_eq!(when(&[4, 8, 14]), "in 4, 8 and 14 min");
        assert_eq!(when(&[0, 8, 14]), "due, then in 8 and 14 min");
    }

    #[test]
    fn towards_naming_the_destination_again_says_nothing_more() {
        assert!(says_the_same(
            "Brixton",
            Some("Brixton Underground Station")
        ));
        assert!(says_the_same(
            "Elephant and Castle",
            Some("Elephant & Castle")
        ));
        assert!(!says_the_same(
            "Check Front of Train",
            Some("Edgware Road (Circle Line) Underground Station")
        ));
    }
}
