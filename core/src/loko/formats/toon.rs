//! A TOON encoder (Token-Oriented Object Notation, spec v4.0,
//! <https://github.com/toon-format/spec>): comma or tab delimiter, two-space indent, keyed
//! and nested-group tabular forms, no `[#N]` markers. Only encoding is needed here; tests
//! decode the output with the official decoders and compare it with their encoder.

use serde_json::{Map, Value};

/// The TOON text of `value`, comma-delimited.
pub fn encode(value: &Value) -> String {
    encode_with(value, ',')
}

/// The TOON text of `value` with `delimiter` (`,` or `\t`) between cells and array items;
/// a tab is declared in every array header (`[N\t]`), as the spec asks.
pub fn encode_with(value: &Value, delimiter: char) -> String {
    let mut out = Lines {
        lines: Vec::new(),
        delimiter,
    };
    match value {
        Value::Object(map) if map.is_empty() => {}
        Value::Object(map) => match keyed_fields(map) {
            Some(fields) => keyed(&mut out, 0, "", map, &fields),
            None => object_fields(&mut out, 0, map),
        },
        Value::Array(items) => array(&mut out, 0, "", items, Position::Root),
        // A reader drops a byte-order mark at the very start as the file's, not the
        // string's; anywhere else it is the string's first character, written plain.
        Value::String(s) if s.starts_with('\u{feff}') => out.push(0, quoted(s)),
        primitive => out.push(0, primitive_text(primitive, delimiter)),
    }
    out.finish()
}

struct Lines {
    lines: Vec<(usize, String)>,
    delimiter: char,
}

impl Lines {
    /// The delimiter's mark in an array header: none for a comma, else the delimiter.
    fn mark(&self) -> &'static str {
        if self.delimiter == '\t' { "\t" } else { "" }
    }

    fn push(&mut self, depth: usize, text: String) {
        self.lines.push((depth, text));
    }

    fn finish(self) -> String {
        let mut text = String::new();
        for (i, (depth, line)) in self.lines.iter().enumerate() {
            if i > 0 {
                text.push('\n');
            }
            text.push_str(&"  ".repeat(*depth));
            text.push_str(line);
        }
        text
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Position {
    Root,
    Field,
    ListItem,
}

fn object_fields(out: &mut Lines, depth: usize, map: &Map<String, Value>) {
    for (key, value) in map {
        field(out, depth, key, value);
    }
}

fn field(out: &mut Lines, depth: usize, key: &str, value: &Value) {
    let key = key_text(key);
    match value {
        Value::Array(items) => array(out, depth, &key, items, Position::Field),
        Value::Object(map) if map.is_empty() => out.push(depth, format!("{key}:")),
        Value::Object(map) => match keyed_fields(map) {
            Some(fields) => keyed(out, depth, &key, map, &fields),
            None => {
                out.push(depth, format!("{key}:"));
                object_fields(out, depth + 1, map);
            }
        },
        primitive => {
            let text = primitive_text(primitive, out.delimiter);
            out.push(depth, format!("{key}: {text}"));
        }
    }
}

fn array(out: &mut Lines, depth: usize, key: &str, items: &[Value], position: Position) {
    let n = items.len();
    if n == 0 {
        let text = match position {
            // The tab is declared in an empty array's header too (found by fuzzing).
            Position::ListItem => format!("{key}[0{}]:", out.mark()),
            Position::Root => "[]".to_owned(),
            Position::Field => format!("{key}: []"),
        };
        out.push(depth, text);
        return;
    }
    let (d, mark) = (out.delimiter, out.mark());
    if items.iter().all(is_primitive) {
        let cells: Vec<String> = items.iter().map(|v| primitive_text(v, d)).collect();
        out.push(depth, format!("{key}[{n}{mark}]: {}", join(&cells, d)));
        return;
    }
    if position != Position::ListItem
        && let Some(fields) = tabular_fields(items)
    {
        out.push(
            depth,
            format!("{key}[{n}{mark}]{{{}}}:", header(&fields, d)),
        );
        for item in items {
            out.push(depth + 1, join(&row(item, &fields, d), d));
        }
        return;
    }
    out.push(depth, format!("{key}[{n}{mark}]:"));
    for item in items {
        list_item(out, depth + 1, item);
    }
}

fn list_item(out: &mut Lines, depth: usize, item: &Value) {
    match item {
        Value::Array(inner) => array(out, depth, "- ", inner, Position::ListItem),
        Value::Object(map) if map.is_empty() => out.push(depth, "-".to_owned()),
        Value::Object(map) => {
            let start = out.lines.len();
            let mut entries = map.iter();
            if let Some((key, value)) = entries.next() {
                field(out, depth + 1, key, value);
            }
            let (first_depth, first_line) = &mut out.lines[start];
            *first_depth = depth;
            *first_line = format!("- {first_line}");
            for (key, value) in entries {
                field(out, depth + 1, key, value);
            }
        }
        primitive => {
            let text = primitive_text(primitive, out.delimiter);
            out.push(depth, format!("- {text}"));
        }
    }
}

/// A tabular column: a leaf, or a nested field group.
#[derive(Debug, Clone, PartialEq)]
struct Field {
    name: String,
    group: Option<Vec<Field>>,
}

fn header(fields: &[Field], delimiter: char) -> String {
    let names: Vec<String> = fields
        .iter()
        .map(|f| match &f.group {
            Some(group) => format!("{}{{{}}}", key_text(&f.name), header(group, delimiter)),
            None => key_text(&f.name),
        })
        .collect();
    join(&names, delimiter)
}

fn row(value: &Value, fields: &[Field], delimiter: char) -> Vec<String> {
    let mut cells = Vec::new();
    for f in fields {
        let cell = &value[&f.name];
        match &f.group {
            Some(group) => cells.extend(row(cell, group, delimiter)),
            None => cells.push(primitive_text(cell, delimiter)),
        }
    }
    cells
}

fn join(cells: &[String], delimiter: char) -> String {
    cells.join(delimiter.encode_utf8(&mut [0; 4]))
}

/// The fields of a uniform set of objects (same key set, every column uniform-primitive
/// or nested-uniform), in the first object's order; `None` when not uniform.
fn uniform_fields(objects: &[&Map<String, Value>]) -> Option<Vec<Field>> {
    let first = objects.first()?;
    if first.is_empty()
        || objects
            .iter()
            .any(|o| o.len() != first.len() || !first.keys().all(|k| o.contains_key(k)))
    {
        return None;
    }
    first
        .keys()
        .map(|key| {
            let column: Vec<&Value> = objects.iter().map(|o| &o[key]).collect();
            if column.iter().all(|v| is_primitive(v)) {
                return Some(Field {
                    name: key.clone(),
                    group: None,
                });
            }
            let maps: Vec<&Map<String, Value>> =
                column.iter().filter_map(|v| v.as_object()).collect();
            (maps.len() == column.len()).then_some(())?;
            uniform_fields(&maps).map(|group| Field {
                name: key.clone(),
                group: Some(group),
            })
        })
        .collect()
}

fn tabular_fields(items: &[Value]) -> Option<Vec<Field>> {
    let objects: Vec<&Map<String, Value>> = items.iter().filter_map(Value::as_object).collect();
    (objects.len() == items.len()).then_some(())?;
    uniform_fields(&objects)
}

fn keyed_fields(map: &Map<String, Value>) -> Option<Vec<Field>> {
    if map.len() < 2 {
        return None;
    }
    let objects: Vec<&Map<String, Value>> = map.values().filter_map(Value::as_object).collect();
    (objects.len() == map.len()).then_some(())?;
    uniform_fields(&objects)
}

fn keyed(out: &mut Lines, depth: usize, key: &str, map: &Map<String, Value>, fields: &[Field]) {
    let (d, mark) = (out.delimiter, out.mark());
    let n = map.len();
    out.push(
        depth,
        format!("{key}[{n}:{mark}]{{{}}}:", header(fields, d)),
    );
    for (entry, value) in map {
        let cells = join(&row(value, fields, d), d);
        out.push(depth + 1, format!("{}: {cells}", key_text(entry)));
    }
}

fn is_primitive(value: &Value) -> bool {
    !matches!(value, Value::Array(_) | Value::Object(_))
}

fn primitive_text(value: &Value, delimiter: char) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => number_text(n),
        Value::String(s) if needs_quotes(s, delimiter) => quoted(s),
        Value::String(s) => s.clone(),
        Value::Array(_) | Value::Object(_) => "null".to_owned(),
    }
}

/// Canonical decimal form (§2): no exponent, no trailing zeros, `-0` as `0`.
fn number_text(n: &serde_json::Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    let f = n.as_f64().unwrap_or(0.0);
    if f == 0.0 || !f.is_finite() {
        return if f.is_finite() {
            "0".to_owned()
        } else {
            "null".to_owned()
        };
    }
    // Rust's `Display` for f64 is the shortest round-trip decimal, never an exponent.
    format!("{f}")
}

fn needs_quotes(s: &str, delimiter: char) -> bool {
    s.is_empty()
        || s.starts_with([' ', '\t'])
        || s.ends_with([' ', '\t'])
        || matches!(s, "true" | "false" | "null")
        || numeric_like(s)
        || s.contains([':', '"', '\\', '[', ']', '{', '}'])
        || s.chars().any(|c| (c as u32) < 0x20)
        || s.contains(delimiter)
        || s.starts_with(['-', '#'])
}

/// `/^[+-]?[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?$/i`
fn numeric_like(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some((int, frac)) => digits(int) && digits(frac),
        None => digits(mantissa),
    };
    let exponent_ok = exponent.is_none_or(|e| digits(e.strip_prefix(['+', '-']).unwrap_or(e)));
    mantissa_ok && exponent_ok
}

fn key_text(key: &str) -> String {
    let mut chars = key.chars();
    let plain = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
    if plain { key.to_owned() } else { quoted(key) }
}

fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_notes_example() {
        let value = json!({"type":"structure","systems":[{"id":"payment-api","name":"Payment API","containers":[{"id":"api","name":"API Service"}]}]});
        assert_eq!(
            encode(&value),
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
            encode(&value),
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
            encode(&value),
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
            encode_with(&value, '\t'),
            concat!(
                "rows[1\t]{a\tb}:\n  x, y\t\"t\\tu\"\n",
                "list[2\t]: p\tq\n",
                "byId[2:\t]{x}:\n  k1: 1\n  k2: 2"
            )
        );
    }

    #[test]
    fn a_leading_byte_order_mark_is_quoted() {
        // Found by fuzzing (fuzz/regressions/toon_round_trip/): unquoted, the official
        // decoder read the string "\u{feff}" as an empty document.
        assert_eq!(encode(&json!("\u{feff}")), "\"\u{feff}\"");
        // Inside the document it is plain, as the official encoder writes it (found by
        // fuzzing too: quoted, it differed from the reference).
        assert_eq!(encode(&json!({"a": "\u{feff}x"})), "a: \u{feff}x");
    }

    #[test]
    fn an_empty_list_item_array_declares_the_tab() {
        // Found by fuzzing (fuzz/regressions/toon_round_trip/): the official encoder writes
        // the delimiter in every array header, the empty ones included.
        assert_eq!(encode_with(&json!([[]]), '\t'), "[1\t]:\n  - [0\t]:");
        assert_eq!(encode_with(&json!([[]]), ','), "[1]:\n  - [0]:");
    }

    #[test]
    fn numeric_like_strings_are_recognised() {
        for s in ["42", "-3.14", "05", "+1", "1e-6", "1E+9"] {
            assert!(numeric_like(s), "{s}");
        }
        for s in ["1.", ".5", "1e", "abc", "1_000", "0x10", ""] {
            assert!(!numeric_like(s), "{s}");
        }
    }
}
