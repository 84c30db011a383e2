//! The toolpack demo: asks real tools questions through the catalog (the path MCP and
//! every binding use) and prints each answer in a line of words, with its code and how
//! long it took; `--json` prints every answer's whole JSON instead. Offline: no keys, no
//! network.
//! `planJourney` and the Digitransit tools talk real HTTP to the fake upstream on
//! loopback, which replays recorded TfL and Digitransit responses; those answers are
//! labelled as recorded. Saved places and the loko scratch project go to temporary
//! directories, removed at the end.
//!
//! Run: `cargo run -q -p toolpack-examples --bin demo [-- --json]`

mod words;

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

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

/// The example calls: (tool, arguments, the question it answers and where its answer comes
/// from). `example` is the loko example project (read only), `scratch` an empty directory
/// the loko calls build a project in.
fn calls(example: &str, scratch: &str) -> Vec<(&'static str, Value, &'static str)> {
    vec![
        (
            "planJourney",
            json!({"from": "Bank Underground Station", "to": "Mile End Underground Station"}),
            "Bank to Mile End? (RECORDED TfL answer of 2015-10-21)",
        ),
        (
            "planJourney",
            json!({"from": "Caledonian Road & Barnsbury", "to": "Camden Road"}),
            "Caledonian Road & Barnsbury to Camden Road? (RECORDED 2024-02-27, a disrupted leg, a fare)",
        ),
        (
            "planJourney",
            json!({"from": "1000013", "to": "Victoria"}),
            "To \"Victoria\"? (SYNTHETIC TfL-shaped 300: which Victoria?)",
        ),
        (
            "lineStatus",
            json!({}),
            "Is London's rail running? (RECORDED TfL status of 2024-11-26)",
        ),
        (
            "arrivals",
            json!({"stop": "940GZZLUOXC"}),
            "Next trains at Oxford Circus? (RECORDED TfL predictions of 2026-04-23)",
        ),
        (
            "stationToilets",
            json!({"stationName": "Kings Cross"}),
            "Toilets at Kings Cross? (bundled TfL station data, no apostrophe needed)",
        ),
        (
            "stationToilets",
            json!({"stationName": "Edgware Road"}),
            "Toilets at Edgware Road? (two stations share the name)",
        ),
        (
            "stationToilets",
            json!({"stationName": "940GZZLUERC"}),
            "Toilets at the Circle line's Edgware Road? (its id, from the choices)",
        ),
        (
            "stationToilets",
            json!({"stationName": "xyzzy"}),
            "Toilets at xyzzy? (no such station)",
        ),
        (
            "geocode_address",
            json!({"text": "kamppi"}),
            "Where is Kamppi? (RECORDED Digitransit geocoding of 2025-09-29)",
        ),
        (
            "find_stops",
            json!({"coordinate": {"lat": 60.169018, "lon": 24.932362}}),
            "Stops near Kamppi? (stops of a RECORDED HSL plan of 2021-06-29)",
        ),
        (
            "save_user_variable",
            json!({"key": "home", "type": "location",
                   "value": {"lat": 60.170384, "lon": 24.939846, "name": "Rautatientori"}}),
            "Remember home is Rautatientori (SQLite in a temporary TOOLPACK_DATA_DIR)",
        ),
        (
            "plan_trip",
            helsinki_trip(),
            "Home to Mannerheimintie 89? (a RECORDED HSL itinerary of 2021-06-29)",
        ),
        (
            "get_departures",
            json!({"stop": {"type": "id", "value": "HSL:2434202"}, "limit": 4}),
            "Next buses from HSL:2434202? (SYNTHETIC, from a RECORDED HSL stop page)",
        ),
        (
            "plan_trip",
            json!({"origin": {"type": "coords", "value": {"lat": 60.17, "lon": 24.94}},
                   "destination": {"type": "coords", "value": {"lat": 60.17, "lon": 24.94}}}),
            "From a place to itself? (the contract's validation error)",
        ),
        (
            "query_project",
            json!({"project_path": example}),
            "What is in the example C4 project? (examples/loko/shop)",
        ),
        (
            "query_architecture",
            json!({"project_path": example, "detail": "structure", "format": "toon"}),
            "Its structure, in TOON (the same answer as JSON, fewer tokens)",
        ),
        (
            "query_architecture",
            json!({"project_path": example, "scope": "container", "target": "online-shop/api", "detail": "full"}),
            "The online shop's API container, in full",
        ),
        (
            "validate",
            json!({"project_path": example}),
            "Is the project sound? (every rule; D2 syntax when d2 is installed)",
        ),
        (
            "create_system",
            json!({"project_path": scratch, "system_name": "Payment Service", "description": "Takes card payments"}),
            "Add a Payment Service system (a project from nothing, in a temporary directory)",
        ),
        (
            "create_container",
            json!({"project_path": scratch, "system_name": "payment-service", "container_name": "API", "technology": "Go"}),
            "Add an API container to it",
        ),
        (
            "create_container",
            json!({"project_path": scratch, "system_name": "Payment Service", "container_name": "api"}),
            "Add it again? (never overwritten)",
        ),
        (
            "build_docs",
            json!({"project_path": scratch, "format": "html"}),
            "Build the HTML site (needs d2 on PATH: ./scripts/test-all puts one in target/tools/bin)",
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
    let as_json = std::env::args().skip(1).any(|a| a == "--json");
    let names: Vec<&str> = Catalog::get()
        .entries()
        .iter()
        .map(|e| e.spec.name)
        .collect();
    let example = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../loko/shop");
    let scratch = std::env::temp_dir().join(format!("toolpack-demo-loko-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&scratch);
    let (example, scratch_path) = (example.to_string_lossy(), scratch.to_string_lossy());
    let mut out = format!(
        "toolpack demo — the catalog ({}): {}\n\n",
        names.len(),
        names.join(", ")
    );
    let mut answers = Vec::new();
    for (tool, arguments, question) in calls(&example, &scratch_path) {
        let started = Instant::now();
        let result = match toolpack.call_json(tool, arguments.clone()).await {
            Ok(result) => result,
            Err(unknown) => {
                eprintln!("demo: {unknown}");
                return ExitCode::FAILURE;
            }
        };
        let took = started.elapsed();
        let code = result.error_code.as_deref().unwrap_or("OK");
        out += &format!(
            "{tool}: {question}\n  → {} [{code}, {:.1} ms]\n",
            words::said(tool, &result.body),
            took.as_secs_f64() * 1000.0
        );
        answers.push(json!({
            "tool": tool,
            "arguments": arguments,
            "code": code,
            "milliseconds": took.as_secs_f64() * 1000.0,
            "body": result.body,
        }));
    }
    let _ = std::fs::remove_dir_all(&data_dir);
    let _ = std::fs::remove_dir_all(&scratch);
    if as_json {
        out = serde_json::to_string_pretty(&answers).unwrap_or_default() + "\n";
    } else {
        out += "\nRECORDED answers are TfL and Digitransit responses replayed on loopback \
(tests/fixtures, see PROVENANCE.md): not from live TfL, not from live Digitransit.\n";
        out += "Station data: Powered by TfL Open Data (bundled snapshot, feed of 2026-08-03).\n";
        out += "The whole JSON of every answer: cargo run -q -p toolpack-examples --bin demo -- --json\n";
    }
    // A closed pipe (`| head`) is not a failure of the demo.
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    ExitCode::SUCCESS
}
