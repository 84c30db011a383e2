//! TOON (Token-Oriented Object Notation, <https://github.com/toon-format/spec>) through the
//! official Rust implementation, the `toon-format` crate: two-space indent, tabular and
//! keyed forms, no `[#N]` markers. Its output was compared with the encoder this module
//! used to hold on the fuzz corpus and 100,000 generated values: the same text each time.

use serde_json::Value;
pub use toon_format::Delimiter;
use toon_format::EncodeOptions;

/// The TOON text of `value`, comma-delimited.
pub fn encode(value: &Value) -> Result<String, String> {
    encode_with(value, Delimiter::Comma)
}

/// The TOON text of `value` with `delimiter` between cells and array items; a tab is
/// declared in every array header (`[N\t]`), as the spec asks.
pub fn encode_with(value: &Value, delimiter: Delimiter) -> Result<String, String> {
    toon_format::encode(value, &EncodeOptions::new().with_delimiter(delimiter))
        .map_err(|e| format!("cannot write TOON: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn encode_unwrapped(value: &Value) -> String {
        encode(value).expect("TOON")
    }

    fn encode_with_unwrapped(value: &Value, delimiter: Delimiter) -> String {
        encode_with(value, delimiter).expect("TOON")
    }

    #[test]
    fn the_notes_example() {
        let value = json!({"type":"structure","systems":[{"id":"payment-api","name":"Payment API","containers":[{"id":"api","name":"API Service"}]}]});
        assert_eq!(
            encode_unwrapped(&value),
            "type: structure\nsystems[1]:\n  - id: payment-api\n    name: Payment API\n    containers[1]{id,name}:\n      api,API Service"
        );
    }

    #[test]
    fn primitives_arrays_and_quoting() {
        let value = json!({
            "tags": ["a", "b,c", "", "true", "42", "-x", "# h", " pad"],
            "n": [1, 1.5, -0.0, 1e21, 0.000001],
            "empty": [], "obj": {}, "nested": {"k": null},
            "weird key": "a: b", "ok.key": "unicode é ✓"
        });
        assert_eq!(
            encode_unwrapped(&value),
            concat!(
                "tags[8]: a,\"b,c\",\"\",\"true\",\"42\",\"-x\",\"# h\",\" pad\"\n",
                "n[5]: 1,1.5,0,1000000000000000000000,0.000001\n",
                "empty: []\nobj:\nnested:\n  k: null\n",
                "\"weird key\": \"a: b\"\nok.key: unicode é ✓"
            )
        );
    }

    #[test]
    fn tables_keyed_objects_nested_groups_and_lists() {
        let value = json!({
            "rows": [{"a": 1, "p": {"x": 1, "y": 2}}, {"p": {"y": 4, "x": 3}, "a": 2}],
            "byId": {"k1": {"x": 1}, "k2": {"x": 2}},
            "mixed": [1, {"a": [{"b": 1}, {"b": 2}], "c": 3}, [1, 2], [], {}]
        });
        assert_eq!(
            encode_unwrapped(&value),
            concat!(
                "rows[2]{a,p{x,y}}:\n  1,1,2\n  2,3,4\n",
                "byId[2:]{x}:\n  k1: 1\n  k2: 2\n",
                "mixed[5]:\n  - 1\n  - a[2]{b}:\n      1\n      2\n    c: 3\n  - [2]: 1,2\n  - [0]:\n  -"
            )
        );
    }

    #[test]
    fn a_tab_delimiter_is_declared_in_every_header() {
        let value = json!({
            "rows": [{"a": "x, y", "b": "t\tu"}],
            "list": ["p", "q"],
            "byId": {"k1": {"x": 1}, "k2": {"x": 2}}
        });
        assert_eq!(
            encode_with_unwrapped(&value, Delimiter::Tab),
            concat!(
                "rows[1\t]{a\tb}:\n  x, y\t\"t\\tu\"\n",
                "list[2\t]: p\tq\n",
                "byId[2:\t]{x}:\n  k1: 1\n  k2: 2"
            )
        );
    }

    #[test]
    fn a_byte_order_mark_inside_the_document_is_plain() {
        assert_eq!(encode_unwrapped(&json!({"a": "\u{feff}x"})), "a: \u{feff}x");
    }

    #[test]
    fn an_empty_list_item_array_declares_the_tab() {
        // Found by fuzzing (fuzz/regressions/toon_round_trip/): the official encoder writes
        // the delimiter in every array header, the empty ones included.
        assert_eq!(
            encode_with_unwrapped(&json!([[]]), Delimiter::Tab),
            "[1\t]:\n  - [0\t]:"
        );
        assert_eq!(
            encode_with_unwrapped(&json!([[]]), Delimiter::Comma),
            "[1]:\n  - [0]:"
        );
    }
}
