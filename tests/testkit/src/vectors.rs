//! Shared test vectors (`tests/vectors/**/*.json`): loading, placeholder
//! substitution and checking a result against a case's expectations.
//! The file format is described in `tests/vectors/README.md`.

use std::collections::BTreeMap;
use std::path::Path;

use std::future::Future;

use serde::Deserialize;
use serde_json::Value;

use crate::fake_upstream::{FakeUpstream, Scenario};

/// One file: the cases of one tool.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VectorFile {
    /// The tool every case calls.
    pub tool: String,
    /// The cases.
    pub cases: Vec<Case>,
}

/// One call and what it must produce.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Case {
    /// What the case shows.
    pub name: String,
    /// The tool's JSON arguments, passed as they are.
    pub arguments: Value,
    /// Settings by environment name (placeholders `${TESTS_DIR}`, `${UPSTREAM}`).
    #[serde(default)]
    pub config: BTreeMap<String, String>,
    /// Identical calls to make first.
    #[serde(default)]
    pub calls_before: u32,
    /// Fake-upstream scenarios to install first.
    #[serde(default)]
    pub upstream: Vec<Scenario>,
    /// The expected result.
    pub expect: Expect,
}

/// The expected result of a case.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Expect {
    /// MCP `isError`.
    pub is_error: bool,
    /// The exact body.
    #[serde(default)]
    pub body: Option<Value>,
    /// JSON pointer → exact value.
    #[serde(default)]
    pub pointers: BTreeMap<String, Value>,
    /// JSON pointer → array length.
    #[serde(default)]
    pub lengths: BTreeMap<String, usize>,
}

/// A case with the tool it calls.
#[derive(Debug, Clone)]
pub struct ToolCase {
    /// The tool name.
    pub tool: String,
    /// The case.
    pub case: Case,
}

impl ToolCase {
    /// `tool: case name`, for failure messages.
    pub fn label(&self) -> String {
        format!("{}: {}", self.tool, self.case.name)
    }
}

/// Every case of every file under `tests/vectors`, sorted by file name.
pub fn load_all() -> Vec<ToolCase> {
    load_dir(&crate::tests_dir().join("vectors"))
}

/// Every case of every `.json` file under `dir` (recursively).
pub fn load_dir(dir: &Path) -> Vec<ToolCase> {
    let mut files = Vec::new();
    collect_json(dir, &mut files);
    files.sort();
    files
        .iter()
        .flat_map(|path| {
            let text =
                std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let file: VectorFile =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let tool = file.tool;
            file.cases.into_iter().map(move |case| ToolCase {
                tool: tool.clone(),
                case,
            })
        })
        .collect()
}

fn collect_json(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_json(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

impl Case {
    /// The case's settings with placeholders filled in.
    pub fn settings(&self, upstream_base_url: &str) -> BTreeMap<String, String> {
        let tests_dir = crate::tests_dir();
        let tests_dir = tests_dir.to_string_lossy();
        self.config
            .iter()
            .map(|(k, v)| {
                let v = v
                    .replace("${TESTS_DIR}", &tests_dir)
                    .replace("${UPSTREAM}", upstream_base_url);
                (k.clone(), v)
            })
            .collect()
    }
}

impl Expect {
    /// Checks a result; the error names every mismatch.
    pub fn check(&self, is_error: bool, body: &Value) -> Result<(), String> {
        let mut problems = Vec::new();
        if is_error != self.is_error {
            problems.push(format!("isError is {is_error}, expected {}", self.is_error));
        }
        if let Some(expected) = &self.body
            && expected != body
        {
            problems.push(format!("body differs: expected {expected}"));
        }
        for (pointer, expected) in &self.pointers {
            match body.pointer(pointer) {
                Some(actual) if actual == expected => {}
                actual => problems.push(format!("{pointer} is {actual:?}, expected {expected}")),
            }
        }
        for (pointer, expected) in &self.lengths {
            match body.pointer(pointer).and_then(Value::as_array) {
                Some(items) if items.len() == *expected => {}
                actual => problems.push(format!(
                    "{pointer} has length {:?}, expected {expected}",
                    actual.map(Vec::len)
                )),
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(format!("{}\n  got: {body}", problems.join("\n  ")))
        }
    }
}

/// Runs every vector on one surface and panics with every failure.
///
/// For each case the fake upstream (started once, on loopback) gets the case's
/// scenarios, then `run_case(case, settings)` makes the calls on a fresh toolpack,
/// client or process built from `settings` alone, and returns the last call's
/// `(isError, body)`, or `None` when the surface cannot express the case.
pub async fn run_all<F, Fut>(mut run_case: F)
where
    F: FnMut(ToolCase, BTreeMap<String, String>) -> Fut,
    Fut: Future<Output = Option<(bool, Value)>>,
{
    let fake = FakeUpstream::start(&crate::default_fixtures_dir())
        .await
        .expect("fake upstream starts");
    let cases = load_all();
    let mut failures = Vec::new();
    let mut ran = 0;
    for tool_case in cases.iter().cloned() {
        fake.clear_scenarios();
        tool_case
            .case
            .upstream
            .iter()
            .cloned()
            .for_each(|s| fake.push_scenario(s));
        let settings = tool_case.case.settings(&fake.base_url());
        let label = tool_case.label();
        let expect = tool_case.case.expect.clone();
        let Some((is_error, body)) = run_case(tool_case, settings).await else {
            continue;
        };
        ran += 1;
        if let Err(problem) = expect.check(is_error, &body) {
            failures.push(format!("{label}\n  {problem}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {ran} vectors failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(ran > 0, "no vector ran");
    println!("{ran} of {} vectors ran and passed", cases.len());
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_vector_file_parses_and_names_a_case() {
        let all = load_all();
        assert!(!all.is_empty());
        assert!(all.iter().all(|c| !c.case.name.is_empty()));
    }

    #[test]
    fn check_reports_each_kind_of_mismatch() {
        let expect = Expect {
            is_error: false,
            body: None,
            pointers: [("/code".to_owned(), json!("OK"))].into(),
            lengths: [("/items".to_owned(), 2)].into(),
        };
        assert!(
            expect
                .check(false, &json!({"code": "OK", "items": [1, 2]}))
                .is_ok()
        );
        let err = expect
            .check(true, &json!({"code": "NO", "items": [1]}))
            .unwrap_err();
        assert!(
            err.contains("isError") && err.contains("/code") && err.contains("/items"),
            "{err}"
        );
        let exact = Expect {
            body: Some(json!({"a": 1})),
            ..expect
        };
        assert!(
            exact
                .check(false, &json!({"a": 2, "code": "OK", "items": [1, 2]}))
                .is_err()
        );
    }
}
