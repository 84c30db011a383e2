//! The station tools ask the person which station a name means ([`toolpack::ask`]):
//! `liftOutages`, a live tool, titles the choices with TfL's lines; `stationToilets` stays
//! offline and titles them with what its data knows; `plan_trip` asks which place a name
//! means when it fits places far apart. A pick answers in the same call.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use toolpack::ask::{AskFuture, Asker, Question, with_asker};
use toolpack::{Config, Toolpack};
use toolpack_testkit::{FakeUpstream, Scenario};

/// Picks the choice whose title ends with `.0` (none when no title does), keeping each
/// question.
struct PicksTitled(&'static str, Mutex<Vec<Question>>);

impl Asker for PicksTitled {
    fn ask<'a>(&'a self, question: &'a Question) -> AskFuture<'a> {
        self.1.lock().unwrap().push(question.clone());
        let value = question
            .choices
            .iter()
            .find(|choice| choice.title.ends_with(self.0))
            .map(|choice| choice.value.clone());
        Box::pin(async move { value })
    }
}

/// The two Edgware Roads as TfL's `/StopPoint/{ids}` lists them (trimmed to the fields
/// read; synthetic, in TfL's StopPoint shape, as arrivals' vector has them).
fn edgware_roads() -> Value {
    let line = |id: &str, name: &str| json!({"id": id, "name": name});
    json!([
        {"naptanId": "940GZZLUERB", "modes": ["tube"], "lines": [line("bakerloo", "Bakerloo")]},
        {"naptanId": "940GZZLUERC", "modes": ["tube"], "lines": [
            line("circle", "Circle"),
            line("district", "District"),
            line("hammersmith-city", "Hammersmith & City"),
        ]},
    ])
}

async fn call(
    fake: &FakeUpstream,
    tool: &str,
    arguments: Value,
    picks: &'static str,
) -> (Value, Vec<Question>, Vec<String>) {
    let config = Config::builder()
        .tfl_api_base_url(fake.base_url())
        .default_rate_limit(0)
        .build();
    let toolpack = Toolpack::new(config).unwrap();
    let asker = Arc::new(PicksTitled(picks, Mutex::default()));
    let answer = with_asker(Some(asker.clone()), toolpack.call_json(tool, arguments))
        .await
        .unwrap();
    let paths = fake.requests().into_iter().map(|r| r.path).collect();
    let asked = asker.1.lock().unwrap().clone();
    (answer.body, asked, paths)
}

async fn fake() -> FakeUpstream {
    let fake = FakeUpstream::start(&toolpack_testkit::default_fixtures_dir())
        .await
        .unwrap();
    fake.push_scenario(Scenario::on("/stoppoint/940gzzluerb,940gzzluerc").json(edgware_roads()));
    fake
}

fn titles(question: &Question) -> Vec<&str> {
    question.choices.iter().map(|c| c.title.as_str()).collect()
}

#[tokio::test]
async fn lift_outages_asks_with_the_lines_and_answers_for_the_pick_in_the_same_call() {
    let fake = fake().await;
    let station = json!({"station": "Edgware Road"});
    let (body, asked, paths) = call(&fake, "liftOutages", station, "Hammersmith & City").await;
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].field, "station");
    assert_eq!(
        titles(&asked[0]),
        [
            "Edgware Road — Bakerloo",
            "Edgware Road — Circle, District, Hammersmith & City"
        ]
    );
    assert_eq!(body["code"], "OK", "{body}");
    assert_eq!(
        body["message"],
        "No lift out of service reported at Edgware Road."
    );
    // The lines, then the lifts: two requests.
    assert_eq!(
        paths,
        [
            "/StopPoint/940GZZLUERB,940GZZLUERC",
            "/Disruptions/Lifts/v2"
        ]
    );
}

#[tokio::test]
async fn when_nobody_picks_lift_outages_lists_the_titled_candidates_without_the_lift_request() {
    let fake = fake().await;
    let station = json!({"station": "Edgware Road"});
    let (body, asked, paths) = call(&fake, "liftOutages", station, "nothing matches").await;
    assert_eq!(asked.len(), 1);
    assert_eq!(body["code"], "DISAMBIGUATION_REQUIRED", "{body}");
    assert_eq!(
        body["stationDisambiguation"][1]["title"],
        "Edgware Road — Circle, District, Hammersmith & City"
    );
    assert_eq!(paths, ["/StopPoint/940GZZLUERB,940GZZLUERC"]);
}

#[tokio::test]
async fn station_toilets_asks_offline_with_the_lines_of_the_station_data() {
    let fake = fake().await;
    let station = json!({"stationName": "Bethnal Green"});
    let (body, asked, paths) = call(&fake, "stationToilets", station, "Central").await;
    assert_eq!(
        titles(&asked[0]),
        ["Bethnal Green — Weaver", "Bethnal Green — Central"]
    );
    assert_eq!(body["code"], "OK", "{body}");
    assert_eq!(body["stationUniqueId"], "940GZZLUBLG");
    assert!(paths.is_empty(), "stationToilets stays offline: {paths:?}");
}

/// `plan_trip` with a destination by name that fits two places far apart.
async fn plan_to_koulutie(picks: &'static str) -> (Value, Vec<Question>, Vec<String>) {
    let fake = FakeUpstream::start(&toolpack_testkit::default_fixtures_dir())
        .await
        .unwrap();
    let config = Config::builder()
        .digitransit_api_key("asking-test-key")
        .digitransit_base_url(fake.base_url())
        .default_rate_limit(0)
        .build();
    let toolpack = Toolpack::new(config).unwrap();
    let asker = Arc::new(PicksTitled(picks, Mutex::default()));
    let arguments = json!({
        "origin": {"type": "coords", "value": {"lat": 60.170384, "lon": 24.939846}},
        "destination": "koulutie",
        "when": {"type": "depart", "time": "2021-06-29T17:05:00+03:00"}
    });
    let call = toolpack.call_json("plan_trip", arguments);
    let answer = with_asker(Some(asker.clone()), call).await.unwrap();
    let paths = fake.requests().into_iter().map(|r| r.path).collect();
    let asked = asker.1.lock().unwrap().clone();
    (answer.body, asked, paths)
}

#[tokio::test]
async fn plan_trip_asks_which_place_a_name_means_and_plans_to_the_pick() {
    let (body, asked, paths) = plan_to_koulutie("Vantaa").await;
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].field, "destination");
    assert_eq!(
        titles(&asked[0]),
        ["Koulutie 1, Espoo", "Koulutie 1, Vantaa"]
    );
    assert_eq!(
        body["destination"]["address"], "Koulutie 1, Vantaa",
        "{body}"
    );
    assert_eq!(body["destination"]["rawSource"], "geocode");
    assert_eq!(
        paths,
        ["/geocoding/v1/search", "/routing/v2/finland/gtfs/v1"],
        "one geocoder request, then the plan"
    );
}

#[tokio::test]
async fn when_nobody_picks_plan_trip_answers_disambiguation_required_without_routing() {
    let (body, asked, paths) = plan_to_koulutie("nothing matches").await;
    assert_eq!(asked.len(), 1);
    assert_eq!(body["error"]["code"], "disambiguation-required", "{body}");
    assert_eq!(
        body["error"]["candidates"][1]["label"],
        "Koulutie 1, Vantaa"
    );
    assert_eq!(paths, ["/geocoding/v1/search"]);
}
