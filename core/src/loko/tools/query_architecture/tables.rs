//! The table layout of a `query_architecture` answer for `format: "toon"`.
//!
//! TOON is compact where data is a uniform table (one header, then a row of cells per
//! item) and costly where it is nested (every key repeated at every level). So the TOON
//! answer lays the nested JSON answer out as tables, losing nothing:
//!
//! - Top-level scalars (`kind`, `system` when it is an id) stay as they are.
//! - A top-level entity object (`system`, `container`) keeps its own fields, minus its
//!   children.
//! - Every list of entities (`systems`, `containers`, `components`, `relationships`) at any
//!   depth becomes one top-level entry named by its key, its rows in document order. Rows
//!   of the top-level entity's own list form a table. Deeper rows are grouped by their
//!   ancestor just below the top-level entity: the entry is an object from that ancestor's
//!   id to a table. A row of a group starts with the ids of its deeper ancestors, one
//!   column each named by that ancestor's level (`container`, `component`).
//! - An entry is there when its level is (an empty list gives an empty table or object).
//! - The tables of an entry share a column per field of any of their rows; a field a row
//!   lacks (an absent optional field) is an empty cell (`""`).
//! - A list of text in a row (`tags`) is one cell, its items joined by [`LIST_SEPARATOR`].
//!   A list that would not split back the same (an item that is empty or holds the
//!   separator) leaves its cell empty and moves to a top-level `lists` object instead:
//!   the row's id path (ancestor ids and its own, joined by `/`) → field → list.
//! - An object in a row (`frontmatter`) moves to a top-level `frontmatter` object, keyed by
//!   the row's id path.
//!
//! docs/loko.md documents the mapping back; the Python TOON test applies it and checks the
//! official decoder's reading equals the JSON answer.

use serde_json::{Map, Value, json};

/// Joins the items of a list of text (`tags`) in one table cell.
pub const LIST_SEPARATOR: &str = ";";

/// `answer` (a JSON `query_architecture` answer) laid out as tables.
pub fn tables(answer: &Value) -> Value {
    let Value::Object(fields) = answer else {
        return answer.clone();
    };
    let mut layout = Layout::default();
    let mut head = Map::new();
    for (key, value) in fields {
        match value {
            Value::Object(entity) => {
                let own = entity
                    .iter()
                    .filter(|(_, v)| !is_entity_list(v))
                    .map(|(k, v)| (k.clone(), v.clone()));
                head.insert(key.clone(), Value::Object(own.collect()));
                layout.children_of(entity, &[]);
            }
            list if is_entity_list(list) => layout.table(key, as_items(list), &[]),
            other => {
                head.insert(key.clone(), other.clone());
            }
        }
    }
    for table in layout.tables {
        head.insert(table.key.clone(), table.into_value());
    }
    for (key, moved) in [("frontmatter", layout.frontmatter), ("lists", layout.lists)] {
        if !moved.is_empty() {
            head.insert(key.to_owned(), Value::Object(moved));
        }
    }
    Value::Object(head)
}

/// The tables being filled, in the order they were first met, and what moved out of rows.
#[derive(Default)]
struct Layout {
    tables: Vec<Table>,
    frontmatter: Map<String, Value>,
    lists: Map<String, Value>,
}

/// An ancestor of a row: its level (`container`) and id.
type Ancestor = (String, String);

impl Layout {
    fn children_of(&mut self, entity: &Map<String, Value>, ancestors: &[Ancestor]) {
        for (key, value) in entity {
            if is_entity_list(value) {
                self.table(key, as_items(value), ancestors);
            }
        }
    }

    fn table(&mut self, key: &str, items: &[Value], ancestors: &[Ancestor]) {
        let level = key.strip_suffix('s').unwrap_or(key).to_owned();
        let group = ancestors.first().map(|(_, id)| id.clone());
        self.entry(key, group.is_some());
        for item in items {
            let Value::Object(fields) = item else {
                continue;
            };
            let mut row: Map<String, Value> = ancestors
                .iter()
                .skip(1)
                .map(|(level, id)| (level.clone(), Value::String(id.clone())))
                .collect();
            let id = fields.get("id").and_then(Value::as_str);
            let path = || {
                let ids = ancestors.iter().map(|(_, id)| id.as_str());
                ids.chain(id).collect::<Vec<_>>().join("/")
            };
            for (name, value) in fields {
                match value {
                    list if is_entity_list(list) => {}
                    Value::Object(_) => {
                        self.frontmatter.insert(path(), value.clone());
                    }
                    Value::Array(list) => {
                        let cell = match joined(list) {
                            Some(text) => text,
                            None => {
                                let moved = self.lists.entry(path()).or_insert_with(|| json!({}));
                                moved[name] = value.clone();
                                String::new()
                            }
                        };
                        row.insert(name.clone(), Value::String(cell));
                    }
                    cell => {
                        row.insert(name.clone(), cell.clone());
                    }
                }
            }
            self.entry(key, group.is_some())
                .rows
                .push((group.clone().unwrap_or_default(), row));
            if let Some(id) = id {
                let mut below = ancestors.to_vec();
                below.push((level.clone(), id.to_owned()));
                self.children_of(fields, &below);
            }
        }
    }

    fn entry(&mut self, key: &str, grouped: bool) -> &mut Table {
        let at = match self.tables.iter().position(|t| t.key == key) {
            Some(at) => at,
            None => {
                self.tables.push(Table {
                    key: key.to_owned(),
                    grouped,
                    rows: Vec::new(),
                });
                self.tables.len() - 1
            }
        };
        &mut self.tables[at]
    }
}

/// One top-level entry: a table, or tables grouped by an ancestor's id.
struct Table {
    key: String,
    grouped: bool,
    /// Each row with its group (the ancestor's id; empty when not grouped).
    rows: Vec<(String, Map<String, Value>)>,
}

impl Table {
    fn into_value(self) -> Value {
        let (groups, rows): (Vec<String>, Vec<_>) = self.rows.into_iter().unzip();
        let rows = uniform(rows);
        if !self.grouped {
            return Value::Array(rows);
        }
        let mut grouped = Map::new();
        for (group, row) in groups.into_iter().zip(rows) {
            let table = grouped.entry(group).or_insert_with(|| json!([]));
            if let Value::Array(table) = table {
                table.push(row);
            }
        }
        Value::Object(grouped)
    }
}

/// The items of `list` joined by [`LIST_SEPARATOR`], when splitting gives them back.
fn joined(list: &[Value]) -> Option<String> {
    let items: Option<Vec<&str>> = list
        .iter()
        .map(|v| {
            v.as_str()
                .filter(|s| !s.is_empty() && !s.contains(LIST_SEPARATOR))
        })
        .collect();
    items
        .filter(|items| !items.is_empty())
        .map(|items| items.join(LIST_SEPARATOR))
}

/// Whether `value` is a list of entities (objects), which becomes a table. An empty list
/// counts: it becomes an empty table, so "none" stays visible.
fn is_entity_list(value: &Value) -> bool {
    matches!(value, Value::Array(items) if items.iter().all(Value::is_object))
}

fn as_items(value: &Value) -> &[Value] {
    value.as_array().map(Vec::as_slice).unwrap_or_default()
}

/// `rows` with the same columns each, in one order: every column of any row, placed
/// after the column it follows in the first row that has it; a missing cell is `""`.
fn uniform(rows: Vec<Map<String, Value>>) -> Vec<Value> {
    let mut columns: Vec<String> = Vec::new();
    for row in &rows {
        let mut after = None;
        for key in row.keys() {
            match columns.iter().position(|c| c == key) {
                Some(at) => after = Some(at),
                None => {
                    let at = after.map_or(0, |a| a + 1);
                    columns.insert(at, key.clone());
                    after = Some(at);
                }
            }
        }
    }
    rows.into_iter()
        .map(|mut row| {
            let cells = columns.iter().map(|c| {
                let cell = row
                    .remove(c)
                    .unwrap_or_else(|| Value::String(String::new()));
                (c.clone(), cell)
            });
            Value::Object(cells.collect())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_lists_become_tables_grouped_by_the_ancestor_below_the_top() {
        let answer = json!({
            "kind": "full",
            "system": {"id": "shop", "name": "Shop", "tags": ["a", "b"], "containers": [
                {"id": "api", "name": "API", "technology": "Rust", "components": [
                    {"id": "orders", "name": "Orders", "tags": ["x", "y"],
                     "frontmatter": {"owner": "team"},
                     "relationships": [{"target": "shop/db/store", "description": "", "resolved": true}]},
                ]},
                {"id": "web", "name": "Web", "components": []},
            ]},
        });
        assert_eq!(
            tables(&answer),
            json!({
                "kind": "full",
                "system": {"id": "shop", "name": "Shop", "tags": ["a", "b"]},
                "containers": [
                    {"id": "api", "name": "API", "technology": "Rust"},
                    {"id": "web", "name": "Web", "technology": ""},
                ],
                "components": {"api": [{"id": "orders", "name": "Orders", "tags": "x;y"}]},
                "relationships": {"api": [{"component": "orders", "target": "shop/db/store",
                                           "description": "", "resolved": true}]},
                "frontmatter": {"api/orders": {"owner": "team"}},
            })
        );
    }

    #[test]
    fn a_top_level_list_of_entities_is_a_table_and_scalars_stay() {
        let answer = json!({"kind": "structure", "systems": [
            {"id": "a", "name": "A", "description": "d", "containers": [{"id": "c", "name": "C"}]},
            {"id": "b", "name": "B", "containers": []},
        ]});
        assert_eq!(
            tables(&answer),
            json!({
                "kind": "structure",
                "systems": [{"id": "a", "name": "A", "description": "d"},
                            {"id": "b", "name": "B", "description": ""}],
                "containers": {"a": [{"id": "c", "name": "C"}]},
            })
        );
    }

    #[test]
    fn a_list_that_would_not_split_back_moves_out_whole() {
        let answer = json!({"kind": "full", "container": {"id": "api", "components": [
            {"id": "a", "tags": ["x;y", "z"]},
            {"id": "b", "tags": ["", "z"]},
            {"id": "c", "tags": ["z"]},
        ]}});
        let laid_out = tables(&answer);
        assert_eq!(
            laid_out["components"],
            json!([{"id": "a", "tags": ""}, {"id": "b", "tags": ""}, {"id": "c", "tags": "z"}])
        );
        assert_eq!(
            laid_out["lists"],
            json!({"a": {"tags": ["x;y", "z"]}, "b": {"tags": ["", "z"]}})
        );
    }

    #[test]
    fn a_summary_keeps_its_lists_of_ids() {
        let answer = json!({"kind": "summary", "systems": 1, "system_names": ["a"]});
        assert_eq!(tables(&answer), answer);
    }
}
