//! The toolpack demo: calls real tools through the catalog (the path MCP and every
//! binding use) and prints what they return. Offline: no keys, no network.
//! `planJourney` and the Digitransit tools talk real HTTP to the fake upstream on
//! loopback, which replays recorded TfL and Digitransit responses; those answers are
//! labelled as recorded. Saved places and the loko scratch project go to temporary
//! directories, removed at the end.
//!
//! Run: `cargo run -q -p toolpack-examples --bin demo`

use std::io::Write;
use std::process::ExitCode;

use serde_json::{Value, json};
use toolpack::{Catalog, Config, Toolpack};
use toolpack_testkit::FakeUpstream;

/// The key sent to the local replay server (never to TfL or Digitransit).
const DEMO_KEY: &str = "demo-key-for-the-local-replay";

/// The Helsinki trip of the Digitransit recordings: Rautatientori → Mannerheimintie 89.
fn helsinki_trip() -> Value {
    json!({
        "origin": {"type": "label", "value": "home"},
        "destination": {"type": "coords", "value": {"lat": 60.194445, "lon": 24.904976}},
        "when": {"type": "depart", "time": "2021-06-29T17:05:00+03:00"}
    })
}

/// The example calls: (tool, arguments, what it shows). `example` is the loko example
/// project (read only), `scratch` an empty directory the loko calls build a project in.
fn calls(example: &str, scratch: &str) -> Vec<(&'static str, Value, &'static str)> {
    vec![
        (
            "planJourney",
            json!({"from": "Bank Underground Station", "to": "Mile End Underground Station"}),
            "RECORDED TfL response of 2015-10-21, replayed offline: fastest first, ties broken by arrival",
        ),
        (
            "planJourney",
            json!({"from": "Caledonian Road & Barnsbury", "to": "Camden Road"}),
            "RECORDED TfL journey of 2024-02-27, replayed offline: disrupted leg, fare in pence",
        ),
        (
            "planJourney",
            json!({"from": "1000013", "to": "Victoria"}),
            "SYNTHETIC TfL-shaped 300, replayed offline: DISAMBIGUATION_REQUIRED, retry with a parameterValue",
        ),
        (
            "stationToilets",
            json!({"stationName": "Kings Cross"}),
            "free text, no apostrophe, resolves to King's Cross St Pancras",
        ),
        (
            "stationToilets",
            json!({"stationName": "Edgware Road"}),
            "two stations share the name: DISAMBIGUATION_REQUIRED",
        ),
        (
            "stationToilets",
            json!({"stationName": "940GZZLUERC"}),
            "retry with a stationUniqueId from the disambiguation",
        ),
        (
            "stationToilets",
            json!({"stationName": "xyzzy"}),
            "no such station: STATION_NOT_FOUND",
        ),
        (
            "geocode_address",
            json!({"text": "kamppi"}),
            "RECORDED Digitransit (Pelias) response of 2025-09-29, replayed offline",
        ),
        (
            "find_stops",
            json!({"coordinate": {"lat": 60.169018, "lon": 24.932362}}),
            "stops of a RECORDED HSL plan (2021-06-29) in the stopsByRadius shape, replayed offline",
        ),
        (
            "save_user_variable",
            json!({"key": "home", "type": "location",
                   "value": {"lat": 60.170384, "lon": 24.939846, "name": "Rautatientori"}}),
            "a saved place (SQLite in a temporary TOOLPACK_DATA_DIR), no key needed",
        ),
        (
            "plan_trip",
            helsinki_trip(),
            "from the saved place: a RECORDED HSL itinerary (2021-06-29, realtime on time), replayed offline",
        ),
        (
            "get_departures",
            json!({"stop": {"type": "id", "value": "HSL:2434202"}, "limit": 4}),
            "SYNTHETIC departures derived from a RECORDED HSL stop page (late, early, cancelled)",
        ),
        (
            "plan_trip",
            json!({"origin": {"type": "coords", "value": {"lat": 60.17, "lon": 24.94}},
                   "destination": {"type": "coords", "value": {"lat": 60.17, "lon": 24.94}}}),
            "origin equals destination: the contract's validation-error envelope",
        ),
        (
            "query_project",
            json!({"project_path": example}),
            "loko: the example C4 project (examples/loko/shop)",
        ),
        (
            "query_architecture",
            json!({"project_path": example, "detail": "structure", "format": "toon"}),
            "loko: its structure as TOON (the same answer as JSON, fewer tokens)",
        ),
        (
            "query_architecture",
            json!({"project_path": example, "scope": "container", "target": "online-shop/api", "detail": "full"}),
            "loko: one container in full, relationships from frontmatter and relationships.toml",
        ),
        (
            "validate",
            json!({"project_path": example}),
            "loko: every rule and the component graph (D2 syntax is checked when d2 is installed)",
        ),
        (
            "create_system",
            json!({"project_path": scratch, "system_name": "Payment Service", "description": "Takes card payments"}),
            "loko: a project from nothing, in a temporary directory",
        ),
        (
            "create_container",
            json!({"project_path": scratch, "system_name": "payment-service", "container_name": "API", "technology": "Go"}),
            "loko: a container in it",
        ),
        (
            "create_container",
            json!({"project_path": scratch, "system_name": "Payment Service", "container_name": "api"}),
            "loko: never overwritten: ALREADY_EXISTS",
        ),
        (
            "build_docs",
            json!({"project_path": scratch, "format": "html"}),
            "loko: the HTML site; needs d2 on PATH (./scripts/test-all puts one in target/tools/bin), and says so without it",
        ),
    ]
}

#[tokio::main]
async fn main() -> ExitCode {
    // Offline by design: TfL is the fake upstream on loopback, replaying recordings.
    let fake = match FakeUpstream::start(&toolpack_testkit::default_fixtures_dir()).await {
        Ok(fake) => fake,
        Err(error) => {
            eprintln!("demo: cannot start the recorded-response server: {error:#}");
            return ExitCode::from(2);
        }
    };
    let data_dir = std::env::temp_dir().join(format!("toolpack-demo-{}", std::process::id()));
    let toolpack = match Config::from_env()
        .map(|c| {
            c.to_builder()
                .tfl_api_base_url(fake.base_url())
                .tfl_api_key(DEMO_KEY)
                .digitransit_base_url(fake.base_url())
                .digitransit_api_key(DEMO_KEY)
                .digitransit_router(toolpack::config::DigitransitRouter::Hsl)
                .data_dir(&data_dir)
                .build()
        })
        .map_err(|e| e.to_string())
        .and_then(|c| Toolpack::new(c).map_err(|e| e.to_string()))
    {
        Ok(toolpack) => toolpack,
        Err(message) => {
            eprintln!("demo: {message}");
            return ExitCode::from(2);
        }
    };
    let names: Vec<&str> = Catalog::get()
        .entries()
        .iter()
        .map(|e| e.spec.name)
        .collect();
    let mut out = format!(
        "toolpack demo — the catalog ({}): {}\n\n",
        names.len(),
        names.join(", ")
    );
    let example = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../loko/shop");
    let scratch = std::env::temp_dir().join(format!("toolpack-demo-loko-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&scratch);
    let (example, scratch_path) = (example.to_string_lossy(), scratch.to_string_lossy());
    for (tool, arguments, what) in calls(&example, &scratch_path) {
        out += &format!("── {tool} {arguments}\n   ({what})\n");
        let result = match toolpack.call_json(tool, arguments).await {
            Ok(result) => result,
            Err(unknown) => {
                eprintln!("demo: {unknown}");
                return ExitCode::FAILURE;
            }
        };
        let marker = result
            .error_code
            .as_deref()
            .map_or("ok".to_owned(), |code| format!("error {code}"));
        let body = serde_json::to_string_pretty(&result.body).unwrap_or_default();
        out += &format!("   → {marker}\n{body}\n\n");
    }
    let _ = std::fs::remove_dir_all(&data_dir);
    let _ = std::fs::remove_dir_all(&scratch);
    out += "planJourney answers above come from recorded TfL responses replayed on loopback \
(tests/fixtures/tfl/journey, see PROVENANCE.md), not from live TfL.\n";
    out += "Digitransit answers come from recorded Pelias and OTP responses replayed on loopback \
(tests/fixtures/digitransit, see PROVENANCE.md), not from live Digitransit.\n";
    out += "Station data: Powered by TfL Open Data (bundled snapshot, feed of 2026-08-03).\n";
    // A closed pipe (`| head`) is not a failure of the demo.
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    ExitCode::SUCCESS
}
