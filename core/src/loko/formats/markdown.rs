//! Markdown files with YAML frontmatter (`---` on line 1 to the next `---` line), parsed
//! with a real YAML parser; every key is kept, in file order.

use serde_json::{Map, Value};

/// The frontmatter of a file: every key in file order, as JSON values.
pub type Frontmatter = Map<String, Value>;

/// A markdown file split into its frontmatter and body.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Document {
    /// The frontmatter keys (empty when the file has none).
    pub frontmatter: Frontmatter,
    /// The markdown after the frontmatter.
    pub body: String,
}

/// Splits and parses `text`. An error names what is wrong with the frontmatter.
pub fn parse(text: &str) -> Result<Document, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(rest) = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
    else {
        return Ok(Document {
            frontmatter: Frontmatter::new(),
            body: text.to_owned(),
        });
    };
    let mut offset = 0;
    let mut end = None;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            end = Some((offset, offset + line.len()));
            break;
        }
        offset += line.len();
    }
    let (yaml_end, body_start) = end.ok_or("frontmatter starts with --- but never ends")?;
    let yaml = &rest[..yaml_end];
    let frontmatter = if yaml.trim().is_empty() {
        Frontmatter::new()
    } else {
        match serde_yaml_ng::from_str::<Value>(yaml) {
            Ok(Value::Object(map)) => map,
            Ok(Value::Null) => Frontmatter::new(),
            Ok(_) => return Err("frontmatter must be a mapping of keys to values".into()),
            Err(e) => return Err(format!("invalid YAML: {e}")),
        }
    };
    Ok(Document {
        frontmatter,
        body: rest[body_start..].to_owned(),
    })
}

/// The string value of `key`, trimmed, when it is a non-empty string (or a number).
pub fn text(frontmatter: &Frontmatter, key: &str) -> Option<String> {
    match frontmatter.get(key)? {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_owned()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The list value of `key` as strings: a YAML list, or one string.
pub fn list(frontmatter: &Frontmatter, key: &str) -> Vec<String> {
    match frontmatter.get(key) {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|v| match v {
                Value::String(s) => Some(s.clone()),
                Value::Null => None,
                other => Some(other.to_string()),
            })
            .collect(),
        Some(Value::String(s)) if !s.trim().is_empty() => vec![s.clone()],
        _ => Vec::new(),
    }
}

/// The text of the first `# ` heading of a markdown body.
pub fn first_heading(body: &str) -> Option<String> {
    body.lines()
        .find_map(|l| l.strip_prefix("# "))
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
}

/// `value` as a YAML scalar that any YAML parser reads back as the same string (a
/// JSON string is a valid double-quoted YAML scalar).
pub fn yaml_string(value: &str) -> String {
    Value::String(value.to_owned()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_kept_in_order_and_the_body_follows() {
        let doc = parse(
            "---\nname: API Service\ndescription: \"REST\"\ntags: [api, backend]\nrelationships:\n  db: \"reads\"\nzeta: 1\n---\n# API\nbody\n",
        )
        .unwrap();
        let keys: Vec<&String> = doc.frontmatter.keys().collect();
        assert_eq!(
            keys,
            ["name", "description", "tags", "relationships", "zeta"]
        );
        assert_eq!(list(&doc.frontmatter, "tags"), ["api", "backend"]);
        assert_eq!(doc.body, "# API\nbody\n");
        assert_eq!(first_heading(&doc.body).as_deref(), Some("API"));
    }

    #[test]
    fn broken_frontmatter_is_an_error_and_none_is_fine() {
        assert!(parse("---\nname: [unclosed\n---\n").is_err());
        assert!(parse("---\nname: x\n").is_err());
        assert!(parse("---\n- a\n---\n").is_err());
        let plain = parse("# Just markdown\n").unwrap();
        assert!(plain.frontmatter.is_empty());
        assert_eq!(plain.body, "# Just markdown\n");
    }

    #[test]
    fn yaml_strings_round_trip() {
        for s in [
            "plain",
            "a: b",
            "#x",
            "- y",
            "quote \" and \\",
            "yes",
            "",
            "multi\nline",
        ] {
            let doc = parse(&format!("---\nv: {}\n---\n", yaml_string(s))).unwrap();
            assert_eq!(doc.frontmatter["v"], Value::String(s.into()), "{s}");
        }
    }
}
