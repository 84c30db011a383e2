//! Running every vector on one surface: the fake upstream started once, each case's
//! scenarios given to it, the surface's call made, and the answer judged ([`judge`]).

use std::collections::BTreeMap;
use std::future::Future;

use serde_json::Value;

use super::{Case, Reading, ToolCase, judge, load_all};
use crate::fake_upstream::FakeUpstream;

/// Runs every vector on one surface and panics with every failure.
///
/// For each case the fake upstream (started once, on loopback) gets the case's
/// scenarios, then `run_case(case, settings)` makes the calls on a fresh toolpack,
/// client or process built from `settings` alone, and returns the last call's
/// `(isError, body)`, or `None` when the surface cannot express the case.
pub async fn run_all<F, Fut>(run_case: F)
where
    F: FnMut(ToolCase, BTreeMap<String, String>) -> Fut,
    Fut: Future<Output = Option<(bool, Value)>>,
{
    run_cases(|_| Some(BTreeMap::new()), run_case).await
}

/// Runs every vector that uses the saved-places store (its settings put
/// `TOOLPACK_DATA_DIR` in the case's temporary directory) with `TOOLPACK_DATABASE_URL` set to a fresh database from
/// `database()`: the same vectors, on the PostgreSQL store.
pub async fn run_store_cases_on<D, F, Fut>(database: D, run_case: F)
where
    D: Fn() -> String,
    F: FnMut(ToolCase, BTreeMap<String, String>) -> Fut,
    Fut: Future<Output = Option<(bool, Value)>>,
{
    run_cases(
        |case: &Case| {
            // A case about the data directory itself (one that cannot be created) is
            // SQLite's alone.
            let uses_store = case.config.get("TOOLPACK_DATA_DIR").map(String::as_str);
            (uses_store == Some("${TEMP_DIR}"))
                .then(|| BTreeMap::from([("TOOLPACK_DATABASE_URL".to_owned(), database())]))
        },
        run_case,
    )
    .await
}

/// Runs the cases `extra` accepts (with the settings it adds) and panics with every
/// failure.
async fn run_cases<E, F, Fut>(extra: E, mut run_case: F)
where
    E: Fn(&Case) -> Option<BTreeMap<String, String>>,
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
        let Some(extra_settings) = extra(&tool_case.case) else {
            continue;
        };
        fake.clear_scenarios();
        fake.clear_requests();
        tool_case
            .case
            .upstream
            .iter()
            .cloned()
            .for_each(|s| fake.push_scenario(s));
        let temp_dir = tempfile::tempdir().expect("a temporary directory");
        let mut settings = tool_case.case.settings(&fake.base_url(), temp_dir.path());
        settings.extend(extra_settings);
        let tool_case = ToolCase {
            case: tool_case.case.with_paths(temp_dir.path()),
            tool: tool_case.tool,
        };
        let label = tool_case.label();
        let case = tool_case.case.clone();
        let Some((is_error, body)) = run_case(tool_case, settings.clone()).await else {
            continue;
        };
        ran += 1;
        let outcome = judge(
            &case,
            (is_error, &body),
            &fake.requests(),
            &settings,
            Reading::Exact,
        );
        if let Err(problem) = outcome {
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
    use crate::vectors::tests::body_of;
    use serde_json::json;

    async fn post(base: &str, path: &str, body: &Value) -> (u16, String) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let address = base.trim_start_matches("http://");
        let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
        let body = body.to_string();
        let request = format!(
            "POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).await.unwrap();
        let status = response[9..12].parse().unwrap();
        let (_, text) = response.split_once("\r\n\r\n").unwrap();
        (status, text.to_owned())
    }

    /// The smallest body that has every value of `pointers`.
    #[tokio::test]
    async fn the_fake_upstream_judges_an_answer_as_the_core_does() {
        let fake = FakeUpstream::start(&crate::default_fixtures_dir())
            .await
            .unwrap();
        let simple = load_all()
            .into_iter()
            .find(|c| {
                let e = &c.case.expect;
                e.is_error
                    && e.body.is_none()
                    && e.patterns.is_empty()
                    && e.lengths.is_empty()
                    && e.requests.is_none()
                    && !e.pointers.is_empty()
            })
            .expect("an error case judged by pointers alone");
        let right = body_of(&simple.case.expect.pointers);
        let answer = |is_error: bool, body: &Value| json!({"case": simple.label(), "isError": is_error, "body": body});
        let (status, verdict) =
            post(&fake.base_url(), "/__vectors/judge", &answer(true, &right)).await;
        assert_eq!((status, verdict.as_str()), (200, r#"{"ok":true}"#));
        let (_, verdict) = post(&fake.base_url(), "/__vectors/judge", &answer(false, &right)).await;
        let verdict: Value = serde_json::from_str(&verdict).unwrap();
        assert_eq!(verdict["ok"], false);
        assert!(
            verdict["problems"]
                .as_str()
                .unwrap()
                .contains("isError is false")
        );
        let unknown = json!({"case": "nothing: here", "isError": true, "body": {}});
        assert_eq!(
            post(&fake.base_url(), "/__vectors/judge", &unknown).await.0,
            404
        );
    }
}
