//! TfL's bike points (`GET /BikePoint`: every Santander Cycles docking station, about 800),
//! read leniently, and the [`Dock`]s the tool filters: parsed once per answer, so a search
//! near a point is a scan of plain numbers.

use serde::Deserialize;

use crate::tfl::lenient;

/// One `Tfl.Api.Presentation.Entities.Place` of `/BikePoint`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Place {
    #[serde(default, deserialize_with = "lenient::string")]
    id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    common_name: Option<String>,
    #[serde(default)]
    lat: Option<serde_json::Value>,
    #[serde(default)]
    lon: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "lenient::list")]
    additional_properties: Vec<Property>,
}

/// One `AdditionalProperties` entry: a key, its value as text, and when it changed.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Property {
    #[serde(default, deserialize_with = "lenient::string")]
    key: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    value: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    modified: Option<String>,
}

/// The docks of one `/BikePoint` answer, read once per answer and shared by every call the
/// answer serves ([`crate::tfl::upstream::get_shared`]).
#[derive(Debug, Clone, Deserialize)]
#[serde(from = "Vec<Place>")]
pub(crate) struct Docks(pub(crate) Vec<Dock>);

impl From<Vec<Place>> for Docks {
    fn from(places: Vec<Place>) -> Self {
        Self(places.into_iter().filter_map(Place::into_dock).collect())
    }
}

/// A docking station as the tool works with it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Dock {
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) lat: f64,
    pub(crate) lon: f64,
    pub(crate) standard_bikes: u32,
    pub(crate) e_bikes: u32,
    pub(crate) bikes: u32,
    pub(crate) empty_docks: u32,
    pub(crate) docks: u32,
    pub(crate) available: bool,
    pub(crate) updated: Option<String>,
}

impl Place {
    /// The dock, or `None` for a place without an id or a position.
    pub(crate) fn into_dock(self) -> Option<Dock> {
        let id = self.id.filter(|id| !id.trim().is_empty())?;
        let lat = number(self.lat.as_ref())?;
        let lon = number(self.lon.as_ref())?;
        let property = |key: &str| {
            self.additional_properties
                .iter()
                .find(|p| p.key.as_deref() == Some(key))
        };
        let count = |key: &str| {
            property(key)
                .and_then(|p| p.value.as_deref())
                .and_then(|v| v.trim().parse::<u32>().ok())
        };
        let flag = |key: &str| {
            property(key)
                .and_then(|p| p.value.as_deref())
                .map(|v| v.trim().eq_ignore_ascii_case("true"))
        };
        let standard_bikes = count("NbStandardBikes");
        let e_bikes = count("NbEBikes").unwrap_or(0);
        // Older answers have no split: every bike is then a standard one.
        let bikes = count("NbBikes").unwrap_or(standard_bikes.unwrap_or(0) + e_bikes);
        let standard_bikes = standard_bikes.unwrap_or(bikes.saturating_sub(e_bikes));
        let updated = self
            .additional_properties
            .iter()
            .filter(|p| p.key.as_deref().is_some_and(|k| k.starts_with("Nb")))
            .filter_map(|p| p.modified.clone())
            .max();
        Some(Dock {
            name: self.common_name.unwrap_or_else(|| id.clone()),
            lat,
            lon,
            standard_bikes,
            e_bikes,
            bikes,
            empty_docks: count("NbEmptyDocks").unwrap_or(0),
            docks: count("NbDocks").unwrap_or(0),
            available: flag("Installed") != Some(false)
                && flag("Locked") != Some(true)
                && flag("Temporary") != Some(true),
            updated,
            id,
        })
    }
}

/// A coordinate given as a number, or a string holding one.
fn number(value: Option<&serde_json::Value>) -> Option<f64> {
    match value? {
        serde_json::Value::Number(n) => n.as_f64(),
        serde_json::Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
    .filter(|n: &f64| n.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_flags_and_the_latest_update_come_from_the_properties() {
        let place: Place = serde_json::from_str(
            r#"{"$type":"Place","id":"BikePoints_1","commonName":"River Street , Clerkenwell","lat":51.529163,"lon":"-0.10997",
                "additionalProperties":[
                  {"key":"Installed","value":"true","modified":"2026-11-27T10:00:00.1Z"},
                  {"key":"Locked","value":"false","modified":"2026-11-27T10:00:00.1Z"},
                  {"key":"NbBikes","value":"7","modified":"2026-11-27T10:05:00.1Z"},
                  {"key":"NbEBikes","value":"2","modified":"2026-11-27T10:04:00.1Z"},
                  {"key":"NbEmptyDocks","value":"10","modified":"2026-11-27T10:05:00.1Z"},
                  {"key":"NbDocks","value":"19","modified":"2026-11-27T10:05:00.1Z"},
                  {"key":"TerminalName","value":"001023","modified":"2026-11-27T11:00:00.1Z"},
                  "not a property"]}"#,
        )
        .unwrap();
        let dock = place.into_dock().unwrap();
        assert_eq!((dock.bikes, dock.standard_bikes, dock.e_bikes), (7, 5, 2));
        assert_eq!((dock.empty_docks, dock.docks), (10, 19));
        assert!(dock.available);
        assert_eq!(dock.lon, -0.10997);
        assert_eq!(dock.updated.as_deref(), Some("2026-11-27T10:05:00.1Z"));
    }

    #[test]
    fn a_locked_dock_is_unavailable_and_a_place_needs_a_position() {
        let locked: Place = serde_json::from_str(
            r#"{"id":"BikePoints_2","lat":51.5,"lon":-0.1,"additionalProperties":[{"key":"Locked","value":"True"}]}"#,
        )
        .unwrap();
        assert!(!locked.into_dock().unwrap().available);
        let nowhere: Place =
            serde_json::from_str(r#"{"id":"BikePoints_3","lat":null,"lon":-0.1}"#).unwrap();
        assert!(nowhere.into_dock().is_none());
    }
}
