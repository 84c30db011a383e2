//! TfL's stops as its `/StopPoint` endpoints send them, read leniently: `StopPoint` (one
//! stop, a station or a hub with `children`), `SearchResponse` (a search by name) and
//! `StopPointsResponse` (stops near a point), and the stops a line's answers name
//! (`NamedStop`: route sequences, timetables).

use std::collections::HashMap;

use serde::Deserialize;

use crate::tfl::lenient;

/// One `Tfl.Api.Presentation.Entities.StopPoint`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StopPoint {
    #[serde(default, deserialize_with = "lenient::string")]
    pub(crate) naptan_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub(crate) id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub(crate) common_name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub(crate) indicator: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub(crate) stop_type: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub(crate) hub_naptan_code: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub(crate) ics_code: Option<String>,
    #[serde(default, deserialize_with = "lenient::list")]
    pub(crate) modes: Vec<String>,
    #[serde(default, deserialize_with = "lenient::list")]
    pub(crate) lines: Vec<Identifier>,
    #[serde(default, deserialize_with = "lenient::list")]
    pub(crate) children: Vec<StopPoint>,
    #[serde(default, deserialize_with = "lenient::list")]
    pub(crate) additional_properties: Vec<Property>,
    #[serde(default, deserialize_with = "lenient::float")]
    pub(crate) lat: Option<f64>,
    #[serde(default, deserialize_with = "lenient::float")]
    pub(crate) lon: Option<f64>,
    #[serde(default, deserialize_with = "lenient::float")]
    pub(crate) distance: Option<f64>,
}

impl StopPoint {
    /// Its NaPTAN id (`naptanId`, else `id`).
    pub(crate) fn stop_id(&self) -> Option<&str> {
        self.naptan_id
            .as_deref()
            .or(self.id.as_deref())
            .filter(|id| !id.trim().is_empty())
    }

    /// Its fare zone, from the `Zone` property.
    pub(crate) fn zone(&self) -> Option<String> {
        self.additional_properties
            .iter()
            .find(|p| p.key.as_deref() == Some("Zone"))
            .and_then(|p| p.value.clone())
    }

    /// The ids of its lines.
    pub(crate) fn line_ids(&self) -> Vec<String> {
        self.lines.iter().filter_map(|l| l.id.clone()).collect()
    }

    /// Its lines' names as people say them ("Hammersmith & City"), else their ids.
    pub(crate) fn line_names(&self) -> Vec<String> {
        self.lines
            .iter()
            .filter_map(|l| l.name.clone().or_else(|| l.id.clone()))
            .collect()
    }
}

/// A line as a stop lists it.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Identifier {
    #[serde(default, deserialize_with = "lenient::string")]
    pub(crate) id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub(crate) name: Option<String>,
}

/// One `AdditionalProperties` entry.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Property {
    #[serde(default, deserialize_with = "lenient::string")]
    key: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    value: Option<String>,
}

/// `Tfl.Api.Presentation.Entities.SearchResponse`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SearchResponse {
    #[serde(default, deserialize_with = "lenient::list")]
    pub(crate) matches: Vec<MatchedStop>,
}

/// One match of a search by name.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct MatchedStop {
    #[serde(default, deserialize_with = "lenient::string")]
    pub(crate) id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub(crate) name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub(crate) ics_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub(crate) top_most_parent_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::list")]
    pub(crate) modes: Vec<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub(crate) zone: Option<String>,
    #[serde(default, deserialize_with = "lenient::float")]
    pub(crate) lat: Option<f64>,
    #[serde(default, deserialize_with = "lenient::float")]
    pub(crate) lon: Option<f64>,
}

/// `Tfl.Api.Presentation.Entities.StopPointsResponse`: the stops near a point.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StopPointsResponse {
    #[serde(default, deserialize_with = "lenient::list")]
    pub(crate) stop_points: Vec<StopPoint>,
}

/// A stop as a line's answers name it (route sequences, timetables): by its id, its
/// station's id, or both.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct NamedStop {
    #[serde(default, deserialize_with = "lenient::string")]
    pub(crate) id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub(crate) station_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub(crate) name: Option<String>,
}

/// The names of `stops` by stop id and by station id; the first name given for an id wins.
pub(crate) fn names_by_id<'a>(
    stops: impl IntoIterator<Item = &'a NamedStop>,
) -> HashMap<&'a str, &'a str> {
    let mut names = HashMap::new();
    for stop in stops {
        let Some(name) = stop.name.as_deref() else {
            continue;
        };
        for id in [stop.id.as_deref(), stop.station_id.as_deref()]
            .into_iter()
            .flatten()
        {
            names.entry(id).or_insert(name);
        }
    }
    names
}
