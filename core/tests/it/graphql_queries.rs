//! Every GraphQL query the Digitransit tools send is valid against the recorded
//! OpenTripPlanner schema (checked with `apollo-compiler`, a validator independent of the
//! core), a query with a mistake is caught, and each tool sends exactly its query file.
#![allow(
    clippy::disallowed_methods,
    reason = "a test, not a server's async path: it reads the query files with std::fs"
)]

use std::path::PathBuf;

use apollo_compiler::validation::Valid;
use apollo_compiler::{ExecutableDocument, Schema};
use serde_json::{Value, json};
use toolpack::{Config, Toolpack};
use toolpack_testkit::{FakeUpstream, tests_dir};

fn queries_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/digitransit/queries")
}

/// The recorded OTP schema. OTP's SDL is taken as OTP serves it: the queries are what
/// this test validates, not OTP's own definitions.
fn schema() -> Valid<Schema> {
    let path = tests_dir().join("fixtures/digitransit/otp/schema.graphqls");
    let text = std::fs::read_to_string(&path).unwrap();
    let schema = Schema::parse(text, &path).unwrap_or_else(|e| panic!("{e}"));
    Valid::assume_valid(schema)
}

/// The errors of `query` against `schema`, as text (empty when it is valid).
fn errors(schema: &Valid<Schema>, query: &str) -> String {
    match ExecutableDocument::parse_and_validate(schema, query, "query.graphql") {
        Ok(_) => String::new(),
        Err(e) => e.errors.to_string(),
    }
}

/// The shared fragments (`fragments/<file>`) and the spread that selects each.
const FRAGMENTS: [(&str, &str); 2] = [
    ("alert.graphql", "...AlertFields"),
    ("alert_summary.graphql", "...AlertSummaryFields"),
];

/// The query in `name`.graphql as the tool sends it: with each shared fragment appended
/// when it selects it.
fn query(name: &str) -> String {
    let read = |file: &str| std::fs::read_to_string(queries_dir().join(file)).unwrap();
    let mut text = read(&format!("{name}.graphql"));
    for (file, spread) in FRAGMENTS {
        if text.contains(spread) {
            text += &read(&format!("fragments/{file}"));
        }
    }
    text
}

#[test]
fn every_query_file_is_valid_against_the_otp_schema() {
    let mut names: Vec<String> = std::fs::read_dir(queries_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "graphql"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "alerts",
            "departures",
            "find_stops",
            "plan_trip",
            "rental",
            "stop_info",
            "vehicle_route"
        ]
    );
    let schema = schema();
    for name in names {
        let problems = errors(&schema, &query(&name));
        assert!(problems.is_empty(), "{name}: {problems}");
    }
}

#[test]
fn a_query_with_a_mistake_is_caught() {
    let plan = query("plan_trip");
    let broken = plan.replacen("numberOfTransfers", "numberOfTransfer", 1);
    assert_ne!(broken, plan);
    assert!(errors(&schema(), &broken).contains("numberOfTransfer"));
}

#[tokio::test]
async fn each_tool_sends_exactly_its_query() {
    let fake = FakeUpstream::start(&tests_dir().join("fixtures"))
        .await
        .unwrap();
    let config = Config::from_pairs([
        ("DIGITRANSIT_API_KEY", "k".to_owned()),
        ("DIGITRANSIT_BASE_URL", fake.base_url()),
        ("DIGITRANSIT_ROUTER", "hsl".to_owned()),
    ])
    .unwrap();
    let toolpack = Toolpack::new(config).unwrap();
    let schema = schema();
    let calls = [
        (
            "plan_trip",
            "plan_trip",
            json!({
                "origin": {"type": "coords", "value": {"lat": 60.17, "lon": 24.94}},
                "destination": {"type": "coords", "value": {"lat": 60.19, "lon": 24.9}},
            }),
        ),
        (
            "departures",
            "get_departures",
            json!({"stop": {"type": "id", "value": "HSL:2434202"}}),
        ),
        (
            "find_stops",
            "find_stops",
            json!({"coordinate": {"lat": 60.17, "lon": 24.93}}),
        ),
        ("alerts", "get_alerts", json!({})),
        (
            "rental",
            "find_rental_vehicles",
            json!({"coordinate": {"lat": 60.169, "lon": 24.932}}),
        ),
        (
            "stop_info",
            "get_stop_info",
            json!({"stop": {"type": "id", "value": "HSL:1020444"}}),
        ),
    ];
    for (file, tool, arguments) in calls {
        fake.clear_requests();
        let result = toolpack.call_json(tool, arguments).await.unwrap();
        assert!(!result.is_error(), "{tool}: {}", result.body);
        let sent = fake.requests();
        assert_eq!(sent.len(), 1, "{tool}");
        let body: Value = serde_json::from_str(&sent[0].body).unwrap();
        let text = body["query"].as_str().unwrap();
        assert_eq!(text, query(file), "{tool}");
        assert!(errors(&schema, text).is_empty(), "{tool}");
    }
}
