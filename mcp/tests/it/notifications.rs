//! Tool reports reach MCP clients: `logging/setLevel` filters `notifications/message`
//! (an upstream retry, the station data falling back to the bundled snapshot), and a
//! call with a progress token gets `notifications/progress` before its response.
#![allow(deprecated)] // MCP logging (SEP-2577): still part of the protocol versions served.

use crate::common;

use std::sync::{Arc, Mutex};

use rmcp::handler::client::ClientHandler;
use rmcp::model::{
    CallToolRequestParams, LoggingLevel, LoggingMessageNotificationParam, NumberOrString,
    ProgressNotificationParam, ProgressToken, RequestMetaObject, SetLevelRequestParams,
};
use rmcp::service::{NotificationContext, RoleClient, RunningService};
use serde_json::{Value, json};
use toolpack_testkit::{FakeUpstream, Scenario};

/// What the client received, in order.
type Seen<T> = Arc<Mutex<Vec<T>>>;

#[derive(Clone, Default)]
struct Recorder {
    logs: Seen<(LoggingLevel, String)>,
    progress: Seen<(f64, Option<String>)>,
}

impl ClientHandler for Recorder {
    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let message = params.data["message"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        self.logs.lock().unwrap().push((params.level, message));
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.progress
            .lock()
            .unwrap()
            .push((params.progress, params.message));
    }
}

async fn connect(settings: &[(&str, &str)]) -> (RunningService<RoleClient, Recorder>, Recorder) {
    let recorder = Recorder::default();
    let server = common::server_with(&common::settings(settings));
    (
        common::duplex_client(server, recorder.clone()).await,
        recorder,
    )
}

fn params(tool: &'static str, arguments: Value) -> CallToolRequestParams {
    let Value::Object(map) = arguments else {
        unreachable!()
    };
    CallToolRequestParams::new(tool).with_arguments(map)
}

#[tokio::test]
async fn set_level_filters_log_messages() {
    let fake = FakeUpstream::start(&toolpack_testkit::default_fixtures_dir())
        .await
        .unwrap();
    let base = fake.base_url();
    let settings = [
        ("DIGITRANSIT_API_KEY", "k"),
        ("DIGITRANSIT_BASE_URL", base.as_str()),
    ];

    // Default level (warning): the station-data notice is not sent.
    let (quiet, quiet_seen) = connect(&settings).await;
    quiet
        .call_tool(params("stationToilets", json!({"stationName": "Victoria"})))
        .await
        .unwrap();
    assert!(quiet_seen.logs.lock().unwrap().is_empty());

    let (client, seen) = connect(&settings).await;
    client
        .set_level(SetLevelRequestParams::new(LoggingLevel::Info))
        .await
        .unwrap();
    client
        .call_tool(params("stationToilets", json!({"stationName": "Victoria"})))
        .await
        .unwrap();
    fake.push_scenario(Scenario::on("/geocoding").status(500).times(1));
    let answer = client
        .call_tool(params("geocode_address", json!({"text": "kamppi"})))
        .await
        .unwrap();
    assert_eq!(answer.is_error, Some(false));
    let logs = seen.logs.lock().unwrap().clone();
    assert!(
        logs.iter()
            .any(|(level, m)| *level == LoggingLevel::Notice && m.contains("bundled snapshot")),
        "{logs:?}"
    );
    assert!(
        logs.iter().any(|(level, m)| *level == LoggingLevel::Warning
            && m.contains("answered HTTP 500; retrying")
            && m.contains("/geocoding/v1/search")
            && !m.contains("kamppi")),
        "{logs:?}"
    );

    // Error level: the retry warning is filtered out.
    client
        .set_level(SetLevelRequestParams::new(LoggingLevel::Error))
        .await
        .unwrap();
    let before = seen.logs.lock().unwrap().len();
    fake.push_scenario(Scenario::on("/geocoding").status(500).times(1));
    // Another place: kamppi's answer is in the shared cache and would send no request.
    client
        .call_tool(params("geocode_address", json!({"text": "rautatientori"})))
        .await
        .unwrap();
    assert_eq!(seen.logs.lock().unwrap().len(), before);
}

#[tokio::test]
async fn on_2026_07_28_log_messages_come_only_to_a_request_that_names_a_level() {
    let fake = FakeUpstream::start(&toolpack_testkit::default_fixtures_dir())
        .await
        .unwrap();
    let base = fake.base_url();
    let server = || {
        common::server_with(&common::settings(&[
            ("DIGITRANSIT_API_KEY", "k"),
            ("DIGITRANSIT_BASE_URL", base.as_str()),
        ]))
    };
    let retried = |text: &'static str, level: Option<LoggingLevel>| {
        fake.push_scenario(Scenario::on("/geocoding").status(500).times(1));
        let mut request = params("geocode_address", json!({ "text": text }));
        if let Some(level) = level {
            let mut meta = RequestMetaObject::new();
            meta.set_log_level(level);
            request.meta = Some(meta);
        }
        request
    };

    // No `logLevel`: the retry's warning is not sent, though the session would send it.
    let recorder = Recorder::default();
    let client = common::duplex_client_on_2026_07_28(
        server(),
        recorder.clone(),
        rmcp::model::ClientCapabilities::default(),
    );
    let answer = client.call_tool(retried("kamppi", None)).await.unwrap();
    assert_eq!(answer.is_error, Some(false));
    assert!(recorder.logs.lock().unwrap().is_empty());

    // `logLevel: debug`: it is.
    let answer = client
        .call_tool(retried("airport", Some(LoggingLevel::Debug)))
        .await
        .unwrap();
    assert_eq!(answer.is_error, Some(false));
    let logs = recorder.logs.lock().unwrap().clone();
    assert!(
        logs.iter()
            .any(|(level, m)| *level == LoggingLevel::Warning && m.contains("retrying")),
        "{logs:?}"
    );
    assert_eq!(
        fake.requests()
            .iter()
            .filter(|r| r.path.starts_with("/geocoding"))
            .count(),
        4,
        "each call retried once"
    );
}

#[tokio::test]
async fn progress_reaches_the_client_before_the_response_when_asked_for() {
    let fake = FakeUpstream::start(&toolpack_testkit::default_fixtures_dir())
        .await
        .unwrap();
    fake.push_scenario(
        Scenario::on("/routing").file("digitransit/otp/plan-alternative.DERIVED.json"),
    );
    fake.push_scenario(
        Scenario::on("/routing")
            .file("digitransit/otp/planConnection-hsl-delayed-cancelled.SYNTHETIC.json")
            .times(1),
    );
    let base = fake.base_url();
    let (client, seen) = connect(&[
        ("DIGITRANSIT_API_KEY", "k"),
        ("DIGITRANSIT_BASE_URL", base.as_str()),
    ])
    .await;
    let trip = json!({
        "origin": {"type": "coords", "value": {"lat": 60.170384, "lon": 24.939846}},
        "destination": {"type": "coords", "value": {"lat": 60.194445, "lon": 24.904976}}
    });
    let mut with_token = params("plan_trip", trip);
    let mut meta = RequestMetaObject::default();
    meta.set_progress_token(ProgressToken(NumberOrString::Number(7)));
    with_token.meta = Some(meta);
    let answer = client.call_tool(with_token).await.unwrap();
    assert_eq!(answer.is_error, Some(false));
    let progress = seen.progress.lock().unwrap().clone();
    assert_eq!(progress.len(), 2, "{progress:?}");
    assert_eq!(progress[0].0, 1.0);
    assert_eq!(
        progress[1],
        (2.0, Some("disruption alternatives searched".into()))
    );
}

#[tokio::test]
async fn build_docs_sends_one_progress_notification_per_diagram_and_page() {
    let project = tempfile::tempdir().unwrap();
    let shape = toolpack_testkit::loko_project::Shape {
        systems: 1,
        containers: 2,
        components: 1,
    };
    toolpack_testkit::loko_project::generate(project.path(), shape).unwrap();
    let (client, seen) = connect(&[]).await;
    let mut with_token = params(
        "build_docs",
        json!({"project_path": project.path(), "format": "html"}),
    );
    let mut meta = RequestMetaObject::default();
    meta.set_progress_token(ProgressToken(NumberOrString::Number(8)));
    with_token.meta = Some(meta);
    let answer = client.call_tool(with_token).await.unwrap();
    assert_eq!(answer.is_error, Some(false), "{answer:?}");
    let progress = seen.progress.lock().unwrap().clone();
    // The landscape plus one diagram per entity; the index plus one page per entity.
    let steps = (shape.diagrams() + 1) + (shape.entities() + 1);
    assert_eq!(progress.len(), steps, "{progress:?}");
    assert_eq!(progress.last().unwrap().0, steps as f64);
    assert!(progress[0].1.as_deref().unwrap().starts_with("diagram 1/"));
    assert!(
        progress[steps - 1]
            .1
            .as_deref()
            .unwrap()
            .starts_with("page ")
    );
}
