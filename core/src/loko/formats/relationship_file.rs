//! A system's `relationships.toml`, as loko v0.3 writes it: `[[relationships]]` with
//! `id`, `source`, `target`, `label`, `type`, `technology` and `direction`. Reading
//! keeps the whole document, so a rewrite keeps every key it does not change (other
//! top-level keys, unknown fields of an entry, ids as written). An entry without an id
//! is known by the id loko would give it ([`relationship_id`]), and is written back
//! without one.

use sha2::{Digest, Sha256};
use toml::{Table, Value};

/// The array of tables that holds the relationships.
const KEY: &str = "relationships";

/// One `[[relationships]]` entry.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredRelationship {
    /// The id as written, else loko's id of its source, target and label.
    pub id: String,
    /// The source path, as written.
    pub source: String,
    /// The target path, as written.
    pub target: String,
    /// What the relationship does.
    pub label: String,
    /// `type` (`sync` when the entry does not say).
    pub kind: String,
    /// `technology`, when the entry says.
    pub technology: Option<String>,
    /// `direction` (`forward` when the entry does not say).
    pub direction: String,
}

/// A parsed `relationships.toml`.
#[derive(Debug, Clone, Default)]
pub struct RelationshipsDocument {
    /// The whole document, as read.
    table: Table,
    /// Its relationships, in file order (entries that are not tables are skipped).
    pub relationships: Vec<StoredRelationship>,
}

/// loko's relationship id: the first 8 hex digits of sha256 of `source->target:label`.
pub fn relationship_id(source: &str, target: &str, label: &str) -> String {
    let digest = Sha256::digest(format!("{source}->{target}:{label}").as_bytes());
    digest[..4].iter().map(|b| format!("{b:02x}")).collect()
}

/// Parses `text`; the error is the TOML parser's message.
pub fn parse(text: &str) -> Result<RelationshipsDocument, String> {
    let table: Table = text
        .parse()
        .map_err(|e: toml::de::Error| e.message().trim().to_owned())?;
    let relationships = match table.get(KEY) {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_table)
            .map(stored)
            .collect(),
        Some(_) => return Err(format!("`{KEY}` must be an array of tables")),
    };
    Ok(RelationshipsDocument {
        table,
        relationships,
    })
}

fn stored(entry: &Table) -> StoredRelationship {
    let text = |key: &str| entry.get(key).and_then(Value::as_str).map(str::to_owned);
    let (source, target, label) = (
        text("source").unwrap_or_default(),
        text("target").unwrap_or_default(),
        text("label").unwrap_or_default(),
    );
    StoredRelationship {
        id: text("id")
            .filter(|id| !id.is_empty())
            .unwrap_or_else(|| relationship_id(&source, &target, &label)),
        kind: text("type")
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| "sync".to_owned()),
        technology: text("technology").filter(|t| !t.is_empty()),
        direction: text("direction")
            .filter(|d| !d.is_empty())
            .unwrap_or_else(|| "forward".to_owned()),
        source,
        target,
        label,
    }
}

impl RelationshipsDocument {
    /// The relationship with `id`.
    pub fn get(&self, id: &str) -> Option<&StoredRelationship> {
        self.relationships.iter().find(|r| r.id == id)
    }

    /// Appends `new` as loko writes it (`id`, `source`, `target`, `label`, `type`,
    /// `technology` when given, `direction`).
    pub fn push(&mut self, new: StoredRelationship) {
        let mut entry = Table::new();
        entry.insert("id".into(), Value::String(new.id.clone()));
        entry.insert("source".into(), Value::String(new.source.clone()));
        entry.insert("target".into(), Value::String(new.target.clone()));
        entry.insert("label".into(), Value::String(new.label.clone()));
        entry.insert("type".into(), Value::String(new.kind.clone()));
        if let Some(technology) = &new.technology {
            entry.insert("technology".into(), Value::String(technology.clone()));
        }
        entry.insert("direction".into(), Value::String(new.direction.clone()));
        self.entries().push(Value::Table(entry));
        self.relationships.push(new);
    }

    /// Removes the relationship with `id`; the removed one, when there was one.
    pub fn remove(&mut self, id: &str) -> Option<StoredRelationship> {
        let at = self.relationships.iter().position(|r| r.id == id)?;
        let removed = self.relationships.remove(at);
        // The `at`-th table among the entries (entries that are not tables are kept).
        let entries = self.entries();
        let mut tables = 0;
        entries.retain(|v| {
            let keep = !(v.is_table() && tables == at);
            tables += usize::from(v.is_table());
            keep
        });
        Some(removed)
    }

    fn entries(&mut self) -> &mut Vec<Value> {
        let slot = self
            .table
            .entry(KEY)
            .or_insert_with(|| Value::Array(Vec::new()));
        if !slot.is_array() {
            *slot = Value::Array(Vec::new());
        }
        match slot {
            Value::Array(items) => items,
            _ => unreachable!("made an array above"),
        }
    }

    /// The document as TOML.
    pub fn render(&self) -> String {
        toml::to_string(&self.table).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_lokos() {
        // sha256("a/b->a/c:calls") starts with these four bytes.
        let id = relationship_id("a/b", "a/c", "calls");
        assert_eq!(id.len(), 8);
        assert!(id.chars().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(id, relationship_id("a/b", "a/c", "calls"));
        assert_ne!(id, relationship_id("a/b", "a/c", "reads"));
    }

    #[test]
    fn a_rewrite_keeps_unknown_keys_ids_and_entries() {
        let text = "owner = \"team\"\n\n[[relationships]]\nsource = \"s/a\"\ntarget = \"s/b\"\nlabel = \"calls\"\nweight = 3\n\n[[relationships]]\nid = \"custom\"\nsource = \"s/b\"\ntarget = \"s/c\"\nlabel = \"reads\"\ntype = \"async\"\n";
        let mut doc = parse(text).unwrap();
        assert_eq!(doc.relationships.len(), 2);
        let first = &doc.relationships[0];
        assert_eq!(first.id, relationship_id("s/a", "s/b", "calls"));
        assert_eq!(
            (first.kind.as_str(), first.direction.as_str()),
            ("sync", "forward")
        );
        assert_eq!(doc.relationships[1].kind, "async");
        let added = StoredRelationship {
            id: relationship_id("s/c", "s/a", "x"),
            source: "s/c".into(),
            target: "s/a".into(),
            label: "x".into(),
            kind: "event".into(),
            technology: Some("Kafka".into()),
            direction: "bidirectional".into(),
        };
        doc.push(added.clone());
        assert!(doc.remove("custom").is_some());
        assert!(doc.remove("custom").is_none());
        let again = parse(&doc.render()).unwrap();
        assert_eq!(again.relationships.len(), 2);
        assert_eq!(again.relationships[1], added);
        let rendered = doc.render();
        assert!(rendered.contains("owner = \"team\""), "{rendered}");
        assert!(rendered.contains("weight = 3"), "{rendered}");
        assert!(!rendered.contains("custom"), "{rendered}");
        // The id-less entry stays id-less.
        assert_eq!(rendered.matches("id = ").count(), 1, "{rendered}");
    }

    #[test]
    fn broken_files_say_why() {
        assert!(parse("[[relationships]\n").is_err());
        assert!(parse("relationships = 3\n").is_err());
        assert!(parse("").unwrap().relationships.is_empty());
    }
}
