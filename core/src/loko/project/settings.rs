//! `loko.toml`, read with a real TOML parser: every section of the format, both
//! spellings of the keys real projects use, defaults for what is missing, unknown keys
//! tolerated. A missing file means every default, named after the directory.

use toml::{Table, Value};

use crate::loko::response::{Failure, LokoErrorCode};

/// The settings of one project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectSettings {
    /// `[project] name` (default: the directory name).
    pub name: String,
    /// `[project] description`.
    pub description: String,
    /// `[project] version`.
    pub version: String,
    /// `[project] created_at` (or `created`), as written.
    pub created_at: Option<String>,
    /// `[project] template`, when a project was created from one.
    pub template: Option<String>,
    /// `[paths] source` / `source_dir` (default `./src`).
    pub source: String,
    /// `[paths] output` / `output_dir` (default `./dist`).
    pub output: String,
    /// `[d2] theme` (default `neutral-default`).
    pub d2_theme: String,
    /// `[d2] layout` (default `elk`).
    pub d2_layout: String,
    /// `[d2] cache` (default `true`).
    pub d2_cache: bool,
    /// `[outputs] html` / `[output] html_enabled` (default `true`).
    pub html: bool,
    /// `[outputs] markdown` (default `false`).
    pub markdown: bool,
    /// `[outputs] pdf` (default `false`).
    pub pdf: bool,
    /// `[build] max_workers` (default 4).
    pub max_workers: u32,
    /// Whether a `loko.toml` was found.
    pub found: bool,
}

/// The file name of the project settings.
pub const SETTINGS_FILE: &str = "loko.toml";

impl ProjectSettings {
    /// Every default, for a project in a directory called `dir_name`.
    pub fn defaults(dir_name: &str) -> Self {
        Self {
            name: dir_name.to_owned(),
            description: String::new(),
            version: String::new(),
            created_at: None,
            template: None,
            source: "./src".to_owned(),
            output: "./dist".to_owned(),
            d2_theme: "neutral-default".to_owned(),
            d2_layout: "elk".to_owned(),
            d2_cache: true,
            html: true,
            markdown: false,
            pdf: false,
            max_workers: 4,
            found: false,
        }
    }

    /// Parses the text of a `loko.toml`; a syntax error is `INVALID_SYNTAX` with the
    /// parser's line and column.
    pub fn parse(text: &str, dir_name: &str) -> Result<Self, Failure> {
        let table: Table = text.parse().map_err(|e: toml::de::Error| {
            Failure::new(LokoErrorCode::InvalidSyntax, "Invalid loko.toml")
                .details(e.to_string().trim().to_owned())
        })?;
        let mut s = Self::defaults(dir_name);
        s.found = true;
        let section = |name: &str| table.get(name).and_then(Value::as_table);
        let text_of = |sec: Option<&Table>, keys: &[&str]| -> Option<String> {
            keys.iter()
                .find_map(|k| sec?.get(*k)?.as_str().map(str::to_owned))
        };
        let flag_of = |sec: Option<&Table>, keys: &[&str]| -> Option<bool> {
            keys.iter().find_map(|k| sec?.get(*k)?.as_bool())
        };
        let project = section("project");
        if let Some(name) = text_of(project, &["name"]).filter(|n| !n.trim().is_empty()) {
            s.name = name;
        }
        s.description = text_of(project, &["description"]).unwrap_or_default();
        s.version = text_of(project, &["version"]).unwrap_or_default();
        s.template = text_of(project, &["template"]);
        s.created_at = ["created_at", "created"]
            .iter()
            .find_map(|k| project?.get(*k))
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned));
        let paths = section("paths");
        s.source = text_of(paths, &["source", "source_dir"]).unwrap_or(s.source);
        s.output = text_of(paths, &["output", "output_dir"]).unwrap_or(s.output);
        let d2 = section("d2");
        s.d2_theme = text_of(d2, &["theme"]).unwrap_or(s.d2_theme);
        s.d2_layout = text_of(d2, &["layout"]).unwrap_or(s.d2_layout);
        s.d2_cache = flag_of(d2, &["cache"]).unwrap_or(s.d2_cache);
        let outputs = section("outputs");
        let output = section("output");
        let enabled = |key: &str, default: bool| {
            flag_of(outputs, &[key])
                .or_else(|| {
                    outputs
                        .and_then(|o| o.get(key))
                        .and_then(Value::as_table)
                        .and_then(|t| t.get("enabled"))
                        .and_then(Value::as_bool)
                })
                .or_else(|| flag_of(output, &[&format!("{key}_enabled"), key]))
                .unwrap_or(default)
        };
        s.html = enabled("html", s.html);
        s.markdown = enabled("markdown", s.markdown);
        s.pdf = enabled("pdf", s.pdf);
        if let Some(workers) = section("build")
            .and_then(|b| b.get("max_workers"))
            .and_then(Value::as_integer)
        {
            s.max_workers = workers.clamp(1, 64) as u32;
        }
        Ok(s)
    }

    /// The `--theme` id of the configured theme (an unknown name or a number is used
    /// as given when it is numeric, else 0).
    pub fn theme_id(&self) -> u32 {
        theme_id(&self.d2_theme)
    }

    /// The layout engine: `elk` or `dagre` (anything else falls back to `elk`).
    pub fn layout(&self) -> &str {
        match self.d2_layout.trim() {
            "dagre" => "dagre",
            _ => "elk",
        }
    }
}

/// The d2 theme names and their `--theme` ids.
pub const THEMES: [(&str, u32); 20] = [
    ("neutral-default", 0),
    ("neutral-grey", 1),
    ("flagship-terrastruct", 3),
    ("cool-classics", 4),
    ("mixed-berry-blue", 5),
    ("grape-soda", 6),
    ("aubergine", 7),
    ("colorblind-clear", 8),
    ("vanilla-nitro-cola", 100),
    ("orange-creamsicle", 101),
    ("shirley-temple", 102),
    ("earth-tones", 103),
    ("everglade-green", 104),
    ("buttered-toast", 105),
    ("dark-mauve", 200),
    ("dark-flagship-terrastruct", 201),
    ("terminal", 300),
    ("terminal-grayscale", 301),
    ("origami", 302),
    ("c4", 303),
];

fn theme_id(name: &str) -> u32 {
    let name = name.trim().to_ascii_lowercase();
    THEMES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, id)| *id)
        .or_else(|| name.parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_section_and_key_variant_is_read() {
        let s = ProjectSettings::parse(
            r#"
[project]
name = "shop"
description = "A shop"
version = "1.2.0"
template = "serverless"
unknown = 1

[paths]
source_dir = "./source"
output_dir = "./site"

[d2]
theme = "c4"
layout = "dagre"
cache = false

[output]
html_enabled = false

[outputs.markdown]
enabled = true

[build]
max_workers = 2
"#,
            "dir",
        )
        .unwrap();
        assert_eq!(s.name, "shop");
        assert_eq!(s.template.as_deref(), Some("serverless"));
        assert_eq!(
            (s.source.as_str(), s.output.as_str()),
            ("./source", "./site")
        );
        assert_eq!(
            (s.theme_id(), s.layout(), s.d2_cache),
            (303, "dagre", false)
        );
        assert_eq!((s.html, s.markdown, s.pdf), (false, true, false));
        assert_eq!(s.max_workers, 2);
    }

    #[test]
    fn sections_matter_and_defaults_fill_the_rest() {
        // A line-based parser would take the last `name =` as the project name.
        let s = ProjectSettings::parse("[project]\nname = \"a\"\n[server]\nname = \"b\"\n", "d")
            .unwrap();
        assert_eq!(s.name, "a");
        assert_eq!(s.source, "./src");
        assert_eq!((s.theme_id(), s.layout()), (0, "elk"));
        let d = ProjectSettings::defaults("dir");
        assert_eq!(d.name, "dir");
        assert!(!d.found);
    }

    #[test]
    fn a_syntax_error_names_its_line() {
        let err = ProjectSettings::parse("[project\nname = 1", "d").unwrap_err();
        assert_eq!(err.code, LokoErrorCode::InvalidSyntax);
        assert!(err.details.unwrap().contains("line 1"));
    }
}
