//! `planJourney` behaviour the shared vectors cannot express: the typed API, what is
//! sent without a key, never sleeping through a long `Retry-After`, and the schemas.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use toolpack::tfl::{JourneyPlanRequest, PlanJourneyCode};
use toolpack::{Catalog, Config, Toolpack};
use toolpack_testkit::{FakeUpstream, Scenario};

const BANK: &str = "Bank Underground Station";
const MILE_END: &str = "Mile End Underground Station";

async fn fake() -> FakeUpstream {
    FakeUpstream::start(&toolpack_testkit::default_fixtures_dir())
        .await
        .unwrap()
}

fn toolpack(fake: &FakeUpstream, key: Option<&str>) -> Toolpack {
    let mut config = Config::builder()
        .tfl_api_base_url(fake.base_url())
        .default_rate_limit(0);
    if let Some(key) = key {
        config = config.tfl_api_key(key);
    }
    Toolpack::new(config.build()).unwrap()
}

#[tokio::test]
async fn typed_and_json_calls_agree() {
    let fake = fake().await;
    let toolpack = toolpack(&fake, Some("k"));
    let typed = toolpack
        .plan_journey(JourneyPlanRequest::new(BANK, MILE_END))
        .await;
    assert!(typed.success);
    assert_eq!(typed.code, PlanJourneyCode::Ok);
    let journeys = typed.top_journeys.as_ref().unwrap();
    assert_eq!(
        journeys
            .iter()
            .map(|j| j.duration_minutes)
            .collect::<Vec<_>>(),
        [Some(7), Some(7), Some(7), Some(60)]
    );
    let json = toolpack
        .call_json("planJourney", json!({"from": BANK, "to": MILE_END}))
        .await
        .unwrap();
    // Both say what they were served from: the typed call's answer, from the cache.
    assert!(
        json.body.get("stale").is_none(),
        "a fresh answer says nothing of staleness"
    );
    assert!(json.body["asOf"].as_str().unwrap().ends_with('Z'));
    assert_eq!(json.body, serde_json::to_value(&typed).unwrap());
}

#[tokio::test]
async fn without_a_key_no_app_key_header_is_sent() {
    let fake = fake().await;
    let answer = toolpack(&fake, None)
        .plan_journey(JourneyPlanRequest::new(BANK, MILE_END))
        .await;
    assert!(answer.success, "{answer:?}");
    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    assert!(!requests[0].headers.contains_key("app_key"));
    assert!(!requests[0].query.contains_key("app_key"));
}

#[tokio::test]
async fn a_long_retry_after_is_returned_not_slept_through() {
    let fake = fake().await;
    fake.push_scenario(
        Scenario::on("/journey")
            .status(503)
            .retry_after("120")
            .json(json!({"message": "down"})),
    );
    let started = Instant::now();
    let answer = toolpack(&fake, Some("k"))
        .plan_journey(JourneyPlanRequest::new(BANK, MILE_END))
        .await;
    assert_eq!(answer.code, PlanJourneyCode::UpstreamError);
    assert!(answer.message.contains("Retry after 120 s"), "{answer:?}");
    // The alternative is a 120 s sleep; the bound only has to tell the two apart.
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(fake.requests().len(), 1);
}

#[test]
fn the_default_timeout_is_ten_seconds_unless_overridden() {
    let config = Config::default();
    assert_eq!(
        config.upstream_timeout(toolpack::tfl::PLAN_JOURNEY_DEFAULT_TIMEOUT),
        Duration::from_secs(10)
    );
    let overridden = Config::from_pairs([("TOOLPACK_UPSTREAM_TIMEOUT_MS", "1234")]).unwrap();
    assert_eq!(
        overridden.upstream_timeout(toolpack::tfl::PLAN_JOURNEY_DEFAULT_TIMEOUT),
        Duration::from_millis(1234)
    );
}

#[test]
fn schemas_match_the_contract() {
    let entry = Catalog::get().find("planJourney").unwrap();
    let input = Value::Object((*entry.input_schema).clone());
    assert_eq!(input["required"], json!(["from", "to"]));
    // Closed in the contract type; the served form leaves unknown fields to the core.
    assert_eq!(
        entry.input_type_schema["additionalProperties"],
        json!(false)
    );
    assert_eq!(input.get("additionalProperties"), None);
    assert!(input["properties"]["needAccessibleRoute"].is_object());
    let output = Value::Object((*entry.output_schema).clone());
    for field in [
        "success",
        "code",
        "message",
        "topJourneys",
        "fromLocationDisambiguation",
        "toLocationDisambiguation",
    ] {
        assert!(
            output["properties"].get(field).is_some(),
            "output lacks {field}"
        );
    }
    let codes = serde_json::to_string(&output).unwrap();
    for code in [
        "OK",
        "VALIDATION_ERROR",
        "DISAMBIGUATION_REQUIRED",
        "RATE_LIMIT_EXCEEDED",
        "UPSTREAM_TIMEOUT",
        "UPSTREAM_ERROR",
        "INTERNAL_ERROR",
    ] {
        assert!(codes.contains(&format!("\"{code}\"")), "{code}");
    }
    assert!(
        entry
            .spec
            .description
            .contains("accessibilityPreference=StepFreeToVehicle")
    );
    assert!(entry.spec.annotations.read_only && entry.spec.annotations.open_world);
}

#[tokio::test]
async fn debug_output_of_a_configured_toolpack_hides_the_key() {
    let fake = fake().await;
    let toolpack = toolpack(&fake, Some("very-secret-key-42"));
    let shown = format!("{toolpack:?}");
    assert!(!shown.contains("very-secret-key-42"), "{shown}");
}

#[tokio::test]
async fn local_calls_answer_on_the_first_poll_and_upstream_calls_are_handed_back() {
    let fake = fake().await;
    let toolpack = toolpack(&fake, Some("k"));
    let victoria = || json!({"stationName": "Victoria"});
    // The first call loads the station data on a blocking thread, so it has to wait.
    let first = toolpack.call_json_now_or_later("stationToilets".into(), victoria());
    let loaded = first.expect_err("loading the station data waits").await;
    assert_eq!(loaded.unwrap().body["code"], "OK");
    let Ok(answered) = toolpack.call_json_now_or_later("stationToilets".into(), victoria()) else {
        panic!("with the data loaded, a local lookup is answered on its first poll")
    };
    assert_eq!(answered.unwrap().body["stationUniqueId"], "HUBVIC");
    let later = toolpack
        .call_json_now_or_later("planJourney".into(), json!({"from": BANK, "to": MILE_END}));
    let pending = later.expect_err("an upstream call has to wait");
    assert_eq!(pending.await.unwrap().body["code"], "OK");
    assert!(matches!(
        toolpack.call_json_now_or_later("noSuchTool".into(), json!({})),
        Ok(Err(toolpack::UnknownTool(_)))
    ));
}

/// Answers each question with the choice at a fixed place (`None`: nobody picks), and
/// keeps the questions.
struct Picks(
    Vec<Option<usize>>,
    std::sync::Mutex<Vec<toolpack::ask::Question>>,
);

impl toolpack::ask::Asker for Picks {
    fn ask<'a>(&'a self, question: &'a toolpack::ask::Question) -> toolpack::ask::AskFuture<'a> {
        let mut asked = self.1.lock().unwrap();
        let pick = self.0.get(asked.len()).copied().flatten();
        asked.push(question.clone());
        let value = pick.map(|i| question.choices[i].value.clone());
        Box::pin(async move { value })
    }
}

/// A fake upstream whose journey planner answers `disambiguation` (a 300) once, then the
/// Bank → Mile End itinerary: the latest scenario applies first.
async fn ambiguous_once(disambiguation: &str) -> FakeUpstream {
    let fake = fake().await;
    fake.push_scenario(
        Scenario::on("/journey").file("tfl/journey/itinerary-200-bank-to-mile-end-2015.json"),
    );
    fake.push_scenario(
        Scenario::on("/journey")
            .status(300)
            .file(format!("tfl/journey/{disambiguation}"))
            .times(1),
    );
    fake
}

async fn ambiguous_both_sides(
    picks: Vec<Option<usize>>,
) -> (Value, Vec<String>, Vec<toolpack::ask::Question>) {
    let fake = ambiguous_once("synthetic-disambiguation-300-from-and-to.json").await;
    let asker = std::sync::Arc::new(Picks(picks, Default::default()));
    let toolpack = toolpack(&fake, Some("k"));
    let call = toolpack.call_json(
        "planJourney",
        json!({"from": "Kings Cross", "to": "Victoria"}),
    );
    let answer = toolpack::ask::with_asker(Some(asker.clone()), call)
        .await
        .unwrap();
    let journeys = fake
        .requests()
        .into_iter()
        .filter(|r| r.path.to_ascii_lowercase().starts_with("/journey"))
        .map(|r| r.path)
        .collect();
    let asked = asker.1.lock().unwrap().clone();
    (answer.body, journeys, asked)
}

#[tokio::test]
async fn a_person_picks_each_ambiguous_side_and_the_journey_is_planned_in_the_same_call() {
    let (body, journeys, asked) = ambiguous_both_sides(vec![Some(0), Some(1)]).await;
    assert_eq!(body["code"], "OK", "{body}");
    assert_eq!(
        asked.iter().map(|q| q.field.as_str()).collect::<Vec<_>>(),
        ["from", "to"]
    );
    assert_eq!(
        asked[0].message,
        "Which place do you mean by \"Kings Cross\" (from)?"
    );
    // The best match first, each titled by its name and modes, five at most.
    assert_eq!(asked[0].choices.len(), 5);
    assert_eq!(asked[0].choices[0].value, "940GZZLUKSX");
    assert_eq!(asked[1].choices[1].value, "1000248");
    assert_eq!(
        asked[1].choices[1].title,
        "Victoria Station — bus, tube, national-rail"
    );
    // One request with the names, then one with the picks.
    assert_eq!(journeys.len(), 2, "{journeys:?}");
    assert_eq!(
        journeys[1],
        "/Journey/JourneyResults/940GZZLUKSX/to/1000248"
    );
}

#[tokio::test]
async fn when_nobody_picks_the_answer_is_the_disambiguation_as_always() {
    for picks in [vec![None], vec![Some(0), None]] {
        let asked_sides = picks.len();
        let (body, journeys, asked) = ambiguous_both_sides(picks).await;
        assert_eq!(body["code"], "DISAMBIGUATION_REQUIRED", "{body}");
        assert_eq!(
            body["fromLocationDisambiguation"][0]["parameterValue"],
            "940GZZLUKSX"
        );
        assert_eq!(
            asked.len(),
            asked_sides,
            "a side nobody picks ends the asking"
        );
        assert_eq!(journeys.len(), 1, "{journeys:?}");
    }
}

#[tokio::test]
async fn an_ambiguous_via_is_asked_and_the_pick_is_sent_as_via_with_the_other_wishes() {
    let fake = ambiguous_once("synthetic-disambiguation-300-via.json").await;
    let asker = std::sync::Arc::new(Picks(vec![Some(0)], Default::default()));
    let toolpack = toolpack(&fake, Some("k"));
    let call = toolpack.call_json(
        "planJourney",
        json!({"from": "Bank Underground Station", "to": "Mile End Underground Station",
               "via": "Angel", "modes": ["tube"], "time": "2026-12-05T08:30"}),
    );
    let answer = toolpack::ask::with_asker(Some(asker.clone()), call)
        .await
        .unwrap();
    let body = answer.body;
    assert_eq!(body["code"], "OK", "{body}");
    assert_eq!(body["requested"]["via"], "1000007", "{body}");
    assert_eq!(body["requested"]["time"], "2026-12-05T08:30:00+00:00");
    let asked = asker.1.lock().unwrap().clone();
    assert_eq!(
        asked.iter().map(|q| q.field.as_str()).collect::<Vec<_>>(),
        ["via"],
        "the ends that resolved are not asked"
    );
    assert_eq!(
        asked[0].message,
        "Which place do you mean by \"Angel\" (via)?"
    );
    let queries: Vec<_> = fake
        .requests()
        .into_iter()
        .filter(|r| r.path.to_ascii_lowercase().starts_with("/journey"))
        .map(|r| r.query)
        .collect();
    assert_eq!(queries.len(), 2, "{queries:?}");
    assert_eq!(queries[0]["via"], "Angel");
    assert_eq!(queries[1]["via"], "1000007");
    for query in &queries {
        assert_eq!(query["mode"], "tube");
        assert_eq!(query["time"], "0830");
    }
}
