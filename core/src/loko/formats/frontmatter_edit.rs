//! Changing keys of a markdown file's YAML frontmatter in place: the lines of each key
//! changed are replaced, a new key goes at the end of the frontmatter, and every other
//! line (other keys, comments, the body) stays byte for byte. Lists are written as
//! block sequences (`  - "item"`), the form loko's own frontmatter reader understands.

use serde_json::Value;

use crate::loko::formats::markdown::{self, yaml_string};

/// `key: value` as frontmatter lines (a string, or a list as a block sequence).
pub fn render(key: &str, value: &Value) -> String {
    match value {
        Value::Array(items) if items.is_empty() => format!("{key}: []\n"),
        Value::Array(items) => {
            let mut text = format!("{key}:\n");
            for item in items {
                let item = item.as_str().map_or_else(|| item.to_string(), yaml_string);
                text.push_str(&format!("  - {item}\n"));
            }
            text
        }
        Value::String(s) => format!("{key}: {}\n", yaml_string(s)),
        other => format!("{key}: {other}\n"),
    }
}

/// `text` with each of `changes` set in its frontmatter (one is added when the file has
/// none). The error says why the frontmatter cannot be edited.
pub fn set(text: &str, changes: &[(&str, Value)]) -> Result<String, String> {
    markdown::parse(text)?;
    let edited = edited(text, changes)?;
    // Whatever the path taken, what is written must read back with each value as set.
    let parsed = markdown::parse(&edited)?;
    for (key, value) in changes {
        if parsed.frontmatter.get(*key) != Some(value) {
            return Err(format!("'{key}' would not read back as written"));
        }
    }
    Ok(edited)
}

/// `text` with `changes` written into its frontmatter (or a new one), unchecked.
fn edited(text: &str, changes: &[(&str, Value)]) -> Result<String, String> {
    let (bom, text) = match text.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", text),
    };
    // A file written with CRLF line endings keeps them, in the lines changed too.
    let (newline, rest) = match (text.strip_prefix("---\n"), text.strip_prefix("---\r\n")) {
        (Some(rest), _) => ("\n", rest),
        (None, Some(rest)) => ("\r\n", rest),
        (None, None) => {
            let added: String = changes.iter().map(|(k, v)| render(k, v)).collect();
            return Ok(format!("{bom}---\n{added}---\n\n{text}"));
        }
    };
    let render = |key: &str, value: &Value| render(key, value).replace('\n', newline);
    let mut lines: Vec<&str> = rest.split_inclusive('\n').collect();
    let end = lines
        .iter()
        .position(|l| l.trim_end() == "---")
        .ok_or("frontmatter starts with --- but never ends")?;
    let body = lines.split_off(end);
    let mut front: Vec<String> = lines.into_iter().map(str::to_owned).collect();
    for (key, value) in changes {
        let rendered = render(key, value);
        match front.iter().position(|l| starts_key(l, key)) {
            Some(at) => {
                let mut until = at + 1;
                while continues(&front[until..]) {
                    until += 1;
                }
                front.splice(at..until, [rendered]);
            }
            None => {
                if front.last().is_some_and(|l| !l.ends_with('\n')) {
                    front.push(newline.to_owned());
                }
                front.push(rendered);
            }
        }
    }
    Ok(format!(
        "{bom}---{newline}{}{}",
        front.concat(),
        body.concat()
    ))
}

/// Whether `line` starts the top-level key `key`.
fn starts_key(line: &str, key: &str) -> bool {
    let unquoted = line
        .strip_prefix(key)
        .or_else(|| line.strip_prefix(&format!("\"{key}\"")))
        .or_else(|| line.strip_prefix(&format!("'{key}'")));
    unquoted.is_some_and(|rest| rest.trim_start_matches([' ', '\t']).starts_with(':'))
}

/// Whether the first of `lines` continues the value of the key above it: indented, a
/// `- ` item at the margin, or blank before more of the value.
fn continues(lines: &[String]) -> bool {
    let part_of_value =
        |l: &str| l.starts_with([' ', '\t']) || l.starts_with("- ") || l.trim_end() == "-";
    match lines.first() {
        None => false,
        Some(l) if l.trim().is_empty() => lines
            .iter()
            .find(|l| !l.trim().is_empty())
            .is_some_and(|l| part_of_value(l)),
        Some(l) => part_of_value(l),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const FILE: &str = "---\nname: API\n# a comment\ndescription: old\n\ntags:\n- a\n- b\nrelationships:\n  db: \"reads\"\nunknown_key: kept\n---\n\n# API\n\nThe body.\n";

    #[test]
    fn a_crlf_file_is_edited_in_place_with_its_line_endings() {
        // Found by fuzzing (fuzz/regressions/frontmatter_round_trip/): a file starting
        // `---\r\n` got a second frontmatter written above it, the first left in its body.
        let file = "---\r\nname: A\r\ntags: []\r\n---\r\n\r\n# A\r\n";
        let edited = set(file, &[("name", json!("B")), ("technology", json!("Go"))]).unwrap();
        assert_eq!(
            edited,
            "---\r\nname: \"B\"\r\ntags: []\r\ntechnology: \"Go\"\r\n---\r\n\r\n# A\r\n"
        );
    }

    #[test]
    fn a_key_that_would_break_a_new_frontmatter_is_refused() {
        // Found by fuzzing (fuzz/regressions/frontmatter_round_trip/): a file without
        // frontmatter got one written unchecked, with a key holding a line break.
        let refused = set("# Title\n", &[("name\nx", json!("v"))]);
        assert!(refused.is_err(), "{refused:?}");
        let added = set("# Title\n", &[("name", json!("v"))]).unwrap();
        assert_eq!(added, "---\nname: \"v\"\n---\n\n# Title\n");
    }

    #[test]
    fn changed_keys_are_replaced_and_everything_else_stays() {
        let edited = set(
            FILE,
            &[
                ("description", json!("new: text")),
                ("tags", json!(["x", "y z"])),
                ("framework", json!("Axum")),
            ],
        )
        .unwrap();
        assert_eq!(
            edited,
            "---\nname: API\n# a comment\ndescription: \"new: text\"\n\ntags:\n  - \"x\"\n  - \"y z\"\nrelationships:\n  db: \"reads\"\nunknown_key: kept\nframework: \"Axum\"\n---\n\n# API\n\nThe body.\n"
        );
        let doc = markdown::parse(&edited).unwrap();
        assert_eq!(doc.frontmatter["relationships"], json!({"db": "reads"}));
        assert_eq!(doc.body, "\n# API\n\nThe body.\n");
    }

    #[test]
    fn a_file_without_frontmatter_gets_one_and_broken_ones_are_refused() {
        let edited = set("# Plain\n", &[("tags", json!([]))]).unwrap();
        assert_eq!(edited, "---\ntags: []\n---\n\n# Plain\n");
        assert!(set("---\nname: [unclosed\n---\n", &[("tags", json!([]))]).is_err());
        assert!(set("---\nname: x\n", &[("tags", json!([]))]).is_err());
    }

    #[test]
    fn keys_are_found_only_at_the_margin() {
        assert!(starts_key("tags: [a]\n", "tags"));
        assert!(starts_key("\"tags\" : x\n", "tags"));
        assert!(!starts_key("  tags: [a]\n", "tags"));
        assert!(!starts_key("tagsx: 1\n", "tags"));
    }
}
