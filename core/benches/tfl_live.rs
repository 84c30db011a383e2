//! The live TfL tools end to end against the fake upstream on loopback, each beside a bare
//! HTTP GET of the same recorded answer, interleaved (see `support`): the median of the
//! paired differences is the tool's own work (validate, build the request, read TfL's body,
//! filter, sort, shape the answer). The shared layer's cache is off for that toolpack; a
//! second toolpack with the cache on answers the same call from it, which is compared
//! with the tool's own work (issue 44's bound: a hit costs at most 10 µs more), and then
//! called through the Rust API with its typed request: the tool's work with the answer at
//! hand, without the catalog's JSON (issue 42's bound: at most 50 µs).
//! `bikePoints` reads 800 docks, as London has: the 25 recorded ones
//! (`tests/fixtures/tfl/bike-point/all-first25-2017.json`), copied 32 times with new ids,
//! each copy moved across central London. `timetable` reads the recorded Poplar timetable
//! (1,400 departures on two routes) and lists those between 23:00 and 01:00. `crowding`
//! reads King's Cross's recorded typical week (7 days of 96 quarter hours) and live figure.
//! Run: `cargo bench -p toolpack --bench tfl_live`.

mod support;

use std::hint::black_box;
use std::time::Instant;

use serde_json::{Value, json};
use toolpack::{Config, Toolpack};

/// Each tool, its arguments, and the path of the one upstream request they make.
const CASES: &[(&str, &str, &str)] = &[
    (
        "lineStatus",
        "{}",
        "/Line/Mode/tube,elizabeth-line,overground,dlr,tram/Status?detail=false",
    ),
    (
        "arrivals",
        r#"{"stop": "940GZZLUOXC"}"#,
        "/StopPoint/940GZZLUOXC/Arrivals",
    ),
    (
        "stopSearch",
        r#"{"query": "Bank"}"#,
        "/StopPoint/Search/Bank?maxResults=10",
    ),
    (
        "bikePoints",
        r#"{"lat": 51.5246, "lon": -0.1101, "radius": 1000}"#,
        "/BikePoint",
    ),
    (
        "lineRoute",
        r#"{"line": "victoria", "direction": "inbound"}"#,
        "/Line/victoria/Route/Sequence/inbound?serviceTypes=Regular&excludeCrowding=true",
    ),
    ("liftOutages", "{}", "/Disruptions/Lifts/v2"),
    (
        "timetable",
        r#"{"line": "dlr", "stop": "940GZZDLPOP", "direction": "outbound", "after": "23:00", "before": "01:00"}"#,
        "/Line/dlr/Timetable/940GZZDLPOP?direction=outbound",
    ),
    // Two upstream requests with the cache off (the typical week, then the live figure):
    // its own-work lap holds a second GET; its cache hits are the tool's work alone.
    (
        "crowding",
        r#"{"station": "940GZZLUKSX"}"#,
        "/crowding/940GZZLUKSX/Live",
    ),
];

fn main() {
    let rounds = support::rounds();
    let runtime = support::runtime();
    let fake = support::fake_upstream(&runtime);
    let config = Config::builder()
        .tfl_api_base_url(fake.base_url())
        .tfl_api_key("bench-key")
        // Rate limits and the key's budget off: the benchmark calls far faster.
        .default_rate_limit(0)
        .upstream_budget_per_minute(toolpack::Toolset::Tfl, 0)
        .build();
    let cached = Toolpack::new(config.clone()).unwrap();
    let toolpack = Toolpack::new(config.to_builder().upstream_cache_bytes(0).build()).unwrap();
    fake.push_scenario(toolpack_testkit::Scenario::on("/BikePoint").json(eight_hundred_docks()));
    toolpack::http::install_crypto_provider();
    let bare = reqwest::Client::new();
    for (tool, arguments, path) in CASES {
        let arguments: Value = serde_json::from_str(arguments).unwrap();
        let url = format!("{}{path}", fake.base_url());
        let mut laps = support::Laps::new(
            &[
                "bare HTTP GET",
                "tool, catalog JSON",
                "tool, a cache hit",
                "typed call, a cache hit",
            ],
            rounds,
        );
        runtime.block_on(async {
            for round in 0..laps.total_rounds(rounds) {
                let t0 = Instant::now();
                let response = bare
                    .get(&url)
                    .header("app_key", "bench-key")
                    .send()
                    .await
                    .unwrap();
                black_box(response.bytes().await.unwrap());
                let t1 = Instant::now();
                let answer = toolpack.call_json(tool, arguments.clone()).await.unwrap();
                assert_eq!(
                    answer.body["code"],
                    json!("OK"),
                    "{tool}: {:?}",
                    answer.body
                );
                black_box(answer);
                let t2 = Instant::now();
                black_box(cached.call_json(tool, arguments.clone()).await.unwrap());
                let t3 = Instant::now();
                typed_call(&cached, tool, &arguments).await;
                laps.record(round, &[t0, t1, t2, t3, Instant::now()]);
                if round % 1000 == 0 {
                    fake.clear_requests();
                }
            }
        });
        laps.report(&format!("{tool} vs bare GET of the same recorded answer"));
        let hit = laps.medians()[2].1;
        let own_work = laps.added(1);
        println!(
            "  a cache hit {hit:.1} µs vs the tool's own work {own_work:.1} µs: {:+.1} µs",
            hit - own_work
        );
    }
}

/// Calls `tool` on the Rust API with its typed request, read from JSON `arguments` (a
/// little more than a Rust caller's work): the tool's work without the catalog's JSON.
async fn typed_call(toolpack: &Toolpack, tool: &str, arguments: &Value) {
    use toolpack::tfl::*;
    fn request<T: serde::de::DeserializeOwned>(arguments: &Value) -> T {
        serde_json::from_value(arguments.clone()).unwrap()
    }
    match tool {
        "lineStatus" => drop(black_box(
            toolpack.call::<LineStatus>(request(arguments)).await,
        )),
        "arrivals" => drop(black_box(
            toolpack.call::<Arrivals>(request(arguments)).await,
        )),
        "stopSearch" => drop(black_box(
            toolpack.call::<StopSearch>(request(arguments)).await,
        )),
        "bikePoints" => drop(black_box(
            toolpack.call::<BikePoints>(request(arguments)).await,
        )),
        "lineRoute" => drop(black_box(
            toolpack.call::<LineRoute>(request(arguments)).await,
        )),
        "liftOutages" => drop(black_box(
            toolpack.call::<LiftOutages>(request(arguments)).await,
        )),
        "timetable" => drop(black_box(
            toolpack.call::<Timetable>(request(arguments)).await,
        )),
        "crowding" => drop(black_box(
            toolpack.call::<Crowding>(request(arguments)).await,
        )),
        other => panic!("no typed call for {other}"),
    }
}

/// 800 docks: the 25 recorded ones, 32 times, each copy with its own ids and moved by up to
/// about 2 km (a grid of copies around the recorded ones, which are near Clerkenwell).
#[allow(clippy::disallowed_methods)] // set-up, outside the runtime: nothing async waits on it
fn eight_hundred_docks() -> Value {
    let path =
        toolpack_testkit::default_fixtures_dir().join("tfl/bike-point/all-first25-2017.json");
    let recorded: Vec<Value> = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let docks: Vec<Value> = (0..32)
        .flat_map(|copy| {
            let (row, column) = (f64::from(copy / 8) - 1.5, f64::from(copy % 8) - 3.5);
            recorded.iter().map(move |dock| {
                let mut dock = dock.clone();
                let id = format!("{}-{copy}", dock["id"].as_str().unwrap());
                dock["id"] = json!(id);
                dock["lat"] = json!(dock["lat"].as_f64().unwrap() + row * 0.006);
                dock["lon"] = json!(dock["lon"].as_f64().unwrap() + column * 0.008);
                dock
            })
        })
        .collect();
    assert_eq!(docks.len(), 800);
    Value::Array(docks)
}
