//! The toolpack demo: calls real tools through the catalog (the path MCP and every
//! binding use) and prints what they return. Offline: no keys, no network.
//! `planJourney` talks real HTTP to the fake upstream on loopback, which replays
//! recorded TfL responses; those answers are labelled as recorded.
//!
//! Run: `cargo run -q -p toolpack-examples --bin demo`

use std::io::Write;
use std::process::ExitCode;

use serde_json::{Value, json};
use toolpack::{Catalog, Config, Toolpack};
use toolpack_testkit::FakeUpstream;

/// The key sent to the local replay server (never to TfL).
const DEMO_KEY: &str = "demo-key-for-the-local-replay";

/// The example calls: (tool, arguments, what it shows).
fn calls() -> Vec<(&'static str, Value, &'static str)> {
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
    let toolpack = match Config::from_env()
        .map(|c| {
            c.to_builder()
                .tfl_api_base_url(fake.base_url())
                .tfl_api_key(DEMO_KEY)
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
    for (tool, arguments, what) in calls() {
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
    out += "planJourney answers above come from recorded TfL responses replayed on loopback \
(tests/fixtures/tfl/journey, see PROVENANCE.md), not from live TfL.\n";
    out += "Station data: Powered by TfL Open Data (bundled snapshot, feed of 2026-08-03).\n";
    // A closed pipe (`| head`) is not a failure of the demo.
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    ExitCode::SUCCESS
}
