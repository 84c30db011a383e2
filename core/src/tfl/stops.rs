//! The one way the live TfL tools turn what a person calls a stop into TfL's id: a NaPTAN
//! or hub id is taken as it is; a name is looked up in the bundled TfL station data first
//! (as `stationToilets` does, offline), then in TfL's stop search (bus stops, piers and
//! stations the data does not list).

use std::collections::HashMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Toolpack;
use crate::http::AnswerKind;
use crate::http::encode_component as encode_segment;
use crate::tfl::lenient;
use crate::tfl::station_toilets::{NormalizedName, Resolution, resolve, station_data};
use crate::tfl::stop_point::{SearchResponse, StopPoint};
use crate::tfl::upstream::{self, Failure};

/// Most candidates in a stop disambiguation.
pub const MAX_CANDIDATES: usize = 10;

/// One stop a name may mean, with what tells it apart from the others.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(rename_all = "camelCase")]
pub struct StopCandidate {
    /// Its id: call again with it as `stop`.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its modes, e.g. `tube`, `bus` (empty when TfL did not say).
    pub modes: Vec<String>,
    /// Its line ids, e.g. `bakerloo` (empty when TfL did not say).
    pub lines: Vec<String>,
    /// Its name and what tells it apart, as a person reads it: its lines, else its modes
    /// ("Edgware Road — Circle, District, Hammersmith & City").
    pub title: String,
}

impl StopCandidate {
    /// A candidate with no modes or lines known yet: titled by its name alone.
    fn named(id: String, name: String) -> Self {
        Self {
            title: name.clone(),
            id,
            name,
            modes: Vec::new(),
            lines: Vec::new(),
        }
    }

    /// Its modes and lines from TfL's stop, and the title they make.
    fn describe(&mut self, stop: &StopPoint) {
        self.modes.clone_from(&stop.modes);
        self.lines = stop.line_ids();
        self.title = title(&self.name, &stop.line_names(), &self.modes);
    }
}

/// A stop's title: its name, then its lines, else its modes.
fn title(name: &str, line_names: &[String], modes: &[String]) -> String {
    let detail = if line_names.is_empty() {
        modes
    } else {
        line_names
    };
    crate::ask::titled(name, &detail.join(", "))
}

/// What a stop argument means.
#[derive(Debug)]
pub(crate) enum Stop {
    /// One stop: its id, and its name when known already.
    Found { id: String, name: Option<String> },
    /// Several stops, equally likely.
    Ambiguous(Vec<StopCandidate>),
    /// None.
    NotFound,
}

/// Whether `text` is a stop id: a hub (`HUBKGX`) or a NaPTAN id (`940GZZLUOXC`,
/// `490008660N`, `910GSHENFLD`): three digits, then at least four letters or digits.
pub(crate) fn is_stop_id(text: &str) -> bool {
    let upper = text.to_ascii_uppercase();
    let alnum = |s: &str| s.chars().all(|c| c.is_ascii_alphanumeric());
    match upper.strip_prefix("HUB") {
        Some(rest) => rest.len() >= 2 && alnum(rest),
        None => {
            upper.len() >= 7 && upper.chars().take(3).all(|c| c.is_ascii_digit()) && alnum(&upper)
        }
    }
}

/// TfL's stop `id` (`GET /StopPoint/{id}`, which answers one id with an object), or why
/// there is none: a hub's children are its stations and stop clusters.
pub(crate) async fn stop_point(toolpack: &Toolpack, id: &str) -> Result<StopPoint, Failure> {
    let value: serde_json::Value = upstream::get(
        toolpack,
        AnswerKind::Places,
        &format!("/StopPoint/{id}"),
        &[],
    )
    .await?;
    lenient::one_or_many(value)
        .ok()
        .and_then(|mut stops: Vec<StopPoint>| (!stops.is_empty()).then(|| stops.remove(0)))
        .ok_or_else(|| {
            Failure::Other("TfL API returned an unexpected response for the hub.".into())
        })
}

/// Resolves `raw` (already checked, normalised as `query`).
pub(crate) async fn resolve_stop(
    toolpack: &Toolpack,
    raw: &str,
    query: &NormalizedName,
) -> Result<Stop, Failure> {
    let raw = raw.trim();
    let data = station_data(toolpack).await.ok();
    if is_stop_id(raw) {
        let id = raw.to_ascii_uppercase();
        let name = data
            .as_ref()
            .and_then(|data| data.station_by_id(&id))
            .map(|s| s.name.clone());
        return Ok(Stop::Found { id, name });
    }
    if let Some(data) = &data {
        match resolve(data, raw, query) {
            Resolution::Found(station) => {
                return Ok(Stop::Found {
                    id: station.unique_id.clone(),
                    name: Some(station.name.clone()),
                });
            }
            Resolution::Ambiguous(stations) => {
                let ids: Vec<String> = stations.iter().map(|s| s.unique_id.clone()).collect();
                let mut candidates: Vec<StopCandidate> = stations
                    .iter()
                    .map(|s| StopCandidate::named(s.unique_id.clone(), s.name.clone()))
                    .collect();
                describe(toolpack, &ids, &mut candidates).await;
                return Ok(ask(raw, candidates).await);
            }
            Resolution::NotFound => {}
        }
    }
    match search(toolpack, raw, query).await? {
        Stop::Ambiguous(candidates) => Ok(ask(raw, candidates).await),
        stop => Ok(stop),
    }
}

/// Asks the person which of `candidates` the stop named `raw` is ([`crate::ask`]): the
/// picked one, or all of them when nobody picked.
async fn ask(raw: &str, candidates: Vec<StopCandidate>) -> Stop {
    let question = crate::ask::Question::new(
        "stop",
        format!("Which stop do you mean by \"{raw}\"?"),
        candidates.iter().map(|c| crate::ask::Choice {
            value: c.id.clone(),
            title: c.title.clone(),
        }),
    );
    let picked = crate::ask::choose(&question).await;
    match picked.and_then(|id| candidates.iter().position(|c| c.id == id)) {
        Some(index) => found(&candidates[index]),
        None => Stop::Ambiguous(candidates),
    }
}

/// Fills in each candidate's modes and lines from TfL ([`stop_points`]). Without TfL's
/// answer they stay empty.
async fn describe(toolpack: &Toolpack, ids: &[String], candidates: &mut [StopCandidate]) {
    let stops = stop_points(toolpack, ids).await;
    let by_id: HashMap<&str, &StopPoint> = stops
        .iter()
        .filter_map(|s| s.stop_id().map(|id| (id, s)))
        .collect();
    for candidate in candidates {
        if let Some(stop) = by_id.get(candidate.id.as_str()) {
            candidate.describe(stop);
        }
    }
}

/// TfL's stops of `ids` (`/StopPoint/{ids}`, one request; an object for one id, an array
/// for several), with their modes and lines; none when TfL does not answer.
pub(crate) async fn stop_points(toolpack: &Toolpack, ids: &[String]) -> Vec<StopPoint> {
    let path = format!("/StopPoint/{}", ids.join(","));
    let Ok(value) =
        upstream::get::<serde_json::Value>(toolpack, AnswerKind::Places, &path, &[]).await
    else {
        return Vec::new();
    };
    crate::tfl::lenient::one_or_many(value).unwrap_or_default()
}

/// The names of the lines at each of the stops `ids` (by stop id), from one
/// [`stop_points`] request; none when TfL does not answer.
pub(crate) async fn station_lines(
    toolpack: &Toolpack,
    ids: &[String],
) -> HashMap<String, Vec<String>> {
    stop_points(toolpack, ids)
        .await
        .into_iter()
        .filter_map(|stop| Some((stop.stop_id()?.to_owned(), stop.line_names())))
        .collect()
}

/// TfL's stop search for a name the station data does not know: no match is not found;
/// one match, or one whose name is the query, is the stop; else the matches are the
/// candidates.
async fn search(toolpack: &Toolpack, raw: &str, query: &NormalizedName) -> Result<Stop, Failure> {
    let path = format!("/StopPoint/Search/{}", encode_segment(raw));
    let max = MAX_CANDIDATES.to_string();
    let answer: SearchResponse =
        upstream::get(toolpack, AnswerKind::Places, &path, &[("maxResults", &max)]).await?;
    let matches: Vec<StopCandidate> = answer
        .matches
        .into_iter()
        .filter_map(|m| {
            let name = m.name.unwrap_or_default();
            Some(StopCandidate {
                id: m.id.filter(|id| !id.trim().is_empty())?,
                title: title(&name, &[], &m.modes),
                name,
                modes: m.modes,
                lines: Vec::new(),
            })
        })
        .collect();
    let named: Vec<&StopCandidate> = matches
        .iter()
        .filter(|m| NormalizedName::new(&m.name).text == query.text)
        .collect();
    Ok(match (matches.len(), named.as_slice()) {
        (0, _) => Stop::NotFound,
        (1, _) => found(&matches[0]),
        (_, [one]) => found(one),
        _ => Stop::Ambiguous(matches),
    })
}

fn found(candidate: &StopCandidate) -> Stop {
    Stop::Found {
        id: candidate.id.clone(),
        name: Some(candidate.name.clone()),
    }
}

/// A place as people say it: TfL's "Brixton Underground Station" is "Brixton".
pub(crate) fn short_place(name: &str) -> &str {
    [
        " Underground Station",
        " DLR Station",
        " (London) Rail Station",
        " Rail Station",
        " Bus Station",
    ]
    .iter()
    .find_map(|suffix| name.strip_suffix(suffix))
    .unwrap_or(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tfls_station_words_are_left_off_a_place() {
        assert_eq!(short_place("Brixton Underground Station"), "Brixton");
        assert_eq!(short_place("Euston (London) Rail Station"), "Euston");
        assert_eq!(short_place("Dulwich Library"), "Dulwich Library");
    }

    #[test]
    fn ids_are_told_from_names() {
        for id in [
            "940GZZLUOXC",
            "490008660N",
            "hubkgx",
            "910GSHENFLD",
            "HUBBAN",
        ] {
            assert!(is_stop_id(id), "{id}");
        }
        for name in [
            "Bank",
            "Oxford Circus",
            "HUB",
            "940",
            "12 Acre",
            "Hubbard Road",
        ] {
            assert!(!is_stop_id(name), "{name}");
        }
    }
}
