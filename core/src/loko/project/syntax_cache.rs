//! The on-disk form of a d2 syntax answer: `{"ok":true}`, or
//! `{"ok":false,"line":L,"column":C,"message":M}`.

use serde_json::{Value, json};

use crate::loko::formats::d2::SyntaxError;

/// The file text of an answer (`None`: d2 accepted the source).
pub(crate) fn encode(answer: Option<&SyntaxError>) -> Vec<u8> {
    let value = match answer {
        None => json!({"ok": true}),
        Some(e) => json!({"ok": false, "line": e.line, "column": e.column, "message": e.message}),
    };
    value.to_string().into_bytes()
}

/// The answer a file holds; `None` when it is not one (then d2 is asked again).
pub(crate) fn decode(bytes: &[u8]) -> Option<Option<SyntaxError>> {
    let value: Value = serde_json::from_slice(bytes).ok()?;
    if value.get("ok")?.as_bool()? {
        return Some(None);
    }
    Some(Some(SyntaxError {
        line: u32::try_from(value.get("line")?.as_u64()?).ok()?,
        column: u32::try_from(value.get("column")?.as_u64()?).ok()?,
        message: value.get("message")?.as_str()?.to_owned(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_round_trip_and_garbage_is_asked_again() {
        let error = SyntaxError {
            line: 3,
            column: 7,
            message: "unexpected \"}\"".into(),
        };
        assert_eq!(decode(&encode(Some(&error))), Some(Some(error)));
        assert_eq!(decode(&encode(None)), Some(None));
        for garbage in [&b""[..], b"{", b"{\"ok\":false}", b"[]"] {
            assert_eq!(decode(garbage), None);
        }
    }
}
