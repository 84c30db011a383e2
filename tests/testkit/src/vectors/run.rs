//! Running every vector on one surface: the fake upstream started once, each case's
//! scenarios given to it, the surface's call made, and the answer judged ([`judge`]).

use std::collections::BTreeMap;
use std::future::Future;

use serde_json::Value;

use super::{Case, Reading, ToolCase, judge, load_all};
use crate::fake_upstream::FakeUpstream;

/// How many cases run at once, each lane with its own fake upstream: most of a case's time
/// is spent waiting (retry back-offs, timeouts, a server process starting), and lanes
/// overlap the waits.
const LANES: usize = 4;

/// Runs every vector on one surface and panics with every failure.
///
/// Cases run in [`LANES`] lanes at once; in each, one fake upstream (started once, on
/// loopback) gets a case's scenarios, then `run_case(case, settings)` makes the calls on a
/// fresh toolpack, client or process built from `settings` alone, and returns the last
/// call's `(isError, body)`, or `None` when the surface cannot express the case.
pub async fn run_all<F, Fut>(run_case: F)
where
    F: Fn(ToolCase, BTreeMap<String, String>) -> Fut,
    Fut: Future<Output = Option<(bool, Value)>>,
{
    run_cases(LANES, |_| Some(BTreeMap::new()), run_case).await
}

/// Runs every vector that uses the saved-places store (its settings put
/// `TOOLPACK_DATA_DIR` in the case's temporary directory) with `TOOLPACK_DATABASE_URL` set to a fresh database from
/// `database()`: the same vectors, on the PostgreSQL store. One at a time: a store's first
/// call (connecting, creating its tables) is slow enough on a busy PostgreSQL to outlast
/// the one-second window of the rate-limit cases.
pub async fn run_store_cases_on<D, F, Fut>(database: D, run_case: F)
where
    D: Fn() -> String,
    F: Fn(ToolCase, BTreeMap<String, String>) -> Fut,
    Fut: Future<Output = Option<(bool, Value)>>,
{
    run_cases(
        1,
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

/// Runs the cases `extra` accepts (with the settings it adds), `lanes` at once, and panics
/// with every failure.
async fn run_cases<E, F, Fut>(lanes: usize, extra: E, run_case: F)
where
    E: Fn(&Case) -> Option<BTreeMap<String, String>>,
    F: Fn(ToolCase, BTreeMap<String, String>) -> Fut,
    Fut: Future<Output = Option<(bool, Value)>>,
{
    let cases = load_all();
    let lanes = (0..lanes).map(|lane| {
        let cases = cases.iter().skip(lane).step_by(lanes);
        run_lane(cases, &extra, &run_case)
    });
    let mut failures = Vec::new();
    let mut ran = 0;
    for (lane_failures, lane_ran) in futures_util::future::join_all(lanes).await {
        failures.extend(lane_failures);
        ran += lane_ran;
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

/// Runs `cases` one after the other against a fake upstream of their own: the failures,
/// and how many ran.
async fn run_lane<'a, E, F, Fut>(
    cases: impl Iterator<Item = &'a ToolCase>,
    extra: &E,
    run_case: &F,
) -> (Vec<String>, usize)
where
    E: Fn(&Case) -> Option<BTreeMap<String, String>>,
    F: Fn(ToolCase, BTreeMap<String, String>) -> Fut,
    Fut: Future<Output = Option<(bool, Value)>>,
{
    let fake = FakeUpstream::start(&crate::default_fixtures_dir())
        .await
        .expect("fake upstream starts");
    let mut failures = Vec::new();
    let mut ran = 0;
    for tool_case in cases.cloned() {
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
    (failures, ran)
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
