//! What tells stations of one name apart, as a person reads it: their lines when TfL
//! said them, else the kind of station their id names; the id itself only where two
//! would still read the same.

use std::collections::HashMap;

use super::data::Station;
use crate::ask::titled;

/// The kind of station a TfL station id names, by its prefix, in TfL's mode words as the
/// other titles have them: the bundled data knows no lines, but its ids tell a tube
/// station from a rail station of one name.
pub(crate) fn kind_of(unique_id: &str) -> Option<&'static str> {
    const KINDS: &[(&str, &str)] = &[
        ("940GZZLU", "tube"),
        // Battersea Power Station and Nine Elms, on the Northern line's extension.
        ("940GZZBP", "tube"),
        ("940GZZNE", "tube"),
        ("940GZZDL", "dlr"),
        ("940GZZCR", "tram"),
        ("940GZZAL", "cable-car"),
        // National Rail, the Overground and the Elizabeth line alike.
        ("910G", "rail"),
        ("HUB", "interchange"),
    ];
    let upper = unique_id.to_ascii_uppercase();
    KINDS
        .iter()
        .find(|(prefix, _)| upper.starts_with(prefix))
        .map(|(_, kind)| *kind)
}

/// Each of `stations`' title, in order: its name, then its lines from `lines` (by
/// station id) when known, else its kind; a title two of them would share also names
/// the station's id.
pub(crate) fn titles(stations: &[&Station], lines: &HashMap<String, Vec<String>>) -> Vec<String> {
    let details: Vec<String> = stations
        .iter()
        .map(|station| match lines.get(&station.unique_id) {
            Some(names) if !names.is_empty() => names.join(", "),
            _ => kind_of(&station.unique_id).unwrap_or_default().to_owned(),
        })
        .collect();
    let plain: Vec<String> = stations
        .iter()
        .zip(&details)
        .map(|(station, detail)| titled(&station.name, detail))
        .collect();
    let shared = |title: &String| plain.iter().filter(|t| *t == title).count() > 1;
    stations
        .iter()
        .zip(details)
        .zip(&plain)
        .map(|((station, detail), title)| {
            if !shared(title) {
                return title.clone();
            }
            let id = &station.unique_id;
            let detail = if detail.is_empty() {
                id.clone()
            } else {
                format!("{detail} ({id})")
            };
            titled(&station.name, &detail)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tfl::station_toilets::data::{StationData, StationDataSource};

    /// The stations of the data named `normalized`, in file order: two of one name.
    fn ambiguous<'a>(data: &'a StationData, normalized: &str) -> Vec<&'a Station> {
        let stations = data.stations_named(normalized);
        assert_eq!(stations.len(), 2, "{normalized}");
        stations
    }

    #[test]
    fn the_kind_of_station_tells_a_rail_station_from_an_underground_one() {
        let data = StationData::load(&StationDataSource::Bundled).unwrap();
        let stations = ambiguous(&data, "bethnal green");
        assert_eq!(
            titles(&stations, &HashMap::new()),
            ["Bethnal Green — rail", "Bethnal Green — tube"]
        );
    }

    #[test]
    fn two_stations_of_one_kind_are_told_apart_by_their_lines_else_their_ids() {
        let data = StationData::load(&StationDataSource::Bundled).unwrap();
        let stations = ambiguous(&data, "edgware road");
        assert_eq!(
            titles(&stations, &HashMap::new()),
            [
                "Edgware Road — tube (940GZZLUERB)",
                "Edgware Road — tube (940GZZLUERC)"
            ]
        );
        let lines = HashMap::from([
            ("940GZZLUERB".to_owned(), vec!["Bakerloo".to_owned()]),
            (
                "940GZZLUERC".to_owned(),
                vec!["Circle".to_owned(), "District".to_owned()],
            ),
        ]);
        assert_eq!(
            titles(&stations, &lines),
            ["Edgware Road — Bakerloo", "Edgware Road — Circle, District"]
        );
    }

    #[test]
    fn every_kind_of_id_in_the_bundled_data_is_known() {
        let data = StationData::load(&StationDataSource::Bundled).unwrap();
        let unknown: Vec<&str> = data
            .stations()
            .iter()
            .map(|s| s.unique_id.as_str())
            .filter(|id| kind_of(id).is_none())
            .collect();
        assert!(unknown.is_empty(), "{unknown:?}");
    }
}
