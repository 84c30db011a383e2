//! The loko fuzz targets' bodies (see `crate::fuzzing`): a project tree from the fuzzer's
//! bytes read by the loader and the tools, D2 arrows and the relationship section, markdown
//! to HTML, and the round trips of what loko writes (frontmatter edits, the
//! relationships file).
#![allow(
    clippy::disallowed_methods,
    reason = "fuzz bodies run on the fuzzer's thread, outside any server's async path"
)]

use std::path::{Component, Path, PathBuf};

use arbitrary::Unstructured;
use serde_json::{Value, json};

use super::formats::{frontmatter_edit, markdown};
use super::project::relationships;
use crate::fuzzing::harness::{check_answer, scratch, within_budget};
use crate::fuzzing::upstream::toolpack;
use crate::loko::formats::diagram_section::with_section;
use crate::loko::formats::relationship_file::{self, StoredRelationship, relationship_id};
use crate::loko::project::fence::ProjectRoot;
use crate::loko::project::model::Project;
use crate::loko::tools::build_docs::markdown_html as render_markdown;

/// Most entries a project tree has, and most bytes a file of it holds.
const MAX_ENTRIES: usize = 64;
const MAX_FILE: usize = 64 * 1024;

/// A project tree written from `data` and read: by the loader and the graph directly, then
/// by `query_architecture` (full detail) and `validate` (no `d2`), whose answers must be in
/// contract shape. `data` is records split by NUL: `path` SOH `content`; a path starting
/// with `@` is a symbolic link to `content`. The tree is always written at the same place,
/// so the tools' remembered project sees each input as a change to the last.
pub fn project(data: &[u8]) {
    let dir = scratch().join("tree");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the tree's directory");
    for record in data.split(|&b| b == 0).take(MAX_ENTRIES) {
        let (path, content) = match record.iter().position(|&b| b == 1) {
            Some(at) => (&record[..at], &record[at + 1..]),
            None => (record, &[][..]),
        };
        let path = String::from_utf8_lossy(path);
        let (link, path) = match path.strip_prefix('@') {
            Some(rest) => (true, rest.to_owned()),
            None => (false, path.into_owned()),
        };
        let Some(relative) = inside(&path) else {
            continue;
        };
        let target = dir.join(&relative);
        if let Some(parent) = target.parent()
            && std::fs::create_dir_all(parent).is_err()
        {
            continue;
        }
        let content = &content[..content.len().min(MAX_FILE)];
        let _ = if link {
            std::os::unix::fs::symlink(String::from_utf8_lossy(content).as_ref(), &target)
        } else if path.ends_with('/') {
            std::fs::create_dir_all(&target)
        } else {
            std::fs::write(&target, content)
        };
    }
    if let Ok(root) = ProjectRoot::open(toolpack().config(), dir.to_str())
        && let Ok(project) = Project::load(root)
    {
        let _ = relationships::collect(&project);
    }
    let project_path = dir.to_string_lossy();
    for (tool, arguments) in [
        (
            "query_architecture",
            json!({"project_path": project_path, "detail": "full"}),
        ),
        (
            "validate",
            json!({"project_path": project_path, "strict": true}),
        ),
    ] {
        let answer = within_budget(tool, toolpack().call_json(tool, arguments.clone()))
            .expect("a catalog tool");
        check_answer(tool, &arguments, &answer);
    }
}

/// `path` as a relative path of at most 6 plain components, or `None`.
fn inside(path: &str) -> Option<PathBuf> {
    let relative: PathBuf = Path::new(path)
        .components()
        .filter_map(|c| match c {
            Component::Normal(part) if part.len() <= 40 => Some(part.to_owned()),
            _ => None,
        })
        .take(6)
        .collect();
    (relative.components().count() > 0).then_some(relative)
}

/// D2 arrows of any text, and the relationship section written over it: rewriting the
/// section of a rewritten file changes nothing, and the lines above it stay.
pub fn d2_arrows(data: &[u8]) {
    let source = String::from_utf8_lossy(data);
    let _ = relationships::d2_arrows(&source);
    let stored = StoredRelationship {
        id: relationship_id("a", "b", "calls"),
        source: "shop/api".into(),
        target: "shop/db".into(),
        label: "calls".into(),
        kind: "async".into(),
        technology: None,
        direction: "forward".into(),
    };
    let once = with_section(Some(&source), [&stored]);
    let twice = with_section(Some(&once), [&stored]);
    assert_eq!(
        once, twice,
        "rewriting the relationship section changed the file"
    );
    let arrows = relationships::d2_arrows(&once);
    assert!(
        arrows
            .iter()
            .any(|(from, to, _)| from.contains("api") && to.contains("db")),
        "the written edge is not read back: {arrows:?}\n{once}"
    );
}

/// Markdown to the site's HTML: raw HTML in the source is shown as text, never run.
pub fn markdown_html(data: &[u8]) {
    let source = String::from_utf8_lossy(data);
    let html = render_markdown(&source, "Title").to_ascii_lowercase();
    for tag in ["<script", "<iframe", "<object", "<embed", "<style"] {
        assert!(!html.contains(tag), "{tag} in the HTML of {source:?}");
    }
}

/// Frontmatter edits of any markdown text: what `set` writes reads back with each changed
/// key's value, and the body unchanged.
pub fn frontmatter_round_trip(data: &[u8]) {
    let mut input = Unstructured::new(data);
    let Ok(text) = input.arbitrary::<String>() else {
        return;
    };
    let mut changes: Vec<(String, Value)> = Vec::new();
    for _ in 0..input.int_in_range(1..=3).unwrap_or(1) {
        let key = match input.int_in_range(0..=4).unwrap_or(0) {
            0 => "description".to_owned(),
            1 => "technology".to_owned(),
            2 => "tags".to_owned(),
            3 => "name".to_owned(),
            _ => input.arbitrary::<String>().unwrap_or_default(),
        };
        let value = match input.int_in_range(0..=3).unwrap_or(0) {
            0 => json!(input.arbitrary::<String>().unwrap_or_default()),
            1 => json!(input.arbitrary::<Vec<String>>().unwrap_or_default()),
            2 => json!(input.arbitrary::<i32>().unwrap_or_default()),
            _ => json!(input.arbitrary::<bool>().unwrap_or_default()),
        };
        changes.push((key, value));
    }
    let borrowed: Vec<(&str, Value)> = changes
        .iter()
        .map(|(k, v)| (k.as_str(), v.clone()))
        .collect();
    let Ok(written) = frontmatter_edit::set(&text, &borrowed) else {
        return;
    };
    let before = markdown::parse(&text).expect("set accepted it, so it parses");
    let after = markdown::parse(&written)
        .unwrap_or_else(|e| panic!("what set wrote does not read back ({e}): {written:?}"));
    assert_eq!(
        after.body.trim_start_matches('\n'),
        before.body.trim_start_matches('\n'),
        "the body changed"
    );
    let mut last = std::collections::HashMap::new();
    for (key, value) in &changes {
        last.insert(key.as_str(), value);
    }
    for (key, value) in last {
        let read = after.frontmatter.get(key);
        let expected = match value {
            Value::Number(n) => Some(json!(n.to_string())),
            Value::Bool(b) => Some(json!(b.to_string())),
            other => Some(other.clone()),
        };
        assert!(
            read == expected.as_ref() || read == Some(value),
            "{key}: wrote {value}, read {read:?}\n{written}"
        );
    }
}

/// A relationships file, changed and written: it reads back with the same relationships.
pub fn relationships_round_trip(data: &[u8]) {
    let mut input = Unstructured::new(data);
    let Ok(text) = input.arbitrary::<String>() else {
        return;
    };
    let Ok(mut document) = relationship_file::parse(&text) else {
        return;
    };
    if input.arbitrary::<bool>().unwrap_or(false)
        && let Some(first) = document.relationships.first().map(|r| r.id.clone())
    {
        document.remove(&first);
    }
    if input.arbitrary::<bool>().unwrap_or(false) {
        let mut field = || input.arbitrary::<String>().unwrap_or_default();
        let (source, target, label) = (field(), field(), field());
        let technology = Some(field()).filter(|t| !t.is_empty());
        document.push(StoredRelationship {
            id: relationship_id(&source, &target, &label),
            source,
            target,
            label,
            kind: "sync".into(),
            technology,
            direction: "forward".into(),
        });
    }
    let written = document.render();
    let again = relationship_file::parse(&written)
        .unwrap_or_else(|e| panic!("what was written does not read back ({e}):\n{written}"));
    assert_eq!(
        again.relationships, document.relationships,
        "written:\n{written}"
    );
}
