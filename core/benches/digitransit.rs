//! Digitransit end to end against the fake upstream on loopback, interleaved with a bare
//! HTTP request of the same recorded response (see `support`):
//! - `geocode_address` beside a bare GET of the recorded Pelias search;
//! - `plan_trip` beside a bare POST of the same GraphQL body to the recorded OTP answer;
//! - a saved place read by label: SQLite (WAL) beside PostgreSQL on loopback (a throwaway
//!   cluster, testkit `PgCluster`; SQLite alone when PostgreSQL is not installed).
//!
//! Run: `cargo bench -p toolpack --bench digitransit`.

mod support;

use std::hint::black_box;
use std::time::Instant;

use serde_json::json;
use toolpack::digitransit::{
    Coordinate, GeocodeAddressRequest, PlaceRef, PlanTripRequest, TripTime,
};
use toolpack::{Config, Toolpack};

const KEY: &str = "bench-key";

/// The `plan_trip` GraphQL query, as the tool sends it.
const PLAN_TRIP_QUERY: &str = include_str!("../src/digitransit/queries/plan_trip.graphql");

fn plan_request() -> PlanTripRequest {
    PlanTripRequest {
        origin: PlaceRef::Coords {
            value: Coordinate::new(60.170384, 24.939846),
        },
        destination: PlaceRef::Coords {
            value: Coordinate::new(60.194445, 24.904976),
        },
        when: Some(TripTime {
            r#type: None,
            time: Some("2021-06-29T17:05:00+03:00".into()),
        }),
        constraints: None,
        limit: None,
        include_disruption_alt: None,
    }
}

fn main() {
    let rounds = support::rounds();
    let runtime = support::runtime();
    let fake = support::fake_upstream(&runtime);
    let data_dir = tempfile::tempdir().unwrap();
    let config = |database_url: Option<String>| {
        let builder = Config::builder()
            .digitransit_base_url(fake.base_url())
            .digitransit_api_key(KEY)
            .digitransit_router(toolpack::config::DigitransitRouter::Hsl)
            .data_dir(data_dir.path())
            // Rate limits and the shared cache off: the benchmark calls far faster than 5
            // per second, and measures the tools' work on every answer.
            .default_rate_limit(0)
            .upstream_cache_bytes(0);
        match database_url {
            Some(url) => builder
                .database_url(url)
                .database(toolpack_postgres::engine())
                .build(),
            None => builder.build(),
        }
    };
    let toolpack = Toolpack::new(config(None)).unwrap();
    let cluster = toolpack_testkit::postgres::PgCluster::start();
    let on_postgres = cluster
        .as_ref()
        .map(|cluster| Toolpack::new(config(Some(cluster.create_database()))).unwrap());
    toolpack::http::install_crypto_provider();
    let bare = reqwest::Client::new();
    let search_url = format!("{}/geocoding/v1/search", fake.base_url());
    let graphql_url = format!("{}/routing/v2/hsl/gtfs/v1", fake.base_url());
    let graphql_body = json!({
        "query": PLAN_TRIP_QUERY,
        "operationName": "PlanTrip",
        "variables": {"origin": {"location": {"coordinate": {"latitude": 60.170384, "longitude": 24.939846}}}},
    });

    let mut geocode = support::Laps::new(
        &[
            "bare HTTP GET",
            "geocode_address, typed",
            "geocode_address, JSON",
        ],
        rounds,
    );
    let mut plan = support::Laps::new(
        &["bare HTTP POST", "plan_trip, typed", "plan_trip, JSON"],
        rounds,
    );
    let stores: &[&str] = if on_postgres.is_some() {
        &["SQLite (WAL)", "PostgreSQL (loopback)"]
    } else {
        &["SQLite (WAL)"]
    };
    let mut label = support::Laps::new(stores, rounds);
    runtime.block_on(async {
        for store in std::iter::once(&toolpack).chain(&on_postgres) {
            let saved = store
                .call_json(
                    "save_user_variable",
                    json!({"key": "home", "type": "location", "value": {"lat": 60.17, "lon": 24.94}}),
                )
                .await
                .unwrap();
            assert!(!saved.is_error(), "{}", saved.body);
        }
        for round in 0..geocode.total_rounds(rounds) {
            let t0 = Instant::now();
            let response = bare
                .get(&search_url)
                .query(&[("text", "kamppi"), ("size", "10"), ("lang", "en")])
                .header("digitransit-subscription-key", KEY)
                .send()
                .await
                .unwrap();
            black_box(response.bytes().await.unwrap());
            let t1 = Instant::now();
            let typed = toolpack
                .geocode_address(GeocodeAddressRequest {
                    text: "kamppi".into(),
                    size: None,
                    language: None,
                    focus: None,
                    layers: None,
                })
                .await;
            assert!(typed.into_result().is_ok());
            let t2 = Instant::now();
            let result = toolpack
                .call_json("geocode_address", json!({"text": "kamppi"}))
                .await
                .unwrap();
            black_box(result);
            geocode.record(round, &[t0, t1, t2, Instant::now()]);

            let t0 = Instant::now();
            let response = bare
                .post(&graphql_url)
                .header("digitransit-subscription-key", KEY)
                .json(&graphql_body)
                .send()
                .await
                .unwrap();
            black_box(response.bytes().await.unwrap());
            let t1 = Instant::now();
            let typed = toolpack.plan_trip(plan_request()).await;
            assert!(typed.into_result().is_ok());
            let t2 = Instant::now();
            let arguments = serde_json::to_value(plan_request()).unwrap();
            let result = toolpack.call_json("plan_trip", arguments).await.unwrap();
            black_box(result);
            plan.record(round, &[t0, t1, t2, Instant::now()]);

            let mut marks = vec![Instant::now()];
            for store in std::iter::once(&toolpack).chain(&on_postgres) {
                let home = store.user_variable("home").await.unwrap();
                assert!(home.is_some());
                marks.push(Instant::now());
            }
            label.record(round, &marks);

            if round % 1000 == 0 {
                fake.clear_requests();
            }
        }
    });
    geocode.report("geocode_address vs bare GET of the same recorded Pelias search");
    plan.report("plan_trip vs bare POST of the same GraphQL body (recorded OTP answer)");
    label.report("saved place read by label: SQLite (WAL, on a blocking thread), then PostgreSQL");
    drop(cluster);
}
