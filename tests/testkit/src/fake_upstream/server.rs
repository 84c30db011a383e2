//! The HTTP server: replay by route, scenario overrides, request log, admin API.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use super::body;
use super::recorded::{RecordedRequest, lock};
use super::routes::{Routes, normalize_path, percent_decode};
use super::scenario::Scenario;

#[derive(Default)]
pub(super) struct Shared {
    fixtures_dir: std::path::PathBuf,
    routes: Routes,
    scenarios: Mutex<Vec<Scenario>>,
    requests: Arc<Mutex<Vec<RecordedRequest>>>,
}

/// A running fake upstream on `127.0.0.1`. Stops when dropped.
pub struct FakeUpstream {
    addr: SocketAddr,
    shared: Arc<Shared>,
    task: tokio::task::JoinHandle<()>,
}

impl FakeUpstream {
    /// Starts on an ephemeral loopback port with the routes of `fixtures_dir`.
    pub async fn start(fixtures_dir: &Path) -> anyhow::Result<Self> {
        Self::start_on(fixtures_dir, 0).await
    }

    /// Starts on loopback port `port` (0 = any free port).
    pub async fn start_on(fixtures_dir: &Path, port: u16) -> anyhow::Result<Self> {
        let shared = Arc::new(Shared {
            fixtures_dir: fixtures_dir.to_path_buf(),
            routes: Routes::load(fixtures_dir)?,
            ..Shared::default()
        });
        let app = axum::Router::new()
            .route(
                "/__fake/scenarios",
                get(list_scenarios)
                    .post(add_scenario)
                    .delete(clear_scenarios),
            )
            .route(
                "/__fake/requests",
                get(list_requests).delete(clear_requests),
            )
            .route_service(
                "/__vectors/judge",
                post(super::judge::judge).with_state(Arc::new(super::judge::Judge::new(
                    fixtures_dir,
                    shared.requests.clone(),
                ))),
            )
            .fallback(replay)
            .with_state(shared.clone());
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
        let addr = listener.local_addr()?;
        let door = super::mqtt_door::Door::new(listener)?;
        let task = tokio::spawn(async move {
            if let Err(e) = axum::serve(door, app).await {
                eprintln!("fake upstream stopped: {e}");
            }
        });
        Ok(Self { addr, shared, task })
    }

    /// `http://127.0.0.1:PORT`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Adds a scenario; the newest matching scenario wins.
    pub fn push_scenario(&self, scenario: Scenario) {
        lock(&self.shared.scenarios).push(scenario);
    }

    /// Removes every scenario.
    pub fn clear_scenarios(&self) {
        lock(&self.shared.scenarios).clear();
    }

    /// Every request received so far.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        lock(&self.shared.requests).clone()
    }

    /// Forgets the received requests.
    pub fn clear_requests(&self) {
        lock(&self.shared.requests).clear();
    }
}

impl Drop for FakeUpstream {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn list_scenarios(State(s): State<Arc<Shared>>) -> Json<Vec<Scenario>> {
    Json(lock(&s.scenarios).clone())
}

async fn add_scenario(State(s): State<Arc<Shared>>, Json(scenario): Json<Scenario>) -> StatusCode {
    lock(&s.scenarios).push(scenario);
    StatusCode::NO_CONTENT
}

async fn clear_scenarios(State(s): State<Arc<Shared>>) -> StatusCode {
    lock(&s.scenarios).clear();
    StatusCode::NO_CONTENT
}

async fn list_requests(State(s): State<Arc<Shared>>) -> Json<Vec<RecordedRequest>> {
    Json(lock(&s.requests).clone())
}

async fn clear_requests(State(s): State<Arc<Shared>>) -> StatusCode {
    lock(&s.requests).clear();
    StatusCode::NO_CONTENT
}

/// Takes the newest scenario applying to `path`, counting down its `times`.
fn take_scenario(shared: &Shared, path: &str) -> Option<Scenario> {
    let mut scenarios = lock(&shared.scenarios);
    let scenario = scenarios.iter_mut().rev().find(|s| s.applies_to(path))?;
    if let Some(times) = scenario.times.as_mut() {
        *times -= 1;
    }
    Some(scenario.clone())
}

async fn replay(
    State(shared): State<Arc<Shared>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    request_body: Bytes,
) -> Response {
    let query = parse_query(uri.query().unwrap_or(""));
    lock(&shared.requests).push(RecordedRequest {
        method: method.to_string(),
        path: uri.path().to_owned(),
        query: query.clone(),
        headers: headers
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_owned(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect(),
        body: String::from_utf8_lossy(&request_body).into_owned(),
    });
    let path = normalize_path(uri.path());
    let scenario = take_scenario(&shared, &path).unwrap_or_default();
    let route = shared.routes.find(
        method.as_str(),
        uri.path(),
        &query,
        &String::from_utf8_lossy(&request_body),
    );

    if let Some(ms) = scenario.delay_ms {
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }
    let scenario_body = match (&scenario.json, &scenario.file) {
        (Some(json), _) => Some(Bytes::from(json.to_string())),
        (None, Some(file)) => Some(match std::fs::read(shared.fixtures_dir.join(file)) {
            Ok(bytes) => Bytes::from(bytes),
            Err(e) => {
                let message = format!("scenario file {}: {e}", file.display());
                return (StatusCode::INTERNAL_SERVER_ERROR, message).into_response();
            }
        }),
        (None, None) => None,
    };
    let (route_status, recorded, mut extra_headers) = match (scenario_body, route) {
        (Some(body), route) => (route.map_or(200, |(r, _)| r.status), body, BTreeMap::new()),
        (None, Some((route, body))) => (
            route.status,
            Bytes::copy_from_slice(body),
            route.headers.clone(),
        ),
        (None, None) => (
            404,
            Bytes::from(not_found_body(uri.path())),
            BTreeMap::new(),
        ),
    };
    if let Some(value) = &scenario.retry_after {
        extra_headers.insert("retry-after".to_owned(), value.clone());
    }
    let status = StatusCode::from_u16(scenario.status.unwrap_or(route_status))
        .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let body = body::build(scenario.body, recorded, scenario.bytes).await;
    let mut response = (status, body).into_response();
    let out = response.headers_mut();
    out.insert(
        "content-type",
        HeaderValue::from_static("application/json; charset=utf-8"),
    );
    for (name, value) in &extra_headers {
        if let (Ok(name), Ok(value)) = (
            HeaderName::try_from(name.as_str()),
            HeaderValue::from_str(value),
        ) {
            out.insert(name, value);
        }
    }
    response
}

fn not_found_body(path: &str) -> String {
    serde_json::json!({
        "$type": "Tfl.Api.Presentation.Entities.ApiError, Tfl.Api.Presentation.Entities",
        "httpStatusCode": 404,
        "httpStatus": "NotFound",
        "relativeUri": path,
        "message": "No recorded response for this route (fake upstream)."
    })
    .to_string()
}

fn parse_query(query: &str) -> BTreeMap<String, String> {
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (
                percent_decode(&k.replace('+', " ")),
                percent_decode(&v.replace('+', " ")),
            )
        })
        .collect()
}
