//! Shared test vectors (`tests/vectors/**/*.json`): loading, placeholder
//! substitution and judging a result against a case's expectations ([`judge`]), the one
//! place answers are judged: the core and MCP runners call it in process, the Python,
//! Node and Kotlin runners through the fake upstream (`POST /__vectors/judge`).
//! The file format is described in `tests/vectors/README.md`.

use std::collections::BTreeMap;
use std::path::Path;

mod run;

use serde::Deserialize;
use serde_json::Value;

use crate::fake_upstream::{RecordedRequest, Scenario};
pub use run::{run_all, run_store_cases_on};

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
    /// Other calls to make first, on the same toolpack (e.g. saving a place).
    #[serde(default)]
    pub before: Vec<SetupCall>,
    /// The caller the case's call runs for (`for_caller`); absent: the local caller.
    #[serde(default)]
    pub caller: Option<String>,
    /// Fake-upstream scenarios to install first.
    #[serde(default)]
    pub upstream: Vec<Scenario>,
    /// The expected result.
    pub expect: Expect,
}

/// A call made before the case's own, on the same toolpack.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupCall {
    /// The tool.
    pub tool: String,
    /// Its JSON arguments.
    pub arguments: Value,
    /// The caller it runs for (`for_caller`); absent: the local caller.
    #[serde(default)]
    pub caller: Option<String>,
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
    /// JSON pointer → a regular expression its string value must match; these values
    /// (ids, clock times) are left out of the `body` comparison.
    #[serde(default)]
    pub patterns: BTreeMap<String, String>,
    /// JSON pointer → array length.
    #[serde(default)]
    pub lengths: BTreeMap<String, usize>,
    /// The requests the fake upstream must have received, in order and no others
    /// (absent: not checked).
    #[serde(default)]
    pub requests: Option<Vec<ExpectedRequest>>,
}

/// What one request received by the fake upstream must look like; absent fields are
/// not checked.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExpectedRequest {
    /// The raw (still percent-encoded) path, exactly.
    #[serde(default)]
    pub path: Option<String>,
    /// The decoded query parameters, exactly (`{}`: no query at all).
    #[serde(default)]
    pub query: Option<BTreeMap<String, String>>,
    /// Headers (lower-case names) that must be present with these values.
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// Headers (lower-case names) that must be absent.
    #[serde(default)]
    pub absent_headers: Vec<String>,
    /// JSON pointers into the request body (parsed as JSON) and their exact values.
    #[serde(default)]
    pub body_pointers: BTreeMap<String, Value>,
}

impl ExpectedRequest {
    fn problems(&self, index: usize, got: &RecordedRequest) -> Vec<String> {
        let mut problems = Vec::new();
        if let Some(path) = &self.path
            && path != &got.path
        {
            problems.push(format!(
                "request {index}: path {:?}, expected {path:?}",
                got.path
            ));
        }
        if let Some(query) = &self.query
            && query != &got.query
        {
            problems.push(format!(
                "request {index}: query {:?}, expected {query:?}",
                got.query
            ));
        }
        for (name, value) in &self.headers {
            if got.headers.get(name) != Some(value) {
                problems.push(format!(
                    "request {index}: header {name} is {:?}, expected {value:?}",
                    got.headers.get(name)
                ));
            }
        }
        for name in &self.absent_headers {
            if got.headers.contains_key(name) {
                problems.push(format!("request {index}: header {name} must be absent"));
            }
        }
        let sent: Value = serde_json::from_str(&got.body).unwrap_or(Value::Null);
        for (pointer, expected) in &self.body_pointers {
            if sent.pointer(pointer) != Some(expected) {
                problems.push(format!(
                    "request {index}: body {pointer} is {:?}, expected {expected}",
                    sent.pointer(pointer)
                ));
            }
        }
        problems
    }
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
    /// Whether the case or one of its setup calls names a caller: only surfaces that
    /// can act for a chosen caller (the core, the bindings' `for_caller`) run it.
    pub fn names_callers(&self) -> bool {
        self.caller.is_some() || self.before.iter().any(|s| s.caller.is_some())
    }

    /// The case's settings with placeholders filled in: `${TESTS_DIR}`, `${UPSTREAM}`,
    /// `${HFP}` (the same fake upstream as an MQTT broker: `mqtt://` for `http://`) and
    /// `${TEMP_DIR}` (a fresh empty directory for this case).
    pub fn settings(&self, upstream_base_url: &str, temp_dir: &Path) -> BTreeMap<String, String> {
        let tests_dir = crate::tests_dir();
        let tests_dir = tests_dir.to_string_lossy();
        self.config
            .iter()
            .map(|(k, v)| {
                let v = v
                    .replace("${TESTS_DIR}", &tests_dir)
                    .replace("${UPSTREAM}", upstream_base_url)
                    .replace(
                        "${HFP}",
                        &upstream_base_url.replacen("http://", "mqtt://", 1),
                    )
                    .replace("${TEMP_DIR}", &temp_dir.to_string_lossy());
                (k.clone(), v)
            })
            .collect()
    }
}

impl Case {
    /// The case with `${TESTS_DIR}` and `${TEMP_DIR}` filled in in its arguments and in
    /// its `before` calls' arguments (e.g. a loko `project_path`).
    pub fn with_paths(mut self, temp_dir: &Path) -> Self {
        let fill = |value: &Value| -> Value {
            let text = value
                .to_string()
                .replace(
                    "${TESTS_DIR}",
                    &json_text(&crate::tests_dir().to_string_lossy()),
                )
                .replace("${TEMP_DIR}", &json_text(&temp_dir.to_string_lossy()));
            serde_json::from_str(&text).unwrap_or_else(|_| value.clone())
        };
        self.arguments = fill(&self.arguments);
        for setup in &mut self.before {
            setup.arguments = fill(&setup.arguments);
        }
        self
    }
}

/// `text` as it appears inside a JSON string.
fn json_text(text: &str) -> String {
    let quoted = Value::String(text.to_owned()).to_string();
    quoted[1..quoted.len() - 1].to_owned()
}

/// Removes the value at JSON `pointer` from `value` (when there is one).
fn remove_pointer(value: &mut Value, pointer: &str) {
    let Some((parent, last)) = pointer.rsplit_once('/') else {
        return;
    };
    let last = last.replace("~1", "/").replace("~0", "~");
    match value.pointer_mut(parent) {
        Some(Value::Object(map)) => {
            map.remove(&last);
        }
        Some(Value::Array(items)) => {
            if let Ok(i) = last.parse::<usize>()
                && i < items.len()
            {
                items.remove(i);
            }
        }
        _ => {}
    }
}

/// How an answer is read against a case's expectations.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Reading {
    /// The answer is the contract's JSON: compared exactly, numbers by value (`1` and
    /// `1.0` are one number in JSON, and JavaScript writes no `.0`).
    #[default]
    Exact,
    /// The answer is a typed record written back as JSON (the Kotlin bindings' typed
    /// path): a record carries every field, so a missing key equals `null`, `false` (a
    /// flag the JSON leaves out when it is false) or an empty list or map (and a missing
    /// pointer an expected `null`); a string equals the JSON it
    /// holds (a `JsonValue` field is JSON text); `{"$enum": "NAME"}` equals a string
    /// whose upper-case form, `-` read as `_`, is `NAME`; numbers compare by value.
    TypedRecord,
}

impl Reading {
    /// Whether `actual` reads as `expected`: numbers by value in both readings, and a
    /// typed record's leniencies (see [`Reading::TypedRecord`]) in that one.
    fn same(self, expected: &Value, actual: &Value) -> bool {
        let typed = self == Self::TypedRecord;
        match (expected, actual) {
            (Value::Null, other) | (other, Value::Null) if typed => is_unset(other),
            (Value::String(text), Value::Object(map))
            | (Value::Object(map), Value::String(text))
                if typed && map.len() == 1 && map.contains_key("$enum") =>
            {
                map["$enum"].as_str() == Some(&text.to_uppercase().replace('-', "_"))
            }
            (Value::String(text), other @ (Value::Object(_) | Value::Array(_)))
            | (other @ (Value::Object(_) | Value::Array(_)), Value::String(text))
                if typed =>
            {
                serde_json::from_str::<Value>(text).is_ok_and(|parsed| self.same(&parsed, other))
            }
            (Value::Number(a), Value::Number(b)) => same_number(a, b),
            // A record carries every field: a key missing on one side reads as `null`.
            (Value::Object(a), Value::Object(b)) if typed => a.keys().chain(b.keys()).all(|k| {
                self.same(
                    a.get(k).unwrap_or(&Value::Null),
                    b.get(k).unwrap_or(&Value::Null),
                )
            }),
            (Value::Object(a), Value::Object(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .all(|(k, v)| b.get(k).is_some_and(|w| self.same(v, w)))
            }
            (Value::Array(a), Value::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| self.same(x, y))
            }
            _ => expected == actual,
        }
    }
}

/// Whether two JSON numbers are the same number.
fn same_number(a: &serde_json::Number, b: &serde_json::Number) -> bool {
    match (a.as_i128(), b.as_i128()) {
        (Some(x), Some(y)) => x == y,
        _ => a.as_f64() == b.as_f64(),
    }
}

/// Whether a typed record's `value` is what the JSON leaves out: null, false, empty.
fn is_unset(value: &Value) -> bool {
    match value {
        Value::Null | Value::Bool(false) => true,
        Value::Array(items) => items.is_empty(),
        Value::Object(map) => map.is_empty(),
        _ => false,
    }
}

/// Judges one answer of `case`: its expectations, the requests the fake upstream
/// received (`received`), and no secret of `settings` in the answer. The error names
/// every mismatch.
pub fn judge(
    case: &Case,
    (is_error, body): (bool, &Value),
    received: &[RecordedRequest],
    settings: &BTreeMap<String, String>,
    reading: Reading,
) -> Result<(), String> {
    case.expect
        .check_as(is_error, body, reading)
        .and_then(|()| case.expect.check_requests(received))
        .and_then(|()| check_no_secrets(settings, body))
}

impl Expect {
    /// Checks a result read exactly; the error names every mismatch.
    pub fn check(&self, is_error: bool, body: &Value) -> Result<(), String> {
        self.check_as(is_error, body, Reading::Exact)
    }

    /// Checks a result read as `reading` says; the error names every mismatch.
    pub fn check_as(&self, is_error: bool, body: &Value, reading: Reading) -> Result<(), String> {
        let mut problems = Vec::new();
        if is_error != self.is_error {
            problems.push(format!("isError is {is_error}, expected {}", self.is_error));
        }
        let mut stable = body.clone();
        for (pointer, pattern) in &self.patterns {
            let matched = match (body.pointer(pointer), regex::Regex::new(pattern)) {
                (Some(Value::String(text)), Ok(re)) => re.is_match(text),
                _ => false,
            };
            if !matched {
                problems.push(format!(
                    "{pointer} is {:?}, expected a string matching {pattern}",
                    body.pointer(pointer)
                ));
            }
            remove_pointer(&mut stable, pointer);
        }
        if let Some(expected) = &self.body
            && !reading.same(expected, &stable)
        {
            problems.push(format!("body differs: expected {expected}"));
        }
        for (pointer, expected) in &self.pointers {
            match body.pointer(pointer) {
                Some(actual) if reading.same(expected, actual) => {}
                None if reading == Reading::TypedRecord && expected.is_null() => {}
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

    /// Checks the requests the fake upstream received against [`Expect::requests`].
    pub fn check_requests(&self, received: &[RecordedRequest]) -> Result<(), String> {
        let Some(expected) = &self.requests else {
            return Ok(());
        };
        let mut problems = Vec::new();
        if expected.len() != received.len() {
            problems.push(format!(
                "the fake upstream received {} requests, expected {}",
                received.len(),
                expected.len()
            ));
        }
        for (index, (want, got)) in expected.iter().zip(received).enumerate() {
            problems.extend(want.problems(index, got));
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "{}\n  received: {received:?}",
                problems.join("\n  ")
            ))
        }
    }
}

/// Every rule shared by all surfaces: no secret setting (a name ending in `_API_KEY`)
/// may appear anywhere in an answer.
pub fn check_no_secrets(settings: &BTreeMap<String, String>, body: &Value) -> Result<(), String> {
    let text = body.to_string();
    let leaked: Vec<&String> = settings
        .iter()
        .filter(|(name, value)| is_secret_setting(name) && !value.trim().is_empty())
        .filter(|(_, value)| text.contains(value.trim()))
        .map(|(name, _)| name)
        .collect();
    if leaked.is_empty() {
        Ok(())
    } else {
        Err(format!("the answer contains the value of {leaked:?}"))
    }
}

/// Whether setting `name` holds a secret: an API key, or the database URL (its password).
fn is_secret_setting(name: &str) -> bool {
    name.ends_with("_API_KEY") || name == "TOOLPACK_DATABASE_URL"
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_typed_record_reads_as_the_contract_json_it_stands_for() {
        let typed = |expected: Value, actual: Value| Reading::TypedRecord.same(&expected, &actual);
        assert!(typed(
            json!({"a": 1, "b": null}),
            json!({"a": 1.0, "c": []})
        ));
        assert!(typed(json!("on-time"), json!({"$enum": "ON_TIME"})));
        assert!(typed(json!({"x": [1, 2]}), json!("{\"x\": [1, 2]}")));
        assert!(typed(json!(null), json!({})));
        assert!(typed(json!({"a": 1}), json!({"a": 1, "stale": false})));
        assert!(!typed(json!({"a": 1}), json!({"a": 1, "stale": true})));
        assert!(!typed(json!("late"), json!({"$enum": "ON_TIME"})));
        assert!(!typed(json!({"a": 1}), json!({"a": 2})));
        assert!(!typed(json!({"a": "x"}), json!({})));
        assert!(!typed(json!([1]), json!([1, 2])));
        assert!(!typed(json!("Bank"), json!("BANK")));
        // Read exactly, none of that holds but numbers by value.
        assert!(Reading::Exact.same(&json!({"a": 1}), &json!({"a": 1.0})));
        assert!(!Reading::Exact.same(&json!({"a": 1}), &json!({"a": 1.5})));
        assert!(!Reading::Exact.same(&json!({"a": 1}), &json!({"a": 1, "b": null})));
        assert!(!Reading::Exact.same(&json!("on-time"), &json!({"$enum": "ON_TIME"})));
    }

    /// `POST path` with a JSON body to the server at `base`; the response's body.
    pub(super) fn body_of(pointers: &BTreeMap<String, Value>) -> Value {
        let mut body = json!({});
        for (pointer, value) in pointers {
            let mut at = &mut body;
            let parts: Vec<&str> = pointer.split('/').skip(1).collect();
            for (i, part) in parts.iter().enumerate() {
                let object = at.as_object_mut().unwrap();
                let next = if i + 1 == parts.len() {
                    value.clone()
                } else {
                    json!({})
                };
                at = object.entry(part.to_string()).or_insert(next);
            }
        }
        body
    }

    #[test]
    fn every_vector_file_parses_and_names_a_case() {
        let all = load_all();
        assert!(!all.is_empty());
        assert!(all.iter().all(|c| !c.case.name.is_empty()));
    }

    #[test]
    fn request_checks_compare_path_query_and_headers() {
        let expect = Expect {
            is_error: false,
            body: None,
            pointers: BTreeMap::new(),
            patterns: BTreeMap::new(),
            lengths: BTreeMap::new(),
            requests: Some(vec![ExpectedRequest {
                path: Some("/a%20b".into()),
                query: Some(BTreeMap::new()),
                headers: [("app_key".to_owned(), "k".to_owned())].into(),
                absent_headers: vec!["x-secret".into()],
                body_pointers: [("/q".to_owned(), json!(1))].into(),
            }]),
        };
        let good = RecordedRequest {
            method: "GET".into(),
            path: "/a%20b".into(),
            query: BTreeMap::new(),
            headers: [("app_key".to_owned(), "k".to_owned())].into(),
            body: r#"{"q": 1}"#.into(),
        };
        assert!(expect.check_requests(std::slice::from_ref(&good)).is_ok());
        let bad = RecordedRequest {
            path: "/a b".into(),
            query: [("app_key".to_owned(), "k".to_owned())].into(),
            headers: [("x-secret".to_owned(), "1".to_owned())].into(),
            body: r#"{"q": 2}"#.into(),
            ..good.clone()
        };
        let err = expect.check_requests(&[bad]).unwrap_err();
        for part in ["path", "query", "header app_key", "x-secret", "body /q"] {
            assert!(err.contains(part), "{part}: {err}");
        }
        assert!(expect.check_requests(&[good.clone(), good]).is_err());
    }

    #[test]
    fn patterns_check_volatile_values_and_leave_them_out_of_the_body() {
        let expect = Expect {
            is_error: false,
            body: Some(json!({"a": 1})),
            pointers: BTreeMap::new(),
            patterns: [("/id".to_owned(), "^[0-9a-f]{4}$".to_owned())].into(),
            lengths: BTreeMap::new(),
            requests: None,
        };
        assert!(expect.check(false, &json!({"a": 1, "id": "beef"})).is_ok());
        assert!(expect.check(false, &json!({"a": 1, "id": "nope"})).is_err());
        assert!(expect.check(false, &json!({"a": 1})).is_err());
        assert!(expect.check(false, &json!({"a": 2, "id": "beef"})).is_err());
    }

    #[test]
    fn secrets_in_answers_are_caught() {
        let settings: BTreeMap<String, String> =
            [("TFL_API_KEY".to_owned(), "abc123".to_owned())].into();
        assert!(check_no_secrets(&settings, &json!({"m": "fine"})).is_ok());
        assert!(check_no_secrets(&settings, &json!({"m": "key abc123"})).is_err());
    }

    #[test]
    fn check_reports_each_kind_of_mismatch() {
        let expect = Expect {
            is_error: false,
            body: None,
            pointers: [("/code".to_owned(), json!("OK"))].into(),
            patterns: BTreeMap::new(),
            lengths: [("/items".to_owned(), 2)].into(),
            requests: None,
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
