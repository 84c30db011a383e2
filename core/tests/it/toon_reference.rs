//! `query_architecture` with `format: toon` is real TOON laid out as tables: the official
//! Rust implementation (crate `toon-format`) decodes it, [`nest`] (the mapping back that
//! docs/loko.md documents) turns that reading into exactly the JSON answer, and the
//! official encoder writes the reading byte for byte as the same text. Checked on the
//! example project, the hand-written variants, and a project made through the tools with
//! names that need quoting; a changed text is caught; TOON is smaller than compact JSON.
#![allow(
    clippy::disallowed_methods,
    reason = "a test, not a server's async path"
)]

use serde_json::{Map, Value, json};
use toolpack::{Config, Toolpack};
use toolpack_testkit::tests_dir;
use toon_format::{DecodeOptions, Delimiter, EncodeOptions};

const LEVELS: [&str; 3] = ["system", "container", "component"];
const ENTITY_TABLES: [&str; 3] = ["systems", "containers", "components"];
const TRICKY: [&str; 8] = [
    "Auth, SSO: v2",
    "-leading dash",
    "# hash",
    "true",
    "42",
    "Quote \"q\" \\ back",
    "Ünïcödé ✓",
    "tab\there",
];

/// The table an entity's children are laid out in.
fn child_table(level: &str) -> Option<&'static str> {
    match level {
        "system" => Some("containers"),
        "container" => Some("components"),
        "component" => Some("relationships"),
        _ => None,
    }
}

/// The JSON answer from the TOON answer's tables (docs/loko.md, "TOON layout").
fn nest(laid_out: &Map<String, Value>) -> Map<String, Value> {
    if laid_out["type"] == "summary" {
        return laid_out.clone();
    }
    let tables = Tables {
        laid_out,
        optional: if laid_out["type"] == "structure" {
            &["description"]
        } else {
            &["technology", "diagram", "tags"]
        },
    };
    let mut answer: Map<String, Value> = laid_out
        .iter()
        .filter(|(k, _)| {
            ![
                "containers",
                "components",
                "relationships",
                "systems",
                "frontmatter",
                "lists",
            ]
            .contains(&k.as_str())
        })
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if let Some(systems) = laid_out.get("systems").and_then(Value::as_array) {
        let nested = systems
            .iter()
            .map(|row| {
                let path = vec![text(&row["id"])];
                let restored = tables.restore("systems", row, &path);
                Value::Object(tables.attach(restored, "system", &path))
            })
            .collect();
        answer.insert("systems".into(), Value::Array(nested));
    }
    for level in ["system", "container"] {
        if let Some(Value::Object(entity)) = laid_out.get(level) {
            let attached = tables.attach(entity.clone(), level, &[]);
            answer.insert(level.into(), Value::Object(attached));
        }
    }
    answer
}

/// The tables of one TOON answer, and the columns an empty cell means "absent" in.
struct Tables<'a> {
    laid_out: &'a Map<String, Value>,
    optional: &'static [&'static str],
}

impl Tables<'_> {
    fn side_table(&self, name: &str, path: &[String]) -> Option<&Value> {
        self.laid_out.get(name)?.get(path.join("/"))
    }

    fn restore(&self, table: &str, row: &Value, path: &[String]) -> Map<String, Value> {
        let mut item: Map<String, Value> = row
            .as_object()
            .unwrap()
            .iter()
            .filter(|(k, _)| !LEVELS.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if !ENTITY_TABLES.contains(&table) {
            return item;
        }
        item.retain(|k, v| !(self.optional.contains(&k.as_str()) && v == ""));
        if let Some(Value::String(tags)) = item.get("tags") {
            let split = tags.split(';').map(|t| json!(t)).collect();
            item.insert("tags".into(), Value::Array(split));
        }
        if let Some(Value::Object(lists)) = self.side_table("lists", path) {
            item.extend(lists.clone());
        }
        if let Some(frontmatter) = self.side_table("frontmatter", path) {
            item.insert("frontmatter".into(), frontmatter.clone());
        }
        item
    }

    fn attach(
        &self,
        mut item: Map<String, Value>,
        level: &str,
        path: &[String],
    ) -> Map<String, Value> {
        let Some(table) = child_table(level) else {
            return item;
        };
        let Some(entry) = self.laid_out.get(table) else {
            return item;
        };
        // A table of the top-level entity's list, or tables grouped by the id of the
        // ancestor just below it; deeper ancestors are columns.
        let grouped: Vec<(Option<&str>, &Vec<Value>)> = match entry {
            Value::Object(groups) => groups
                .iter()
                .map(|(g, rows)| (Some(g.as_str()), rows.as_array().unwrap()))
                .collect(),
            rows => vec![(None, rows.as_array().unwrap())],
        };
        let below = table.trim_end_matches('s');
        let mut children = Vec::new();
        for (group, rows) in grouped {
            for row in rows {
                let mut at: Vec<String> = group.map(str::to_owned).into_iter().collect();
                at.extend(LEVELS.iter().filter_map(|c| row.get(*c)).map(text));
                if at != path {
                    continue;
                }
                let child = match row.get("id") {
                    Some(id) => {
                        let mut own = path.to_vec();
                        own.push(text(id));
                        let restored = self.restore(table, row, &own);
                        self.attach(restored, below, &own)
                    }
                    None => self.restore(table, row, path),
                };
                children.push(Value::Object(child));
            }
        }
        item.insert(table.into(), Value::Array(children));
        item
    }
}

fn text(value: &Value) -> String {
    value
        .as_str()
        .map_or_else(|| value.to_string(), str::to_owned)
}

async fn call(toolpack: &Toolpack, tool: &str, arguments: Value) -> Value {
    let result = toolpack.call_json(tool, arguments.clone()).await.unwrap();
    assert!(!result.is_error(), "{tool} {arguments}: {}", result.body);
    result.body
}

/// Every scope and detail, for every system and container of `project`.
async fn queries(toolpack: &Toolpack, project: &str) -> Vec<Value> {
    let mut found = vec![
        json!({"project_path": project}),
        json!({"project_path": project, "detail": "structure"}),
    ];
    let structure = call(
        toolpack,
        "query_architecture",
        json!({"project_path": project, "detail": "structure"}),
    )
    .await;
    for system in structure["systems"].as_array().unwrap() {
        let system_id = text(&system["id"]);
        for detail in ["summary", "structure", "full"] {
            found.push(json!({"project_path": project, "scope": "system", "target": system_id, "detail": detail}));
            for container in system["containers"].as_array().unwrap() {
                let target = format!("{system_id}/{}", text(&container["id"]));
                found.push(json!({"project_path": project, "scope": "container", "target": target, "detail": detail}));
            }
        }
    }
    found
}

/// A project whose names need quoting in TOON. The name with a tab is refused (a control
/// character), and its description still lands on another container.
async fn tricky_project(toolpack: &Toolpack, root: &str) {
    let made = async |tool: &str, arguments: Value| {
        let result = toolpack.call_json(tool, arguments).await.unwrap();
        !result.is_error()
    };
    let system = json!({"project_path": root, "system_name": "Shop", "description": TRICKY[0]});
    assert!(made("create_system", system).await);
    let mut containers = 0;
    for (i, name) in TRICKY.iter().enumerate() {
        let container = format!("{name} {i}");
        let arguments = json!({"project_path": root, "system_name": "shop",
            "container_name": container, "description": TRICKY[TRICKY.len() - 1 - i], "technology": name});
        if made("create_container", arguments).await {
            containers += 1;
            let arguments = json!({"project_path": root, "system_name": "shop",
                "container_name": container, "component_name": name, "description": ""});
            assert!(made("create_component", arguments).await, "{name}");
        }
    }
    assert_eq!(containers, TRICKY.len() - 1);
}

/// The three projects: the example, the variants and a tricky one made in `temp`.
async fn projects(toolpack: &Toolpack, temp: &std::path::Path) -> Vec<String> {
    let tricky = temp.to_string_lossy().into_owned();
    tricky_project(toolpack, &tricky).await;
    vec![
        tests_dir()
            .join("../examples/loko/shop")
            .to_string_lossy()
            .into_owned(),
        tests_dir()
            .join("data/loko/variants")
            .to_string_lossy()
            .into_owned(),
        tricky,
    ]
}

#[tokio::test]
async fn toon_decodes_to_the_json_answer_and_matches_the_reference_encoder() {
    let toolpack = Toolpack::new(Config::builder().build()).unwrap();
    let temp = tempfile::tempdir().unwrap();
    for project in projects(&toolpack, temp.path()).await {
        let mut checked = 0;
        for arguments in queries(&toolpack, &project).await {
            let body = call(&toolpack, "query_architecture", arguments.clone()).await;
            let mut as_toon = arguments.clone();
            as_toon["format"] = json!("toon");
            let toon = call(&toolpack, "query_architecture", as_toon).await;
            let text = toon["toon"].as_str().unwrap();
            let decoded: Value = toon_format::decode(text, &DecodeOptions::new())
                .unwrap_or_else(|e| panic!("{arguments}: {e}\n{text}"));
            let decoded = decoded.as_object().unwrap();
            assert_eq!(Value::Object(nest(decoded)), body, "{arguments}");
            let delimiter = if decoded["type"] == "summary" {
                Delimiter::Comma
            } else {
                Delimiter::Tab
            };
            let again =
                toon_format::encode(decoded, &EncodeOptions::new().with_delimiter(delimiter))
                    .unwrap();
            assert_eq!(again, text, "{arguments}");
            checked += 1;
        }
        assert!(checked >= 3, "{project}: {checked} queries");
    }
}

#[tokio::test]
async fn a_changed_toon_text_is_caught() {
    let toolpack = Toolpack::new(Config::builder().build()).unwrap();
    let example = tests_dir().join("../examples/loko/shop");
    let answer = call(
        &toolpack,
        "query_architecture",
        json!({"project_path": example, "detail": "structure", "format": "toon"}),
    )
    .await;
    let text = answer["toon"].as_str().unwrap();
    let changed = text.replace("systems[2\t]", "systems[1\t]");
    assert_ne!(changed, text);
    let decoded: Result<Value, _> = toon_format::decode(&changed, &DecodeOptions::new());
    assert!(decoded.is_err(), "{changed}");
}

#[tokio::test]
async fn toon_is_smaller_than_compact_json() {
    let toolpack = Toolpack::new(Config::builder().build()).unwrap();
    let temp = tempfile::tempdir().unwrap();
    let sizes = async |arguments: Value| {
        let body = call(&toolpack, "query_architecture", arguments.clone()).await;
        let mut as_toon = arguments;
        as_toon["format"] = json!("toon");
        let toon = call(&toolpack, "query_architecture", as_toon).await;
        let compact = serde_json::to_string(&body).unwrap().chars().count();
        (compact, toon["toon"].as_str().unwrap().chars().count())
    };
    let all = projects(&toolpack, temp.path()).await;
    for project in &all {
        for arguments in queries(&toolpack, project).await {
            let (compact, toon) = sizes(arguments.clone()).await;
            assert!(toon < compact, "{arguments}: {toon} >= {compact}");
        }
    }
    let (compact, toon) = sizes(json!({"project_path": all[2], "detail": "structure"})).await;
    assert!((toon as f64) < compact as f64 * 0.9, "{toon} vs {compact}");
}
