//! Each station's lines, from the feed's `Platforms.csv` (a platform's station) and
//! `PlatformServices.csv` (the lines calling at a platform), joined by platform id: what
//! tells two stations of one name apart offline ("Edgware Road — Bakerloo"). The files
//! are read in [`super::data`].

use std::collections::{BTreeSet, HashMap};

/// The names of the lines calling at each station, by station id, in the order of the
/// feed's line ids (each once), from each platform's station (`(platform, station)`) and
/// each platform's lines (`(platform, line id)`).
pub(crate) fn join(
    platforms: impl IntoIterator<Item = (String, String)>,
    services: impl IntoIterator<Item = (String, String)>,
) -> HashMap<String, Vec<String>> {
    let station_of: HashMap<String, String> = platforms
        .into_iter()
        .filter(|(platform, station)| !platform.is_empty() && !station.is_empty())
        .collect();
    let mut ids: HashMap<String, BTreeSet<String>> = HashMap::new();
    for (platform, line) in services {
        if let Some(station) = station_of.get(&platform)
            && !line.is_empty()
        {
            ids.entry(station.clone())
                .or_default()
                .insert(line.to_ascii_lowercase());
        }
    }
    ids.into_iter()
        .map(|(station, lines)| (station, lines.iter().map(|id| name_of(id)).collect()))
        .collect()
}

/// A line's name as TfL's other answers write it, from the feed's line id.
fn name_of(id: &str) -> String {
    const NAMED: &[(&str, &str)] = &[
        ("hammersmith-city", "Hammersmith & City"),
        ("waterloo-city", "Waterloo & City"),
        ("dlr", "DLR"),
        ("elizabeth", "Elizabeth line"),
        ("national-rail", "National Rail"),
        ("london-cable-car", "IFS Cloud Cable Car"),
    ];
    if let Some((_, name)) = NAMED.iter().find(|(known, _)| *known == id) {
        return (*name).to_owned();
    }
    let mut chars = id.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_station_has_the_lines_of_its_platforms_each_once() {
        let pair = |a: &str, b: &str| (a.to_owned(), b.to_owned());
        let platforms = [pair("P1", "S1"), pair("P2", "S1"), pair("P3", "S2")];
        let services = [
            pair("P1", "district"),
            pair("P2", "circle"),
            pair("P2", "district"),
            pair("P3", "hammersmith-city"),
            pair("P9", "central"),
        ];
        let lines = join(platforms, services);
        assert_eq!(lines["S1"], ["Circle", "District"]);
        assert_eq!(lines["S2"], ["Hammersmith & City"]);
        assert_eq!(lines.len(), 2, "a platform of no known station is skipped");
    }
}
