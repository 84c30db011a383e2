//! The shared upstream layer, end to end through the tools and the fake upstream: one
//! request serves every caller who asks at once (coalescing) and everyone who asks while
//! it is fresh (the cache); a cached answer stands in for a failing upstream up to its
//! bound, marked `stale` with its `asOf`; the key's budget bounds what the upstream sees; and every live tool of the
//! catalog goes through the layer.

use std::time::{Duration, Instant};

use futures_util::future::join_all;
use serde_json::{Value, json};
use toolpack::http::{AnswerKind, HttpClient, LayerSettings, RequestPolicy, UpstreamRequest};
use toolpack::tfl::{LineStatus, LineStatusRequest};
use toolpack::{Caller, Catalog, Config, Scopes, Toolpack};
use toolpack_testkit::vectors::load_all;
use toolpack_testkit::{FakeUpstream, Scenario, tests_dir};

async fn fake() -> FakeUpstream {
    FakeUpstream::start(&tests_dir().join("fixtures"))
        .await
        .unwrap()
}

fn toolpack(fake: &FakeUpstream, settings: &[(&str, &str)]) -> Toolpack {
    let base = fake.base_url();
    let mut pairs = vec![
        ("DIGITRANSIT_API_KEY", "k"),
        ("DIGITRANSIT_BASE_URL", base.as_str()),
        ("DIGITRANSIT_ROUTER", "hsl"),
        ("TFL_API_KEY", "k"),
        ("TFL_API_BASE_URL", base.as_str()),
    ];
    pairs.extend_from_slice(settings);
    Toolpack::new(Config::from_pairs(pairs).unwrap()).unwrap()
}

fn departures(stop: &str) -> Value {
    json!({"stop": {"type": "id", "value": stop}})
}

/// `calls` callers, each its own (so no caller's own rate limit applies), ask for the
/// departures of `stops[i % stops.len()]` at once; their answers' codes.
async fn wave(toolpack: &Toolpack, calls: usize, stops: &[String]) -> Vec<Value> {
    let answers = join_all((0..calls).map(|i| {
        let caller = toolpack.for_caller(Caller::new(format!("caller-{i}"), Scopes::ALL).unwrap());
        let arguments = departures(&stops[i % stops.len()]);
        async move { caller.call_json("get_departures", arguments).await.unwrap() }
    }))
    .await;
    answers.into_iter().map(|a| a.body).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_callers_cost_one_request_then_none_and_a_hundred_stops_cost_a_hundred() {
    let fake = fake().await;
    let toolpack = toolpack(&fake, &[]);
    // The upstream answers slowly, so every call of the first wave is in flight at once.
    fake.push_scenario(Scenario::on("/routing").delay_ms(300));
    let one_stop = ["HSL:2434202".to_owned()];
    let first = wave(&toolpack, 1000, &one_stop).await;
    assert_eq!(fake.requests().len(), 1, "coalesced into one request");
    // Each call has its own correlation id; the rest of every answer is the same, its
    // `dataFreshness` and `asOf` included (the time the one answer was fetched).
    let without_id = |a: &Value| {
        let mut a = a.clone();
        a.as_object_mut().unwrap().remove("correlationId");
        a
    };
    let odd = first
        .iter()
        .find(|a| without_id(a) != without_id(&first[0]));
    assert!(odd.is_none(), "{}\n{}", first[0], odd.unwrap());
    assert!(first[0]["departures"].is_array(), "{}", first[0]);

    fake.clear_requests();
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let second = wave(&toolpack, 1000, &one_stop).await;
    assert_eq!(
        fake.requests().len(),
        0,
        "the second wave is answered from the cache"
    );
    // From the cache, over a second later: still the time it was fetched.
    assert_eq!(without_id(&second[0]), without_id(&first[0]));
    let seconds = |field: &str| {
        let text = second[0][field].as_str().unwrap_or_default().to_owned();
        text.parse::<jiff::Timestamp>()
            .unwrap_or_else(|_| panic!("{field} is a time: {text}"))
            .as_second()
    };
    assert_eq!(
        seconds("dataFreshness"),
        seconds("asOf"),
        "Helsinki time and UTC name the one instant"
    );

    fake.clear_requests();
    let stops: Vec<String> = (0..100).map(|i| format!("HSL:{}", 1_000_000 + i)).collect();
    wave(&toolpack, 1000, &stops).await;
    assert_eq!(fake.requests().len(), 100, "one request for each stop");
}

#[tokio::test]
async fn a_typed_answer_carries_as_of_and_stale_as_the_json_does() {
    let fake = fake().await;
    let toolpack = toolpack(&fake, &[]);
    let typed = toolpack
        .call::<LineStatus>(LineStatusRequest::default())
        .await;
    let served = typed
        .served
        .clone()
        .expect("a live answer says when it was fetched");
    assert!(!served.stale);
    let json = toolpack
        .call_json("lineStatus", json!({}))
        .await
        .unwrap()
        .body;
    assert_eq!(
        json["asOf"],
        served.as_of.as_str(),
        "the cached answer's fetch time"
    );
    assert!(json.get("stale").is_none());
    assert_eq!(serde_json::to_value(&typed).unwrap()["asOf"], json["asOf"]);
    // An offline tool's answer has neither.
    let offline = toolpack
        .call_json("stationToilets", json!({"station": "Oxford Circus"}))
        .await
        .unwrap()
        .body;
    assert!(offline.get("asOf").is_none(), "{offline}");
}

#[tokio::test]
async fn a_cached_answer_stands_in_for_a_failing_upstream_up_to_its_bound_then_the_error_shows() {
    let fake = fake().await;
    let toolpack = toolpack(
        &fake,
        &[
            ("TOOLPACK_FRESH_LINE_STATUS_SECONDS", "1"),
            ("TOOLPACK_STALE_IF_ERROR_SECONDS", "1"),
        ],
    );
    let good = toolpack.call_json("lineStatus", json!({})).await.unwrap();
    assert_eq!(good.body["code"], "OK");
    fake.push_scenario(Scenario::on("/Line").status(503));
    // Fresh: no request at all.
    fake.clear_requests();
    assert_eq!(
        toolpack
            .call_json("lineStatus", json!({}))
            .await
            .unwrap()
            .body,
        good.body
    );
    assert_eq!(fake.requests().len(), 0);
    // Past fresh, inside the stale bound: the upstream fails and the cached answer stands in.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let stood_in = toolpack.call_json("lineStatus", json!({})).await.unwrap();
    assert!(good.body.get("stale").is_none());
    assert_eq!(stood_in.body["stale"], true, "marked stale");
    assert_eq!(
        stood_in.body["asOf"], good.body["asOf"],
        "with the time it was fetched"
    );
    assert_eq!(stood_in.body["lines"], good.body["lines"]);
    assert!(!fake.requests().is_empty(), "the upstream was asked first");
    // Past the stale bound: the contract's upstream error.
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let failed = toolpack.call_json("lineStatus", json!({})).await.unwrap();
    assert_eq!(failed.body["code"], "UPSTREAM_ERROR", "{}", failed.body);
}

#[tokio::test]
async fn a_stale_answer_says_so_with_the_time_it_was_fetched_and_a_broken_answer_is_never_kept() {
    let fake = fake().await;
    let settings = LayerSettings {
        stale_for: Duration::from_secs(60),
        ..LayerSettings::default()
    };
    let client = HttpClient::with_layer(settings).unwrap();
    let url = format!("{}/Disruptions/Lifts/v2", fake.base_url());
    let request = UpstreamRequest::get(url).answer_kind(AnswerKind::Disruptions);
    let policy = RequestPolicy::with_timeout(Duration::from_secs(5));
    // A body that is not JSON is not kept: the next request goes upstream again.
    fake.push_scenario(
        Scenario::on("/Disruptions")
            .body(toolpack_testkit::BodyMode::Malformed)
            .times(1),
    );
    let broken = client.send(&request, &policy).await.unwrap();
    assert!(broken.json().is_err());
    let fresh = client.send(&request, &policy).await.unwrap();
    assert_eq!(fake.requests().len(), 2);
    assert!(!fresh.is_stale());
    let fetched = fresh.as_of();
    // A fresh hit keeps the fetch time.
    let hit = client.send(&request, &policy).await.unwrap();
    assert_eq!((hit.as_of(), hit.is_stale()), (fetched, false));
    assert_eq!(fake.requests().len(), 2);
}

#[tokio::test]
async fn over_budget_a_burst_waits_then_is_refused_and_the_upstream_never_sees_more() {
    let fake = fake().await;
    let toolpack = toolpack(
        &fake,
        &[
            ("TFL_API_BUDGET_PER_MINUTE", "2"),
            ("TOOLPACK_UPSTREAM_BUDGET_WAIT_MS", "0"),
            ("TOOLPACK_RATE_LIMIT_PER_SECOND", "0"),
        ],
    );
    let lines = ["central", "victoria", "jubilee", "northern", "district"];
    let mut codes = Vec::new();
    for line in lines {
        let answer = toolpack
            .call_json("lineStatus", json!({"lines": [line]}))
            .await
            .unwrap();
        codes.push(answer.body["code"].as_str().unwrap().to_owned());
    }
    // The first call spends both requests (an unknown line asks for the known ones too).
    assert_eq!(
        fake.requests().len(),
        2,
        "the budget's two requests, no more"
    );
    assert_ne!(codes[0], "RATE_LIMIT_EXCEEDED");
    assert!(
        codes[1..].iter().all(|c| c == "RATE_LIMIT_EXCEEDED"),
        "{codes:?}"
    );

    // A Retry-After pauses the key: the next call waits it out (within the bound), then goes.
    let fake = self::fake().await;
    let toolpack = toolpack_with_wait(&fake);
    fake.push_scenario(Scenario::on("/Line").status(429).retry_after("1").times(1));
    let throttled = toolpack.call_json("lineStatus", json!({})).await.unwrap();
    assert_eq!(
        throttled.body["code"], "UPSTREAM_ERROR",
        "{}",
        throttled.body
    );
    let started = Instant::now();
    let after = toolpack
        .call_json("lineStatus", json!({"modes": ["tube"]}))
        .await
        .unwrap();
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "{:?}",
        started.elapsed()
    );
    assert_ne!(after.body["code"], "RATE_LIMIT_EXCEEDED", "{}", after.body);
    assert!(
        fake.requests().len() >= 2,
        "the second call was sent after the wait"
    );
}

fn toolpack_with_wait(fake: &FakeUpstream) -> Toolpack {
    toolpack(fake, &[("TOOLPACK_UPSTREAM_BUDGET_WAIT_MS", "2000")])
}

/// Every tool that calls an upstream goes through the layer: its first OK vector, asked
/// twice of one toolpack, sends nothing the second time. A new live tool without an OK
/// vector, or one that sends around the layer, fails here.
#[tokio::test]
async fn every_live_tool_of_the_catalog_is_answered_from_the_cache_the_second_time() {
    let fake = fake().await;
    let cases = load_all();
    let live: Vec<&str> = Catalog::get()
        .entries()
        .iter()
        .filter(|e| e.spec.annotations.open_world)
        .map(|e| e.spec.name)
        .collect();
    assert!(live.len() >= 12, "{live:?}");
    for tool in live {
        let case = cases
            .iter()
            .find(|c| {
                c.tool == tool
                    && !c.case.expect.is_error
                    && c.case.upstream.iter().all(|s| s.times.is_none())
                    && c.case.before.is_empty()
                    && c.case.calls_before == 0
                    && c.case.caller.is_none()
            })
            .unwrap_or_else(|| panic!("{tool}: no OK vector to ask twice"));
        let temp = tempfile::tempdir().unwrap();
        let settings = case.case.settings(&fake.base_url(), temp.path());
        let config = Config::from_pairs(settings).unwrap();
        let toolpack = Toolpack::new(config).unwrap();
        fake.clear_scenarios();
        case.case
            .upstream
            .iter()
            .cloned()
            .for_each(|s| fake.push_scenario(s));
        fake.clear_requests();
        let first = toolpack
            .call_json(tool, case.case.arguments.clone())
            .await
            .unwrap();
        assert!(!first.is_error(), "{}: {}", case.label(), first.body);
        let sent = fake.requests().len();
        assert!(sent > 0, "{}: no upstream request", case.label());
        let second = toolpack
            .call_json(tool, case.case.arguments.clone())
            .await
            .unwrap();
        assert_eq!(second.is_error(), first.is_error(), "{}", case.label());
        assert_eq!(
            fake.requests().len(),
            sent,
            "{}: asked the upstream again",
            case.label()
        );
    }
}
