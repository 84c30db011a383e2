//! `vehicle_positions` against a real MQTT broker (mosquitto on loopback) fed by a replay
//! of recorded HSL HFP messages, with OTP's route from the fake upstream: many callers,
//! one subscription; a broker that drops, then returns; malformed messages and floods.

use std::time::Duration;

use futures_util::future::join_all;
use serde_json::{Value, json};
use toolpack::{Caller, Config, Scopes, Toolpack};
use toolpack_testkit::mqtt::{Broker, Publisher, Replay, recording};
use toolpack_testkit::{FakeUpstream, tests_dir};

/// The recording of tram 15 (route 2015), replayed 20 times faster than recorded.
const RECORDING: &str = "tram-15-2026-09-29";
const SPEEDUP: u64 = 20;

struct Setup {
    broker: Broker,
    fake: FakeUpstream,
    toolpack: Toolpack,
}

async fn setup(settings: &[(&str, &str)]) -> Option<(Setup, Replay)> {
    let broker = Broker::start()?;
    let replay = Publisher::replay(broker.port(), recording(RECORDING), SPEEDUP);
    let fake = FakeUpstream::start(&tests_dir().join("fixtures"))
        .await
        .unwrap();
    let base = fake.base_url();
    let url = broker.url();
    let mut pairs = vec![
        ("DIGITRANSIT_API_KEY", "k"),
        ("DIGITRANSIT_BASE_URL", base.as_str()),
        ("DIGITRANSIT_ROUTER", "hsl"),
        ("DIGITRANSIT_HFP_URL", url.as_str()),
        ("TOOLPACK_RATE_LIMIT_PER_SECOND", "0"),
    ];
    pairs.extend_from_slice(settings);
    let toolpack = Toolpack::new(Config::from_pairs(pairs).unwrap()).unwrap();
    Some((
        Setup {
            broker,
            fake,
            toolpack,
        },
        replay,
    ))
}

async fn ask(toolpack: &Toolpack, arguments: Value) -> Value {
    toolpack
        .call_json("vehicle_positions", arguments)
        .await
        .unwrap()
        .body
}

fn ids(answer: &Value) -> Vec<String> {
    let mut ids: Vec<String> = answer["vehicles"]
        .as_array()
        .unwrap_or_else(|| panic!("vehicles in {answer}"))
        .iter()
        .map(|v| v["id"].as_str().unwrap().to_owned())
        .collect();
    ids.sort();
    ids
}

/// Asks until `done` holds of the answer (at most 10 s); the last answer.
async fn ask_until(toolpack: &Toolpack, arguments: Value, done: impl Fn(&Value) -> bool) -> Value {
    let mut answer = Value::Null;
    for _ in 0..100 {
        answer = ask(toolpack, arguments.clone()).await;
        if done(&answer) {
            return answer;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("never came: {answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_call_waits_for_positions_and_the_route_reads_as_riders_know_it() {
    let Some((s, _replay)) = setup(&[]).await else {
        return;
    };
    let answer = ask(&s.toolpack, json!({"route": "15"})).await;
    assert_eq!(answer["route"]["gtfsId"], "HSL:2015", "{answer}");
    assert!(answer.get("stale").is_none());
    let vehicles = answer["vehicles"].as_array().unwrap();
    assert!(
        !vehicles.is_empty(),
        "the first call waited for positions: {answer}"
    );
    let v623 = ask_until(&s.toolpack, json!({"route": "HSL:2015"}), |a| {
        ids(a).contains(&"40/623".to_owned())
    })
    .await;
    let v = v623["vehicles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["id"] == "40/623")
        .unwrap();
    assert_eq!(v["line"], "15");
    assert_eq!(v["routeId"], "HSL:2015");
    assert_eq!(v["directionId"], 0);
    assert_eq!(v["headsign"], "Keilaniemi (M)");
    assert_eq!(v["delaySeconds"], 217);
    assert_eq!(v["speed"], 5.46);
    assert_eq!(v["heading"], 127.0);
    assert_eq!(v["nextStop"]["gtfsId"], "HSL:2222405");
    assert_eq!(v["seenAt"], "2026-09-29T07:53:23+03:00");
    assert!(v.get("stale").is_none());
    // Vehicle 621 first reported no position: that message is skipped and counted (once
    // the replay comes round to it).
    for _ in 0..100 {
        if s.toolpack.vehicle_feed_counts().malformed >= 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(s.toolpack.vehicle_feed_counts().malformed >= 1);
    assert_eq!(s.toolpack.vehicle_feed_counts().subscribes, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_concurrent_callers_cost_one_subscription() {
    let Some((s, _replay)) = setup(&[]).await else {
        return;
    };
    let answers = join_all((0..1000).map(|i| {
        let caller = s
            .toolpack
            .for_caller(Caller::new(format!("caller-{i}"), Scopes::ALL).unwrap());
        async move { ask(&caller, json!({"route": "15"})).await }
    }))
    .await;
    for answer in &answers {
        assert_eq!(answer["route"]["shortName"], "15", "{answer}");
    }
    assert_eq!(s.toolpack.vehicle_feed_counts().subscribes, 1);
    // The broker's own count.
    assert_eq!(s.broker.subscription_count().await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_direction_or_a_stop_narrows_the_vehicles() {
    let Some((s, _replay)) = setup(&[]).await else {
        return;
    };
    let both = ask_until(&s.toolpack, json!({"route": "15"}), |a| {
        let ids = ids(a);
        ids.contains(&"40/623".to_owned()) && ids.contains(&"40/618".to_owned())
    })
    .await;
    assert!(both["vehicles"].as_array().unwrap().len() >= 2);
    let inbound = ask(&s.toolpack, json!({"route": "15", "direction": 1})).await;
    for v in inbound["vehicles"].as_array().unwrap() {
        assert_eq!(v["directionId"], 1, "{v}");
    }
    assert!(ids(&inbound).contains(&"40/618".to_owned()));
    let heading = ask_until(&s.toolpack, json!({"stop": "HSL:2222405"}), |a| {
        ids(a) == ["40/623"]
    })
    .await;
    assert!(
        heading["message"]
            .as_str()
            .unwrap()
            .starts_with("1 vehicle heading to "),
        "{heading}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_broker_that_drops_leaves_stale_positions_then_an_error_until_it_returns() {
    let Some((mut s, _replay)) = setup(&[("DIGITRANSIT_HFP_STALE_SECONDS", "2")]).await else {
        return;
    };
    let route = json!({"route": "15"});
    let fresh = ask_until(&s.toolpack, route.clone(), |a| !ids(a).is_empty()).await;
    assert!(fresh.get("stale").is_none());
    s.broker.stop();
    let stale = ask_until(&s.toolpack, route.clone(), |a| a["stale"] == true).await;
    assert!(!ids(&stale).is_empty());
    assert!(stale["vehicles"][0]["stale"] == true);
    assert!(
        stale["message"]
            .as_str()
            .unwrap()
            .contains("cannot be reached"),
        "{stale}"
    );
    let gone = ask_until(&s.toolpack, route.clone(), |a| a.get("error").is_some()).await;
    assert_eq!(gone["error"]["code"], "network-error", "{gone}");
    s.broker.resume();
    let back = ask_until(&s.toolpack, route, |a| {
        a.get("error").is_none() && a.get("stale").is_none() && !ids(a).is_empty()
    })
    .await;
    assert!(back["vehicles"][0].get("stale").is_none());
    assert!(s.toolpack.vehicle_feed_counts().disconnects >= 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_messages_are_skipped_and_a_flood_stays_inside_the_bound() {
    let Some((s, replay)) = setup(&[("DIGITRANSIT_HFP_MAX_VEHICLES", "50")]).await else {
        return;
    };
    drop(replay);
    ask(&s.toolpack, json!({"route": "15"})).await;
    let publisher = Publisher::new(s.broker.port());
    let topic = |vehicle: u32| {
        format!(
            "/hfp/v2/journey/ongoing/vp/tram/0040/{vehicle:05}/2015/1/Keilaniemi (M)/06:54/2222405/3/60;24/18/82/47"
        )
    };
    for garbage in ["{", "[]", r#"{"VP":{"lat":"north"}}"#, ""] {
        publisher.publish(&topic(1), garbage).await;
    }
    publisher
        .publish("/hfp/v2/journey/ongoing/vp/tram/0040", "{}")
        .await;
    let position = |vehicle: u32| {
        json!({"VP": {"desi": "15", "oper": 40, "veh": vehicle, "tst": "2026-09-29T04:53:23.251Z",
            "lat": 60.18, "long": 24.82, "route": "2015"}})
        .to_string()
    };
    for vehicle in 0..500 {
        publisher.publish(&topic(vehicle), position(vehicle)).await;
    }
    let counts = loop {
        let counts = s.toolpack.vehicle_feed_counts();
        if counts.held + counts.over_bound >= 500 {
            break counts;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(counts.vehicles, 50, "{counts:?}");
    assert_eq!(counts.over_bound, 450, "{counts:?}");
    assert!(counts.malformed >= 4, "{counts:?}");
    let answer = ask(&s.toolpack, json!({"route": "15"})).await;
    assert_eq!(answer["vehicles"].as_array().unwrap().len(), 50);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_route_is_asked_of_otp_once_through_the_shared_layer() {
    let Some((s, _replay)) = setup(&[]).await else {
        return;
    };
    s.fake.clear_requests();
    let first = ask(&s.toolpack, json!({"route": "15"})).await;
    assert_eq!(first["route"]["gtfsId"], "HSL:2015", "{first}");
    let second = ask(&s.toolpack, json!({"route": "15"})).await;
    assert_eq!(second["route"]["gtfsId"], "HSL:2015", "{second}");
    assert_eq!(
        s.fake.requests().len(),
        1,
        "the second call's route came from the cache"
    );
    assert_eq!(s.toolpack.vehicle_feed_counts().subscribes, 1);
}
