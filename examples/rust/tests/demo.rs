//! The README's main job: the demo binary, built as `cargo run -q -p toolpack-examples --bin
//! demo` builds it, runs offline and prints every call's answer. The rust suite runs it here,
//! inside the one test build, instead of as a second build with the demo's own features.

use std::process::Command;

use toolpack::Catalog;

/// The demo's output, after checking that it exited successfully and wrote no error.
fn demo_output() -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_demo"))
        .output()
        .expect("the demo starts");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the demo failed: {stderr}");
    assert!(stderr.is_empty(), "the demo wrote to stderr: {stderr}");
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// Each call's tool and the marker of its answer (`ok` or `error CODE`), in order.
fn outcomes(output: &str) -> Vec<(String, String)> {
    let mut lines = output.lines();
    let mut found = Vec::new();
    while let Some(line) = lines.next() {
        let Some(call) = line.strip_prefix("── ") else {
            continue;
        };
        let tool = call
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_owned();
        let marker = lines
            .by_ref()
            .find_map(|l| l.trim_start().strip_prefix("→ "))
            .unwrap_or_else(|| panic!("no answer marker after {call}"));
        found.push((tool, marker.to_owned()));
    }
    found
}

#[test]
fn the_demo_calls_real_tools_offline_and_prints_their_answers() {
    let output = demo_output();
    let names: Vec<&str> = Catalog::get()
        .entries()
        .iter()
        .map(|e| e.spec.name)
        .collect();
    assert!(
        output.starts_with(&format!(
            "toolpack demo — the catalog ({}): {}\n",
            names.len(),
            names.join(", ")
        )),
        "{output}"
    );
    let outcomes = outcomes(&output);
    let marker_of = |tool: &str, nth: usize| {
        outcomes
            .iter()
            .filter(|(t, _)| t == tool)
            .nth(nth)
            .map(|(_, m)| m.as_str())
            .unwrap_or_else(|| panic!("the demo calls {tool} at least {} times", nth + 1))
    };
    // Each family answers over the recorded upstream or from bundled data, and the demo
    // shows the errors a user meets too.
    assert_eq!(marker_of("planJourney", 0), "ok");
    assert_eq!(marker_of("planJourney", 2), "error DISAMBIGUATION_REQUIRED");
    assert_eq!(
        marker_of("stationToilets", 1),
        "error DISAMBIGUATION_REQUIRED"
    );
    assert_eq!(marker_of("stationToilets", 0), "ok");
    assert_eq!(marker_of("stationToilets", 3), "error STATION_NOT_FOUND");
    assert_eq!(marker_of("plan_trip", 0), "ok");
    assert_eq!(marker_of("get_departures", 0), "ok");
    assert_eq!(marker_of("create_container", 1), "error ALREADY_EXISTS");
    assert_eq!(marker_of("build_docs", 0), "ok");
    assert!(outcomes.len() >= 20, "{outcomes:?}");
    assert!(
        output.contains("not from live TfL") && output.contains("not from live Digitransit"),
        "the demo says its answers are recorded"
    );
}
