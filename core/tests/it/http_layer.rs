//! The shared HTTP layer against the fake upstream on loopback.

use std::time::{Duration, Instant};

use reqwest::header::HeaderName;
use serde_json::json;
use toolpack::Secret;
use toolpack::http::{HttpClient, HttpError, RequestPolicy, UpstreamRequest, UpstreamResponse};
use toolpack_testkit::{BodyMode, FakeUpstream, Scenario};

const ITINERARY: &str =
    "/Journey/JourneyResults/bank%20underground%20station/to/mile%20end%20underground%20station";
const KEY: &str = "test-key-that-must-not-leak";

async fn fake() -> FakeUpstream {
    FakeUpstream::start(&toolpack_testkit::default_fixtures_dir())
        .await
        .expect("fake upstream starts")
}

fn fast_policy() -> RequestPolicy {
    RequestPolicy {
        total_timeout: Duration::from_secs(5),
        base_backoff: Duration::from_millis(10),
        ..RequestPolicy::default()
    }
}

fn itinerary(fake: &FakeUpstream) -> UpstreamRequest {
    UpstreamRequest::get(format!("{}{ITINERARY}", fake.base_url()))
        .secret_header(HeaderName::from_static("app_key"), Secret::new(KEY))
        .query("mode", "tube")
}

/// Installs `scenario` (replacing any other) and sends `request` under `policy`.
async fn send(
    fake: &FakeUpstream,
    scenario: Option<Scenario>,
    request: &UpstreamRequest,
    policy: RequestPolicy,
) -> Result<UpstreamResponse, HttpError> {
    fake.clear_scenarios();
    scenario.into_iter().for_each(|s| fake.push_scenario(s));
    HttpClient::new().unwrap().fetch(request, &policy).await
}

/// The itinerary request under the fast policy, with `scenario` on `/journey`.
async fn send_itinerary(fake: &FakeUpstream, scenario: Scenario) -> UpstreamResponse {
    send(fake, Some(scenario), &itinerary(fake), fast_policy())
        .await
        .expect("a response")
}

fn status_and_attempts(response: &UpstreamResponse) -> (u16, u32) {
    (response.status.as_u16(), response.attempts)
}

#[tokio::test]
async fn replays_a_recorded_response_and_sends_the_key_as_a_header() {
    let fake = fake().await;
    let response = send(&fake, None, &itinerary(&fake), fast_policy())
        .await
        .unwrap();
    assert_eq!(status_and_attempts(&response), (200, 1));
    assert_eq!(
        response.json().unwrap()["journeys"]
            .as_array()
            .map(Vec::len),
        Some(4)
    );
    let seen = &fake.requests()[0];
    assert_eq!(seen.headers.get("app_key").map(String::as_str), Some(KEY));
    assert_eq!(seen.query.get("mode").map(String::as_str), Some("tube"));
    assert!(
        !seen.query.contains_key("app_key"),
        "the key never goes in the URL"
    );
}

#[tokio::test]
async fn non_2xx_statuses_are_responses_not_errors() {
    let fake = fake().await;
    let request = UpstreamRequest::get(format!(
        "{}/journey/journeyresults/x/to/highgate",
        fake.base_url()
    ));
    let response = send(&fake, None, &request, fast_policy()).await.unwrap();
    assert_eq!(
        status_and_attempts(&response),
        (300, 1),
        "a 300 is never retried"
    );
    assert!(response.json().unwrap()["toLocationDisambiguation"].is_object());
}

#[tokio::test]
async fn retries_server_errors_then_succeeds() {
    let fake = fake().await;
    let response = send_itinerary(&fake, Scenario::on("/journey").status(503).times(2)).await;
    assert_eq!(status_and_attempts(&response), (200, 3));
    assert_eq!(fake.requests().len(), 3);
}

#[tokio::test]
async fn gives_up_after_max_attempts_with_the_last_response() {
    let fake = fake().await;
    let response = send_itinerary(&fake, Scenario::on("/journey").status(502)).await;
    assert_eq!(status_and_attempts(&response), (502, 3));
}

#[tokio::test]
async fn honours_retry_after() {
    let fake = fake().await;
    let started = Instant::now();
    let response = send_itinerary(
        &fake,
        Scenario::on("/journey")
            .status(503)
            .retry_after("1")
            .times(1),
    )
    .await;
    assert_eq!(status_and_attempts(&response), (200, 2));
    assert!(
        started.elapsed() >= Duration::from_millis(950),
        "waited {:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_retry_cut_short_by_the_deadline_returns_the_answer_before_it() {
    let fake = fake().await;
    fake.clear_scenarios();
    fake.push_scenario(Scenario::on("/journey").body(BodyMode::Hang));
    fake.push_scenario(Scenario::on("/journey").status(500).times(1));
    let policy = RequestPolicy {
        total_timeout: Duration::from_millis(300),
        base_backoff: Duration::from_millis(10),
        ..RequestPolicy::default()
    };
    let response = HttpClient::new()
        .unwrap()
        .fetch(&itinerary(&fake), &policy)
        .await
        .expect("the 500, not a timeout");
    assert_eq!(status_and_attempts(&response), (500, 2), "two were sent");
    assert_eq!(fake.requests().len(), 2);
}

#[tokio::test]
async fn a_retry_after_beyond_the_limit_ends_the_retries() {
    let fake = fake().await;
    let response = send_itinerary(
        &fake,
        Scenario::on("/journey").status(503).retry_after("120"),
    )
    .await;
    assert_eq!(status_and_attempts(&response), (503, 1));
}

#[tokio::test]
async fn too_many_requests_is_not_retried() {
    let fake = fake().await;
    let response =
        send_itinerary(&fake, Scenario::on("/journey").status(429).retry_after("0")).await;
    assert_eq!(status_and_attempts(&response), (429, 1));
}

#[tokio::test]
async fn non_idempotent_requests_are_not_retried() {
    let fake = fake().await;
    let request = UpstreamRequest::post_json(
        format!("{}/graphql", fake.base_url()),
        json!({"query": "{}"}),
    );
    let scenario = Scenario::on("/graphql").status(503).json(json!({}));
    let response = send(&fake, Some(scenario), &request, fast_policy())
        .await
        .unwrap();
    assert_eq!(status_and_attempts(&response), (503, 1));
    assert_eq!(fake.requests()[0].body, r#"{"query":"{}"}"#);
}

#[tokio::test]
async fn slow_and_hanging_upstreams_time_out_within_the_total_deadline() {
    let fake = fake().await;
    for scenario in [
        Scenario::on("/journey").delay_ms(3_000),
        Scenario::on("/journey").body(BodyMode::Hang),
    ] {
        let started = Instant::now();
        let policy = RequestPolicy::with_timeout(Duration::from_millis(300));
        let err = send(&fake, Some(scenario), &itinerary(&fake), policy)
            .await
            .unwrap_err();
        assert!(err.is_timeout(), "{err:?}");
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "took {:?}",
            started.elapsed()
        );
    }
}

#[tokio::test]
async fn oversized_bodies_are_refused_declared_or_streamed() {
    let fake = fake().await;
    let policy = RequestPolicy {
        max_body_bytes: 64 * 1024,
        ..fast_policy()
    };
    for mode in [BodyMode::Oversized, BodyMode::OversizedChunked] {
        let scenario = Scenario::on("/journey").body(mode).bytes(1024 * 1024);
        let err = send(&fake, Some(scenario), &itinerary(&fake), policy)
            .await
            .unwrap_err();
        assert_eq!(err, HttpError::TooLarge { limit: 64 * 1024 }, "{mode:?}");
    }
}

#[tokio::test]
async fn truncated_bodies_are_transport_errors_after_retries() {
    let fake = fake().await;
    let scenario = Scenario::on("/journey").body(BodyMode::Truncated);
    let err = send(&fake, Some(scenario), &itinerary(&fake), fast_policy())
        .await
        .unwrap_err();
    assert!(matches!(err, HttpError::Transport { .. }), "{err:?}");
    assert_eq!(fake.requests().len(), 3);
}

#[tokio::test]
async fn malformed_bodies_arrive_and_fail_to_parse() {
    let fake = fake().await;
    let response = send_itinerary(&fake, Scenario::on("/journey").body(BodyMode::Malformed)).await;
    assert_eq!(response.status.as_u16(), 200);
    assert!(response.json().is_err());
}

#[tokio::test]
async fn connection_failures_never_show_the_key() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let request = UpstreamRequest::get(format!("http://{closed}/x?k={KEY}"))
        .secret_header(HeaderName::from_static("app_key"), Secret::new(KEY));
    let err = HttpClient::new()
        .unwrap()
        .send(&request, &fast_policy())
        .await
        .unwrap_err();
    assert!(matches!(err, HttpError::Transport { .. }), "{err:?}");
    for shown in [format!("{err}"), format!("{err:?}"), format!("{request:?}")] {
        assert!(!shown.contains(KEY), "{shown}");
    }
}
