//! `POST /__vectors/judge`: judges an answer to a shared vector case with
//! [`crate::vectors::judge`], for the surfaces that run the cases themselves (Python,
//! Node, Kotlin). They send `{"case": "<tool>: <name>", "isError", "body", "reading"?}`
//! after the call; the requests this fake received since the last reset are the ones
//! judged, and the case's own settings name the secrets. The answer is
//! `{"ok": true}` or `{"ok": false, "problems": "…"}`; an unknown case is 404.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::recorded::{RecordedRequest, lock};
use crate::vectors::{self, Case, Reading};

/// What the judge reads: the vector cases beside the fixtures, and the fake's request log.
pub(super) struct Judge {
    fixtures_dir: PathBuf,
    requests: Arc<Mutex<Vec<RecordedRequest>>>,
    /// The shared vector cases (`vectors/` beside the fixtures), read on first use.
    cases: OnceLock<BTreeMap<String, Case>>,
}

impl Judge {
    /// The judge of the cases beside `fixtures_dir`, over the fake's `requests`.
    pub(super) fn new(fixtures_dir: &Path, requests: Arc<Mutex<Vec<RecordedRequest>>>) -> Self {
        Self {
            fixtures_dir: fixtures_dir.to_path_buf(),
            requests,
            cases: OnceLock::new(),
        }
    }

    /// The vector cases by `<tool>: <name>`.
    fn cases(&self) -> &BTreeMap<String, Case> {
        self.cases.get_or_init(|| {
            let dir = self.fixtures_dir.join("../vectors");
            if dir.is_dir() {
                cases(&dir)
            } else {
                BTreeMap::new()
            }
        })
    }
}

/// One answer to judge.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct Answer {
    /// `<tool>: <case name>`.
    case: String,
    is_error: bool,
    body: Value,
    #[serde(default)]
    reading: Reading,
}

/// The verdict.
#[derive(Serialize)]
struct Verdict {
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    problems: Option<String>,
}

/// Every case under `dir`, by `<tool>: <name>`.
fn cases(dir: &Path) -> BTreeMap<String, Case> {
    vectors::load_dir(dir)
        .into_iter()
        .map(|c| (c.label(), c.case))
        .collect()
}

pub(super) async fn judge(
    State(shared): State<Arc<Judge>>,
    Json(answer): Json<Answer>,
) -> Response {
    let Some(case) = shared.cases().get(&answer.case) else {
        let message = format!("no vector case {:?}", answer.case);
        return (StatusCode::NOT_FOUND, message).into_response();
    };
    let received = lock(&shared.requests).clone();
    let outcome = vectors::judge(
        case,
        (answer.is_error, &answer.body),
        &received,
        &case.config,
        answer.reading,
    );
    Json(Verdict {
        ok: outcome.is_ok(),
        problems: outcome.err(),
    })
    .into_response()
}
