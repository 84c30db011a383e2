//! The relationship section of a D2 diagram, kept in step with `relationships.toml` as
//! loko v0.3 keeps it: everything from a `# relationships` line to the end of the file
//! is the section, rewritten whole; the lines above it are never touched. Edges are
//! drawn between the last segments of their paths, in loko's forms: `a -> b: "label"`,
//! `{ label; style.animated: true }` for async, `{ label; style.stroke-dash: 5 }` for
//! events, and `<->` for bidirectional.

use crate::loko::formats::d2::quote;
use crate::loko::formats::relationship_file::StoredRelationship;

/// The line that starts the section.
pub const SECTION: &str = "# relationships";

/// The D2 line that draws `relationship`.
pub fn edge_line(relationship: &StoredRelationship) -> String {
    let arrow = if relationship.direction == "bidirectional" {
        "<->"
    } else {
        "->"
    };
    let (source, target) = (node(&relationship.source), node(&relationship.target));
    let label = quote(&relationship.label);
    match relationship.kind.as_str() {
        "async" => format!("{source} {arrow} {target}: {{ label: {label}; style.animated: true }}"),
        "event" => format!("{source} {arrow} {target}: {{ label: {label}; style.stroke-dash: 5 }}"),
        _ => format!("{source} {arrow} {target}: {label}"),
    }
}

/// A path's last segment as a D2 key (quoted unless it is a plain id).
fn node(path: &str) -> String {
    let last = path.rsplit('/').next().unwrap_or(path);
    if !last.is_empty()
        && last
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        last.to_owned()
    } else {
        quote(last)
    }
}

/// `existing` (a missing file is empty) with its section replaced by `relationships`.
pub fn with_section<'a>(
    existing: Option<&str>,
    relationships: impl IntoIterator<Item = &'a StoredRelationship>,
) -> String {
    let existing = existing.unwrap_or_default();
    let mut above = String::new();
    for line in existing.split_inclusive('\n') {
        if line.trim_end() == SECTION {
            break;
        }
        above.push_str(line);
    }
    let mut text = above.trim_end_matches('\n').to_owned();
    if !text.is_empty() {
        text.push_str("\n\n");
    }
    text.push_str(SECTION);
    text.push('\n');
    for relationship in relationships {
        text.push_str(&edge_line(relationship));
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(kind: &str, direction: &str) -> StoredRelationship {
        StoredRelationship {
            id: "x".into(),
            source: "shop/api".into(),
            target: "shop/api/order handler".into(),
            label: "sends \"orders\"".into(),
            kind: kind.into(),
            technology: None,
            direction: direction.into(),
        }
    }

    #[test]
    fn edges_take_lokos_forms() {
        assert_eq!(
            edge_line(&rel("sync", "forward")),
            r#"api -> "order handler": "sends \"orders\"""#
        );
        assert_eq!(
            edge_line(&rel("async", "bidirectional")),
            r#"api <-> "order handler": { label: "sends \"orders\""; style.animated: true }"#
        );
        assert_eq!(
            edge_line(&rel("event", "forward")),
            r#"api -> "order handler": { label: "sends \"orders\""; style.stroke-dash: 5 }"#
        );
    }

    #[test]
    fn the_section_is_replaced_and_hand_written_lines_stay() {
        let first = with_section(
            Some("a: A\nb: B\na -> b: hand\n"),
            [&rel("sync", "forward")],
        );
        assert!(first.starts_with("a: A\nb: B\na -> b: hand\n\n# relationships\napi -> "));
        let second = with_section(Some(&first), []);
        assert_eq!(second, "a: A\nb: B\na -> b: hand\n\n# relationships\n");
        assert_eq!(with_section(None, []), "# relationships\n");
        // A heading that only starts like the section is not it.
        let kept = with_section(Some("## relationships of old\nx\n"), []);
        assert!(kept.starts_with("## relationships of old\nx\n\n# relationships\n"));
    }
}
