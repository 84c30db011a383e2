//! Deserialisers for TfL bodies that never fail on a field: TfL adds fields and changes
//! their types (`StopPoint.status` can be the string `"Unknown"`, `created` can be
//! `"0001-01-01T00:00:00"`), so a field of an unexpected type reads as absent and the
//! rest of the answer still counts. TfL types are never `deny_unknown_fields`.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// A string, or `None` for anything else.
pub(crate) fn string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::String(s) => Some(s),
        _ => None,
    })
}

/// An integer (or a string holding one), or `None` for anything else.
pub(crate) fn int<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    })
}

/// A finite number (or a string holding one), or `None` for anything else.
pub(crate) fn float<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
    .filter(|n: &f64| n.is_finite()))
}

/// One `T` or a list of them, as a list: TfL answers `/StopPoint/{ids}` with an object for
/// one id and an array for several.
pub(crate) fn one_or_many<T: serde::de::DeserializeOwned>(
    value: Value,
) -> Result<Vec<T>, serde_json::Error> {
    match value {
        Value::Array(items) => items.into_iter().map(serde_json::from_value).collect(),
        one => Ok(vec![serde_json::from_value(one)?]),
    }
}

/// A boolean (or `"true"`/`"false"` in any case), or `None` for anything else.
pub(crate) fn boolean<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Bool(b) => Some(b),
        Value::String(s) => s.trim().to_ascii_lowercase().parse().ok(),
        _ => None,
    })
}

/// A list whose items are read one by one: an item that is not a `T` is dropped, and a
/// value that is not a list reads as empty.
pub(crate) fn list<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    Ok(match Value::deserialize(d)? {
        Value::Array(items) => items
            .into_iter()
            .filter_map(|item| serde_json::from_value(item).ok())
            .collect(),
        _ => Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    #[derive(Clone, Deserialize)]
    struct Probe {
        #[serde(default, deserialize_with = "super::string")]
        name: Option<String>,
        #[serde(default, deserialize_with = "super::int")]
        severity: Option<i64>,
        #[serde(default, deserialize_with = "super::boolean")]
        status: Option<bool>,
        #[serde(default, deserialize_with = "super::list")]
        items: Vec<u32>,
    }

    #[test]
    fn one_id_answers_an_object_several_an_array() {
        let one: Vec<u32> = super::one_or_many(serde_json::json!(7)).unwrap();
        let many: Vec<u32> = super::one_or_many(serde_json::json!([7, 8])).unwrap();
        assert_eq!((one, many), (vec![7], vec![7, 8]));
    }

    #[test]
    fn a_field_of_another_type_reads_as_absent() {
        let probe: Probe = serde_json::from_str(
            r#"{"name": 7, "severity": "9", "status": "Unknown", "items": [1, "x", 3], "$type": "T"}"#,
        )
        .unwrap();
        assert_eq!(probe.name, None);
        assert_eq!(probe.severity, Some(9));
        assert_eq!(probe.status, None);
        assert_eq!(probe.items, vec![1, 3]);
        let empty: Probe = serde_json::from_str(r#"{"items": {"not": "a list"}}"#).unwrap();
        assert!(empty.items.is_empty() && empty.name.is_none() && empty.severity.is_none());
    }
}
