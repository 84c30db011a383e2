//! Each station's lines, from the feed's `Platforms.csv` (a platform's station) and
//! `PlatformServices.csv` (the lines calling at a platform), joined by platform id: what
//! tells two stations of one name apart offline ("Edgware Road — Bakerloo").

use std::collections::{BTreeSet, HashMap};
use std::io::Read;

use super::data::{StationDataError, Table};

/// The file naming each platform's station.
pub(crate) const PLATFORMS_FILE: &str = "Platforms.csv";
/// The file naming the lines at each platform.
pub(crate) const SERVICES_FILE: &str = "PlatformServices.csv";

/// The names of the lines calling at each station, by station id, in the order of the
/// feed's line ids (each once).
pub(crate) fn parse(
    platforms_csv: impl Read,
    services_csv: impl Read,
) -> Result<HashMap<String, Vec<String>>, StationDataError> {
    let mut station_of: HashMap<String, String> = HashMap::new();
    let mut platforms = Table::open(
        PLATFORMS_FILE,
        platforms_csv,
        &["UniqueId", "StationUniqueId"],
    )?;
    for row in platforms.rows() {
        let row = row?;
        let (platform, station) = (row.get("UniqueId"), row.get("StationUniqueId"));
        if !platform.is_empty() && !station.is_empty() {
            station_of.insert(platform.to_owned(), station.to_owned());
        }
    }
    let mut ids: HashMap<String, BTreeSet<String>> = HashMap::new();
    let mut services = Table::open(SERVICES_FILE, services_csv, &["PlatformUniqueId", "Line"])?;
    for row in services.rows() {
        let row = row?;
        let (platform, line) = (row.get("PlatformUniqueId"), row.get("Line"));
        if let Some(station) = station_of.get(platform)
            && !line.is_empty()
        {
            ids.entry(station.clone())
                .or_default()
                .insert(line.to_ascii_lowercase());
        }
    }
    Ok(ids
        .into_iter()
        .map(|(station, lines)| (station, lines.iter().map(|id| name_of(id)).collect()))
        .collect())
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
        let platforms = "UniqueId,StationUniqueId\r\nP1,S1\r\nP2,S1\r\nP3,S2\r\n";
        let services = "PlatformUniqueId,StopAreaNaptanCode,Line\r\nP1,X,district\r\nP2,X,circle\r\n\
P2,X,district\r\nP3,Y,hammersmith-city\r\nP9,Z,central\r\n";
        let lines = parse(platforms.as_bytes(), services.as_bytes()).unwrap();
        assert_eq!(lines["S1"], ["Circle", "District"]);
        assert_eq!(lines["S2"], ["Hammersmith & City"]);
        assert_eq!(lines.len(), 2, "a platform of no known station is skipped");
    }
}
