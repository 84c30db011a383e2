//! Loading "TfL station data detailed": `Stations.csv` and `Toilets.csv`, and each
//! station's lines from `Platforms.csv` and `PlatformServices.csv` where they are there,
//! from a directory or from the snapshot bundled in this crate.
//!
//! Powered by TfL Open Data (TfL Transport Data Service terms, OGL 2.0 with amendments).
//!
//! Its file reads block: the loader runs on the blocking pool.
#![allow(
    clippy::disallowed_methods,
    reason = "the TfL data loader's I/O: it runs on the blocking pool (spawn_blocking in station_toilets)"
)]

use std::collections::{BTreeMap, HashMap};
use std::io::Read;
use std::ops::Bound;
use std::path::{Path, PathBuf};

use csv::{ReaderBuilder, StringRecord, Trim};

use super::name::NormalizedName;
use super::platforms::platform_numbers;
use super::station_lines;
use super::types::StationToiletDetail;
use crate::config::Config;

const BUNDLED_STATIONS: &str = include_str!("../../../data/tfl-station-data/Stations.csv");
const BUNDLED_TOILETS: &str = include_str!("../../../data/tfl-station-data/Toilets.csv");
const BUNDLED_PLATFORMS: &str = include_str!("../../../data/tfl-station-data/Platforms.csv");
const BUNDLED_SERVICES: &str = include_str!("../../../data/tfl-station-data/PlatformServices.csv");
const STATIONS_FILE: &str = "Stations.csv";
/// The file naming each platform's station.
const PLATFORMS_FILE: &str = "Platforms.csv";
/// The file naming the lines at each platform.
const SERVICES_FILE: &str = "PlatformServices.csv";
const TOILETS_FILE: &str = "Toilets.csv";

/// Where station data comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StationDataSource {
    /// A directory holding `Stations.csv` and `Toilets.csv`.
    Directory(PathBuf),
    /// The snapshot bundled in the crate (feed of 2026-08-03).
    Bundled,
}

impl StationDataSource {
    /// The configured directory if set; else the contract's default directory
    /// (`~/Downloads/TfL station data detailed`) if it exists; else the bundled data.
    pub fn resolve(config: &Config) -> Self {
        if let Some(dir) = config.station_data_dir() {
            return Self::Directory(dir.clone());
        }
        match config.default_station_data_dir() {
            Some(dir) if dir.is_dir() => Self::Directory(dir),
            _ => Self::Bundled,
        }
    }
}

/// Why station data could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StationDataError {
    /// A file could not be read.
    #[error("cannot read {path}: {reason}")]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        reason: String,
    },
    /// A file is not the expected CSV (missing column, bad row).
    #[error("malformed {file}: {reason}")]
    Malformed {
        /// The file name.
        file: &'static str,
        /// What is wrong.
        reason: String,
    },
}

/// One station of `Stations.csv`.
#[derive(Debug, Clone)]
pub struct Station {
    /// `UniqueId`, e.g. `HUBKGX`.
    pub unique_id: String,
    /// `Name`, e.g. `King's Cross St Pancras`.
    pub name: String,
    /// The names of the lines calling at its platforms, e.g. `Circle`, `District`
    /// (empty where the data names none).
    pub lines: Vec<String>,
    /// The name normalised for matching.
    pub(crate) normalized: NormalizedName,
}

/// Stations and their toilets, joined by `StationUniqueId`.
#[derive(Debug, Clone)]
pub struct StationData {
    stations: Vec<Station>,
    toilets: HashMap<String, Vec<StationToiletDetail>>,
    /// Each station's position by its `unique_id` in ASCII upper case (the first one, in
    /// file order, when ids repeat).
    by_id: HashMap<String, usize>,
    /// The positions of the stations of each normalised name, in file order.
    by_name: HashMap<String, Vec<usize>>,
    /// The positions of the stations whose normalised name has each token, in file order,
    /// sorted by token so that the tokens starting with a prefix are one range.
    by_token: BTreeMap<String, Vec<usize>>,
    /// Each station's position by the NaPTAN stop areas of its platforms (`940GZZLUKSX` →
    /// King's Cross St Pancras), in ASCII upper case: filled by [`Self::with_lines`].
    by_naptan: HashMap<String, usize>,
}

impl StationData {
    /// Loads from `source`. Directory reads are blocking; call this off the async
    /// reactor (the tool uses `spawn_blocking`).
    pub fn load(source: &StationDataSource) -> Result<Self, StationDataError> {
        match source {
            StationDataSource::Bundled => {
                Self::parse(BUNDLED_STATIONS.as_bytes(), BUNDLED_TOILETS.as_bytes())?
                    .with_lines(BUNDLED_PLATFORMS.as_bytes(), BUNDLED_SERVICES.as_bytes())
            }
            StationDataSource::Directory(dir) => {
                let stations = read_file(&dir.join(STATIONS_FILE))?;
                let toilets = read_file(&dir.join(TOILETS_FILE))?;
                let data = Self::parse(stations.as_slice(), toilets.as_slice())?;
                let (platforms, services) = (dir.join(PLATFORMS_FILE), dir.join(SERVICES_FILE));
                // A directory of the two files alone: no lines, titles by kind.
                if !platforms.is_file() || !services.is_file() {
                    return Ok(data);
                }
                data.with_lines(
                    read_file(&platforms)?.as_slice(),
                    read_file(&services)?.as_slice(),
                )
            }
        }
    }

    /// Parses the two CSVs (columns looked up by header name, cells trimmed).
    pub fn parse(
        stations_csv: impl Read,
        toilets_csv: impl Read,
    ) -> Result<Self, StationDataError> {
        let stations = parse_stations(stations_csv)?;
        let known: HashMap<&str, ()> = stations
            .iter()
            .map(|s| (s.unique_id.as_str(), ()))
            .collect();
        let mut toilets: HashMap<String, Vec<StationToiletDetail>> = HashMap::new();
        for (station_id, toilet) in parse_toilets(toilets_csv)? {
            if known.contains_key(station_id.as_str()) {
                toilets.entry(station_id).or_default().push(toilet);
            } else {
                tracing::warn!(station_id, "toilet row names an unknown station; skipped");
            }
        }
        let mut by_id = HashMap::new();
        let mut by_name: HashMap<String, Vec<usize>> = HashMap::new();
        let mut by_token: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (at, station) in stations.iter().enumerate() {
            for token in station.normalized.tokens() {
                let positions = by_token.entry(token.clone()).or_default();
                // A name that repeats a word is listed once for it.
                if positions.last() != Some(&at) {
                    positions.push(at);
                }
            }
            by_id
                .entry(station.unique_id.to_ascii_uppercase())
                .or_insert(at);
            by_name
                .entry(station.normalized.text.clone())
                .or_default()
                .push(at);
        }
        Ok(Self {
            stations,
            toilets,
            by_id,
            by_name,
            by_token,
            by_naptan: HashMap::new(),
        })
    }

    /// The data with each station's lines, from the feed's platform and service files
    /// (`Platforms.csv` and `PlatformServices.csv`), joined by platform id.
    pub fn with_lines(
        mut self,
        platforms_csv: impl Read,
        services_csv: impl Read,
    ) -> Result<Self, StationDataError> {
        let platforms = column_pairs(
            PLATFORMS_FILE,
            platforms_csv,
            ["UniqueId", "StationUniqueId"],
        )?;
        let rows = columns(
            SERVICES_FILE,
            services_csv,
            ["PlatformUniqueId", "Line", "StopAreaNaptanCode"],
        )?;
        let mut services = Vec::with_capacity(rows.len());
        let mut areas = Vec::with_capacity(rows.len());
        for [platform, line, area] in rows {
            areas.push((platform.clone(), area));
            services.push((platform, line));
        }
        let station_of: HashMap<&str, &str> = platforms
            .iter()
            .map(|(platform, station)| (platform.as_str(), station.as_str()))
            .collect();
        for (platform, area) in &areas {
            if let Some(at) = station_of
                .get(platform.as_str())
                .and_then(|station| self.by_id.get(&station.to_ascii_uppercase()))
                && !area.is_empty()
            {
                self.by_naptan
                    .entry(area.to_ascii_uppercase())
                    .or_insert(*at);
            }
        }
        let mut lines = station_lines::join(platforms, services);
        for station in &mut self.stations {
            station.lines = lines.remove(&station.unique_id).unwrap_or_default();
        }
        Ok(self)
    }

    /// The first station whose `unique_id` is `id`, ignoring ASCII case.
    pub(crate) fn station_by_id(&self, id: &str) -> Option<&Station> {
        let at = *self.by_id.get(&id.to_ascii_uppercase())?;
        self.stations.get(at)
    }

    /// The station whose platforms are in NaPTAN stop area `naptan` (`940GZZLUKSX`),
    /// ignoring ASCII case.
    pub(crate) fn station_by_naptan(&self, naptan: &str) -> Option<&Station> {
        let at = *self.by_naptan.get(&naptan.to_ascii_uppercase())?;
        self.stations.get(at)
    }

    /// The stations whose normalised name is `normalized`, in file order.
    pub(crate) fn stations_named(&self, normalized: &str) -> Vec<&Station> {
        self.by_name.get(normalized).map_or_else(Vec::new, |all| {
            all.iter().filter_map(|at| self.stations.get(*at)).collect()
        })
    }

    /// The stations whose normalised name has a token starting with `prefix`, in file
    /// order: the only ones a query with that token can match.
    pub(crate) fn stations_with_token_starting(&self, prefix: &str) -> Vec<&Station> {
        let mut positions: Vec<usize> = self
            .by_token
            .range::<str, _>((Bound::Included(prefix), Bound::Unbounded))
            .take_while(|(token, _)| token.starts_with(prefix))
            .flat_map(|(_, positions)| positions.iter().copied())
            .collect();
        positions.sort_unstable();
        positions.dedup();
        positions
            .into_iter()
            .filter_map(|at| self.stations.get(at))
            .collect()
    }

    /// Every station, in file order.
    pub fn stations(&self) -> &[Station] {
        &self.stations
    }

    /// The toilets of station `unique_id` (empty when it has none).
    pub fn toilets_of(&self, unique_id: &str) -> &[StationToiletDetail] {
        self.toilets.get(unique_id).map_or(&[], Vec::as_slice)
    }
}

/// Each row's cells of the `N` `columns` of `file`, in that order.
fn columns<const N: usize>(
    file: &'static str,
    csv: impl Read,
    columns: [&str; N],
) -> Result<Vec<[String; N]>, StationDataError> {
    let mut table = Table::open(file, csv, &columns)?;
    table
        .rows()
        .map(|row| row.map(|row| columns.map(|column| row.get(column).to_owned())))
        .collect()
}

/// Each row's cells of the two `columns` of `file`.
fn column_pairs(
    file: &'static str,
    csv: impl Read,
    pair: [&str; 2],
) -> Result<Vec<(String, String)>, StationDataError> {
    Ok(columns(file, csv, pair)?
        .into_iter()
        .map(|[a, b]| (a, b))
        .collect())
}

fn read_file(path: &Path) -> Result<Vec<u8>, StationDataError> {
    std::fs::read(path).map_err(|e| StationDataError::Unreadable {
        path: path.to_owned(),
        reason: e.to_string(),
    })
}

/// A CSV reader that trims cells and tolerates ragged rows; yields each row with a
/// column lookup by header name.
struct Table<R: Read> {
    file: &'static str,
    reader: csv::Reader<R>,
    columns: HashMap<String, usize>,
}

impl<R: Read> Table<R> {
    fn open(file: &'static str, input: R, required: &[&str]) -> Result<Self, StationDataError> {
        let mut reader = ReaderBuilder::new()
            .trim(Trim::All)
            .flexible(true)
            .from_reader(input);
        let headers = reader.headers().map_err(|e| malformed(file, e))?.clone();
        let columns: HashMap<String, usize> = headers
            .iter()
            .enumerate()
            .map(|(i, h)| (h.trim_start_matches('\u{feff}').to_owned(), i))
            .collect();
        if let Some(missing) = required.iter().find(|c| !columns.contains_key(**c)) {
            return Err(StationDataError::Malformed {
                file,
                reason: format!("missing column {missing}"),
            });
        }
        Ok(Self {
            file,
            reader,
            columns,
        })
    }

    fn rows(&mut self) -> impl Iterator<Item = Result<Row<'_>, StationDataError>> + '_ {
        let file = self.file;
        let columns = &self.columns;
        self.reader.records().map(move |r| {
            r.map(|record| Row { record, columns })
                .map_err(|e| malformed(file, e))
        })
    }
}

struct Row<'a> {
    record: StringRecord,
    columns: &'a HashMap<String, usize>,
}

impl Row<'_> {
    fn get(&self, column: &str) -> &str {
        self.columns
            .get(column)
            .and_then(|&i| self.record.get(i))
            .unwrap_or("")
    }

    fn flag(&self, column: &str) -> bool {
        matches!(
            self.get(column).to_ascii_lowercase().as_str(),
            "true" | "yes" | "y" | "1"
        )
    }
}

fn malformed(file: &'static str, error: csv::Error) -> StationDataError {
    StationDataError::Malformed {
        file,
        reason: error.to_string(),
    }
}

fn parse_stations(input: impl Read) -> Result<Vec<Station>, StationDataError> {
    let mut table = Table::open(STATIONS_FILE, input, &["UniqueId", "Name"])?;
    let mut stations = Vec::new();
    for row in table.rows() {
        let row = row?;
        let (unique_id, name) = (row.get("UniqueId"), row.get("Name"));
        if unique_id.is_empty() || name.is_empty() {
            continue;
        }
        stations.push(Station {
            unique_id: unique_id.to_owned(),
            name: name.to_owned(),
            lines: Vec::new(),
            normalized: NormalizedName::new(name),
        });
    }
    Ok(stations)
}

fn parse_toilets(input: impl Read) -> Result<Vec<(String, StationToiletDetail)>, StationDataError> {
    let mut table = Table::open(
        TOILETS_FILE,
        input,
        &[
            "StationUniqueId",
            "Type",
            "IsAccessible",
            "HasBabyChanging",
            "IsInsideGateLine",
            "Location",
            "IsFeeCharged",
        ],
    )?;
    let mut toilets = Vec::new();
    for row in table.rows() {
        let row = row?;
        let station_id = row.get("StationUniqueId");
        if station_id.is_empty() {
            continue;
        }
        let location = row.get("Location");
        let kind = row.get("Type");
        toilets.push((
            station_id.to_owned(),
            StationToiletDetail {
                location: (!location.is_empty()).then(|| location.to_owned()),
                platform_numbers: platform_numbers(location),
                accessible: row.flag("IsAccessible"),
                baby_changing: row.flag("HasBabyChanging"),
                inside_gate_line: row.flag("IsInsideGateLine"),
                fee_charged: row.flag("IsFeeCharged"),
                r#type: if kind.is_empty() {
                    "Unknown".to_owned()
                } else {
                    kind.to_owned()
                },
            },
        ));
    }
    Ok(toilets)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_data_has_every_row_and_join() {
        let data = StationData::load(&StationDataSource::Bundled).unwrap();
        assert_eq!(data.stations().len(), 509);
        let total: usize = data.toilets.values().map(Vec::len).sum();
        assert_eq!(total, 410, "all 410 toilet rows join a station");
        assert_eq!(data.toilets.len(), 179);
        assert_eq!(data.toilets_of("HUBVIC").len(), 6);
        let all = data.toilets.values().flatten();
        assert_eq!(all.clone().filter(|t| t.r#type == "Female").count(), 147);
        assert_eq!(all.clone().filter(|t| t.accessible).count(), 119);
        assert_eq!(all.clone().filter(|t| t.fee_charged).count(), 13);
        assert_eq!(all.filter(|t| t.location.is_none()).count(), 57);
    }

    #[test]
    fn quirky_cells_parse_by_header_name() {
        let stations =
            "\u{feff}Name,UniqueId\r\n Abbey Wood ,HUBABW\r\n\"Elephant & Castle\",HUBEAC\r\n";
        let toilets = "IsFeeCharged,Location,Type,IsInsideGateLine,HasBabyChanging,IsAccessible,StationUniqueId\r\n\
                       False,\"Located on platforms 2,3\",  Female ,true,FALSE,    TRUE ,HUBABW\r\n\
                       TRUE,,,False,True,false,HUBEAC\r\n\
                       TRUE,x,Male,False,True,false,NOPE\r\n";
        let data = StationData::parse(stations.as_bytes(), toilets.as_bytes()).unwrap();
        assert_eq!(data.stations()[0].name, "Abbey Wood");
        let abw = &data.toilets_of("HUBABW")[0];
        assert_eq!(abw.location.as_deref(), Some("Located on platforms 2,3"));
        assert_eq!(abw.platform_numbers, vec![2, 3]);
        assert_eq!(abw.r#type, "Female");
        assert!(abw.accessible && abw.inside_gate_line && !abw.baby_changing && !abw.fee_charged);
        let eac = &data.toilets_of("HUBEAC")[0];
        assert_eq!(
            (eac.location.clone(), eac.r#type.as_str()),
            (None, "Unknown")
        );
        assert!(eac.fee_charged && eac.baby_changing);
        assert!(data.toilets_of("NOPE").is_empty());
    }

    #[test]
    fn missing_column_is_malformed() {
        let err = StationData::parse("Id,Name\r\nX,Y\r\n".as_bytes(), "".as_bytes()).unwrap_err();
        assert_eq!(
            err,
            StationDataError::Malformed {
                file: "Stations.csv",
                reason: "missing column UniqueId".into()
            }
        );
    }

    #[test]
    fn missing_directory_is_unreadable() {
        let source = StationDataSource::Directory("/nonexistent/toolpack".into());
        assert!(matches!(
            StationData::load(&source),
            Err(StationDataError::Unreadable { .. })
        ));
    }

    #[test]
    fn source_resolution_order() {
        let dir = tempfile::tempdir().unwrap();
        let configured = Config::builder()
            .station_data_dir("/x")
            .home_dir(dir.path())
            .build();
        assert_eq!(
            StationDataSource::resolve(&configured),
            StationDataSource::Directory("/x".into())
        );
        let home_only = Config::builder().home_dir(dir.path()).build();
        assert_eq!(
            StationDataSource::resolve(&home_only),
            StationDataSource::Bundled
        );
        let default_dir = dir.path().join("Downloads/TfL station data detailed");
        std::fs::create_dir_all(&default_dir).unwrap();
        assert_eq!(
            StationDataSource::resolve(&home_only),
            StationDataSource::Directory(default_dir)
        );
    }
}
