//! What tells stations of one name apart, as a person reads it: their lines (as TfL
//! says them live, else as the bundled station data has them), else the kind of station
//! their id names; the id itself only where two would still read the same.

use std::collections::HashMap;

use super::data::Station;
use crate::ask::titled;

/// The kind of station a TfL station id names, by its prefix, in TfL's mode words as the
/// other titles have them: for a station the data names no line of, its id still tells
/// a tube station from a rail station of one name.
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
/// station id, TfL's live answer) when known, else the station data's, else its kind; a
/// title two of them would share also names the station's id.
pub(crate) fn titles(stations: &[&Station], lines: &HashMap<String, Vec<String>>) -> Vec<String> {
    let details: Vec<String> = stations
        .iter()
        .map(|station| match lines.get(&station.unique_id) {
            Some(names) if !names.is_empty() => names.join(", "),
            _ if !station.lines.is_empty() => station.lines.join(", "),
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
    fn offline_the_bundled_lines_tell_same_named_stations_apart() {
        let data = StationData::load(&StationDataSource::Bundled).unwrap();
        let none = HashMap::new();
        for (name, titled) in [
            (
                "edgware road",
                [
                    "Edgware Road — Bakerloo",
                    "Edgware Road — Circle, District, Hammersmith & City",
                ],
            ),
            (
                "bethnal green",
                ["Bethnal Green — Weaver", "Bethnal Green — Central"],
            ),
            (
                "west hampstead",
                ["West Hampstead — Mildmay", "West Hampstead — Jubilee"],
            ),
        ] {
            assert_eq!(titles(&ambiguous(&data, name), &none), titled);
        }
    }

    #[test]
    fn every_station_of_the_bundled_data_has_its_lines() {
        let data = StationData::load(&StationDataSource::Bundled).unwrap();
        let without: Vec<&str> = data
            .stations()
            .iter()
            .filter(|s| s.lines.is_empty())
            .map(|s| s.unique_id.as_str())
            .collect();
        assert!(without.is_empty(), "{without:?}");
    }

    #[test]
    fn where_no_line_is_known_the_kind_and_then_the_id_tell_them_apart() {
        let data = StationData::load(&StationDataSource::Bundled).unwrap();
        let bare = |station: &Station| Station {
            lines: Vec::new(),
            ..station.clone()
        };
        let bethnal: Vec<Station> = ambiguous(&data, "bethnal green")
            .into_iter()
            .map(bare)
            .collect();
        let none = HashMap::new();
        assert_eq!(
            titles(&bethnal.iter().collect::<Vec<_>>(), &none),
            ["Bethnal Green — rail", "Bethnal Green — tube"]
        );
        let edgware: Vec<Station> = ambiguous(&data, "edgware road")
            .into_iter()
            .map(bare)
            .collect();
        let edgware: Vec<&Station> = edgware.iter().collect();
        assert_eq!(
            titles(&edgware, &none),
            [
                "Edgware Road — tube (940GZZLUERB)",
                "Edgware Road — tube (940GZZLUERC)"
            ]
        );
        let live = HashMap::from([
            ("940GZZLUERB".to_owned(), vec!["Bakerloo".to_owned()]),
            (
                "940GZZLUERC".to_owned(),
                vec!["Circle".to_owned(), "District".to_owned()],
            ),
        ]);
        assert_eq!(
            titles(&edgware, &live),
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
