//! Deserialisers for TfL bodies that never fail on a field: TfL adds fields and changes
//! their types (`StopPoint.status` can be the string `"Unknown"`, `created` can be
//! `"0001-01-01T00:00:00"`), so a field of an unexpected type reads as absent and the
//! rest of the answer still counts. TfL types are never `deny_unknown_fields`.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{DeserializeOwned, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use serde_json::value::RawValue;

/// A string, or `None` for anything else.
pub(crate) fn string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Scalar::deserialize(d)? {
        Scalar::Text(s) => Some(s),
        _ => None,
    })
}

/// An integer (or a string holding one), or `None` for anything else.
pub(crate) fn int<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    Ok(match Scalar::deserialize(d)? {
        Scalar::Int(n) => Some(n),
        Scalar::Uint(n) => i64::try_from(n).ok(),
        Scalar::Text(s) => s.trim().parse().ok(),
        _ => None,
    })
}

/// A finite number (or a string holding one), or `None` for anything else.
pub(crate) fn float<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    Ok(match Scalar::deserialize(d)? {
        Scalar::Int(n) => Some(n as f64),
        Scalar::Uint(n) => Some(n as f64),
        Scalar::Float(n) => Some(n),
        Scalar::Text(s) => s.trim().parse().ok(),
        _ => None,
    }
    .filter(|n: &f64| n.is_finite()))
}

/// One `T` or a list of them, as a list: TfL answers `/StopPoint/{ids}` with an object for
/// one id and an array for several.
pub(crate) fn one_or_many<T: DeserializeOwned>(value: Value) -> Result<Vec<T>, serde_json::Error> {
    match value {
        Value::Array(items) => items.into_iter().map(serde_json::from_value).collect(),
        one => Ok(vec![serde_json::from_value(one)?]),
    }
}

/// A boolean (or `"true"`/`"false"` in any case), or `None` for anything else.
pub(crate) fn boolean<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    Ok(match Scalar::deserialize(d)? {
        Scalar::Bool(b) => Some(b),
        Scalar::Text(s) => s.trim().to_ascii_lowercase().parse().ok(),
        _ => None,
    })
}

/// A list whose items are read one by one: an item that is not a `T` is dropped, and a
/// value that is not a list reads as empty. Each item is kept as its JSON text first
/// (no `Value` tree is built), then read as a `T` on its own, so a bad item cannot spoil
/// the rest.
pub(crate) fn list<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    d.deserialize_any(ListVisitor(PhantomData))
}

/// One JSON value read for a scalar field: the scalar, or `Other` for a list, an object or
/// null, read past without keeping anything.
enum Scalar {
    Text(String),
    Int(i64),
    Uint(u64),
    Float(f64),
    Bool(bool),
    Other,
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ScalarVisitor)
    }
}

struct ScalarVisitor;

impl<'de> Visitor<'de> for ScalarVisitor {
    type Value = Scalar;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Scalar, E> {
        Ok(Scalar::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Scalar, E> {
        Ok(Scalar::Int(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Scalar, E> {
        Ok(Scalar::Uint(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Scalar, E> {
        Ok(Scalar::Float(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Scalar, E> {
        Ok(Scalar::Text(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Scalar, E> {
        Ok(Scalar::Text(v))
    }

    fn visit_unit<E>(self) -> Result<Scalar, E> {
        Ok(Scalar::Other)
    }

    fn visit_none<E>(self) -> Result<Scalar, E> {
        Ok(Scalar::Other)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Scalar, D::Error> {
        Scalar::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Scalar, A::Error> {
        read_past_seq(seq).map(|()| Scalar::Other)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Scalar, A::Error> {
        read_past_map(map).map(|()| Scalar::Other)
    }
}

struct ListVisitor<T>(PhantomData<T>);

impl<'de, T: DeserializeOwned> Visitor<'de> for ListVisitor<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element::<Box<RawValue>>()? {
            if let Ok(item) = serde_json::from_str(item.get()) {
                items.push(item);
            }
        }
        Ok(items)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Vec<T>, A::Error> {
        read_past_map(map).map(|()| Vec::new())
    }

    fn visit_bool<E>(self, _: bool) -> Result<Vec<T>, E> {
        Ok(Vec::new())
    }

    fn visit_i64<E>(self, _: i64) -> Result<Vec<T>, E> {
        Ok(Vec::new())
    }

    fn visit_u64<E>(self, _: u64) -> Result<Vec<T>, E> {
        Ok(Vec::new())
    }

    fn visit_f64<E>(self, _: f64) -> Result<Vec<T>, E> {
        Ok(Vec::new())
    }

    fn visit_str<E>(self, _: &str) -> Result<Vec<T>, E> {
        Ok(Vec::new())
    }

    fn visit_unit<E>(self) -> Result<Vec<T>, E> {
        Ok(Vec::new())
    }

    fn visit_none<E>(self) -> Result<Vec<T>, E> {
        Ok(Vec::new())
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Vec<T>, D::Error> {
        d.deserialize_any(self)
    }
}

fn read_past_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<IgnoredAny>()?.is_some() {}
    Ok(())
}

fn read_past_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
    Ok(())
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
