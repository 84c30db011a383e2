//! Station names that complete what a person has typed, from the station data, offline:
//! what MCP prompts offer as completions of a station argument.

use super::data::StationData;
use super::name::NormalizedName;

/// Most names in one completion (MCP's limit).
pub const MAX_COMPLETIONS: usize = 100;

/// The station names `typed` may be the start of, each once: first the names that start
/// with it, then the ones each of whose words it starts ("cross" completes "King's Cross
/// St Pancras"), each group alphabetical. Nothing typed: the first names alphabetically.
pub fn station_names(data: &StationData, typed: &str) -> Vec<String> {
    let query = NormalizedName::new(typed);
    let candidates: Vec<_> = match query.longest_token() {
        None => data.stations().iter().collect(),
        Some(token) => data.stations_with_token_starting(token),
    };
    let mut starting: Vec<&str> = Vec::new();
    let mut containing: Vec<&str> = Vec::new();
    for station in candidates {
        if station.normalized.text.starts_with(&query.text) {
            starting.push(&station.name);
        } else if query.score_against(&station.normalized).is_some() {
            containing.push(&station.name);
        }
    }
    for group in [&mut starting, &mut containing] {
        group.sort_unstable();
        group.dedup();
    }
    let mut names: Vec<String> = Vec::with_capacity(MAX_COMPLETIONS);
    for name in starting.into_iter().chain(containing) {
        if names.len() == MAX_COMPLETIONS {
            break;
        }
        if !names.iter().any(|n| n == name) {
            names.push(name.to_owned());
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tfl::station_toilets::data::StationDataSource;

    fn names(typed: &str) -> Vec<String> {
        let data = StationData::load(&StationDataSource::Bundled).unwrap();
        station_names(&data, typed)
    }

    #[test]
    fn names_that_start_with_the_text_come_first_each_once() {
        let edgware = names("edgw");
        assert_eq!(
            edgware,
            ["Edgware", "Edgware Road"],
            "two Edgware Roads, one name"
        );
        let kings = names("King's Cr");
        assert_eq!(kings[0], "King's Cross St Pancras");
        let cross = names("cross");
        assert!(
            cross.contains(&"King's Cross St Pancras".to_owned()),
            "{cross:?}"
        );
        assert!(
            cross.iter().all(|n| n.to_lowercase().contains("cross")),
            "{cross:?}"
        );
    }

    #[test]
    fn nothing_typed_gives_the_first_hundred_and_nonsense_gives_none() {
        let all = names("");
        assert_eq!(all.len(), MAX_COMPLETIONS);
        assert!(
            all.windows(2).all(|w| w[0] < w[1]),
            "alphabetical, each once"
        );
        assert!(names("xyzzyq").is_empty());
        assert!(names("   ").len() == MAX_COMPLETIONS);
    }
}
