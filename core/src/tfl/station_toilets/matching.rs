//! Station-name matching: normalise, then exact match, then token scoring.

use std::collections::HashMap;

use super::data::{Station, StationData};
use super::name::NormalizedName;
use super::titles::titles;
use super::types::StationDisambiguationSuggestion;

/// Most candidates listed in a disambiguation.
pub const MAX_SUGGESTIONS: usize = 10;

/// What a station name resolves to.
#[derive(Debug)]
pub enum Resolution<'a> {
    /// Exactly one station.
    Found(&'a Station),
    /// Several equally good stations (at most [`MAX_SUGGESTIONS`], by name).
    Ambiguous(Vec<&'a Station>),
    /// Nothing matched.
    NotFound,
}

/// What a station name resolves to once the person was asked which station it means.
#[derive(Debug)]
pub enum Asked<'a> {
    /// Exactly one station, or the one the person picked.
    Found(&'a Station),
    /// Several stations and nobody picked: the candidates, titled.
    Ambiguous(Vec<StationDisambiguationSuggestion>),
    /// Nothing matched.
    NotFound,
}

/// [`resolve`], asking the person which station `field` means when several match
/// ([`crate::ask`]). Each choice is titled by what tells it apart ([`titles`]): the
/// lines `lines_of` finds for the stations' ids (none for a tool that stays offline),
/// else the kind of station. When nobody picks, the titled stations are the candidates.
pub async fn resolve_asking<'a>(
    data: &'a StationData,
    raw: &str,
    query: &NormalizedName,
    field: &str,
    lines_of: impl AsyncFnOnce(&[String]) -> HashMap<String, Vec<String>>,
) -> Asked<'a> {
    let stations = match resolve(data, raw, query) {
        Resolution::Ambiguous(stations) => stations,
        Resolution::Found(station) => return Asked::Found(station),
        Resolution::NotFound => return Asked::NotFound,
    };
    let ids: Vec<String> = stations.iter().map(|s| s.unique_id.clone()).collect();
    let titles = titles(&stations, &lines_of(&ids).await);
    let question = crate::ask::Question::new(
        field,
        format!("Which station do you mean by \"{}\"?", raw.trim()),
        stations
            .iter()
            .zip(&titles)
            .map(|(s, title)| crate::ask::Choice {
                value: s.unique_id.clone(),
                title: title.clone(),
            }),
    );
    let picked = crate::ask::choose(&question).await;
    match picked.and_then(|id| stations.iter().position(|s| s.unique_id == id)) {
        Some(index) => Asked::Found(stations[index]),
        None => Asked::Ambiguous(
            stations
                .iter()
                .zip(titles)
                .map(|(s, title)| StationDisambiguationSuggestion {
                    station_unique_id: s.unique_id.clone(),
                    station_name: s.name.clone(),
                    title,
                })
                .collect(),
        ),
    }
}

/// Resolves `raw` (normalised as `query`) against `data`: a station unique id (as
/// returned in a disambiguation) wins; then an exact normalised name match (several
/// are ambiguous); otherwise the unique top token score wins.
pub fn resolve<'a>(data: &'a StationData, raw: &str, query: &NormalizedName) -> Resolution<'a> {
    if let Some(station) = data.station_by_id(raw.trim()) {
        return Resolution::Found(station);
    }
    let exact = data.stations_named(&query.text);
    let candidates = if exact.is_empty() {
        best_scored(data, query)
    } else {
        exact
    };
    match candidates.as_slice() {
        [] => Resolution::NotFound,
        [one] => Resolution::Found(one),
        _ => {
            let mut many = candidates;
            many.sort_by(|a, b| a.name.cmp(&b.name).then(a.unique_id.cmp(&b.unique_id)));
            many.truncate(MAX_SUGGESTIONS);
            Resolution::Ambiguous(many)
        }
    }
}

/// The stations with the top token score, in file order. Only those with a word starting
/// with the query's longest token can score at all, so only they are scored.
fn best_scored<'a>(data: &'a StationData, query: &NormalizedName) -> Vec<&'a Station> {
    let candidates = match query.longest_token() {
        Some(token) => data.stations_with_token_starting(token),
        None => data.stations().iter().collect(),
    };
    let mut best = 0;
    let mut winners = Vec::new();
    for station in candidates {
        let Some(score) = query.score_against(&station.normalized) else {
            continue;
        };
        if score > best {
            best = score;
            winners.clear();
        }
        if score == best {
            winners.push(station);
        }
    }
    winners
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tfl::station_toilets::data::StationDataSource;

    fn ids(query: &str) -> Vec<String> {
        let data = StationData::load(&StationDataSource::Bundled).unwrap();
        match resolve(&data, query, &NormalizedName::new(query)) {
            Resolution::Found(s) => vec![s.unique_id.clone()],
            Resolution::Ambiguous(many) => {
                let mut ids: Vec<String> = many.iter().map(|s| s.unique_id.clone()).collect();
                ids.sort();
                ids.insert(0, "?".into());
                ids
            }
            Resolution::NotFound => vec![],
        }
    }

    #[test]
    fn the_notes_expectations_on_real_data() {
        let cases: &[(&str, &[&str])] = &[
            ("Abbey Wood", &["HUBABW"]),
            ("abbey wood station", &["HUBABW"]),
            ("Paddington Station", &["HUBPAD"]),
            ("Victoria", &["HUBVIC"]),
            ("Kings Cross", &["HUBKGX"]),
            ("King's Cross", &["HUBKGX"]),
            ("kings cross st pancras", &["HUBKGX"]),
            ("Shepherds Bush", &["HUBSPB"]),
            ("Shepherd's Bush", &["HUBSPB"]),
            ("St Pauls", &["940GZZLUSPU"]),
            ("Burnham station", &["910GBNHAM"]),
            ("Oxford", &["940GZZLUOXC"]),
            ("Battersea Power", &["940GZZBPSUST"]),
            ("Heathrow", &["?", "HUBH13", "HUBHX4", "HUBHX5"]),
            ("Edgware Road", &["?", "940GZZLUERB", "940GZZLUERC"]),
            ("Bethnal Green", &["?", "910GBTHNLGR", "940GZZLUBLG"]),
            ("West Hampstead", &["?", "910GWHMDSTD", "940GZZLUWHP"]),
            ("xyzzy", &[]),
            ("940gzzluerc", &["940GZZLUERC"]),
            ("HUBKGX", &["HUBKGX"]),
        ];
        for (query, expected) in cases {
            assert_eq!(ids(query), *expected, "{query}");
        }
    }

    #[test]
    fn more_punctuated_names_resolve_to_one_station() {
        for name in [
            "Earl's Court",
            "St James's Park",
            "St John's Wood",
            "Elephant & Castle",
            "Highbury & Islington",
            "Heathrow Terminals 2 & 3",
            "Kensington (Olympia)",
            "Brent Cross West Station",
        ] {
            let found = ids(name);
            assert!(found.len() == 1, "{name}: {found:?}");
        }
    }

    /// The stations `best_scored` would find by scoring every station, as it did before
    /// the token index: the oracle the index is checked against.
    fn scored_by_scanning_all<'a>(data: &'a StationData, query: &NormalizedName) -> Vec<&'a str> {
        let scores = data
            .stations()
            .iter()
            .filter_map(|station| Some((query.score_against(&station.normalized)?, station)));
        let best = scores.clone().map(|(score, _)| score).max().unwrap_or(0);
        scores
            .filter(|(score, _)| *score == best)
            .map(|(_, station)| station.unique_id.as_str())
            .collect()
    }

    #[test]
    fn the_token_index_finds_what_scoring_every_station_finds() {
        let data = StationData::load(&StationDataSource::Bundled).unwrap();
        let mut queries = vec![String::new(), "zzz".into(), "st".into(), "road x".into()];
        for station in data.stations() {
            let words: Vec<&str> = station.normalized.text.split(' ').collect();
            queries.push(
                words
                    .iter()
                    .map(|w| &w[..w.len().min(3)])
                    .collect::<Vec<_>>()
                    .join(" "),
            );
            queries.push(words.iter().rev().copied().collect::<Vec<_>>().join(" "));
            queries.push(words[0].to_owned());
        }
        let mut compared = 0;
        for raw in &queries {
            let query = NormalizedName::new(raw);
            let by_index: Vec<&str> = best_scored(&data, &query)
                .iter()
                .map(|station| station.unique_id.as_str())
                .collect();
            assert_eq!(by_index, scored_by_scanning_all(&data, &query), "{raw:?}");
            compared += usize::from(!by_index.is_empty());
        }
        // Most of these queries match something: the comparison is not of empty lists.
        assert!(
            compared * 10 > queries.len() * 9,
            "{compared} of {}",
            queries.len()
        );
    }
}
