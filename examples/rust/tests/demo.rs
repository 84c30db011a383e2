//! The README's main job: the demo binary, built as `cargo run -q -p toolpack-examples --bin
//! demo` builds it, runs offline and says every call's answer in a line. The rust suite runs
//! it here, inside the one test build, instead of as a second build with the demo's own
//! features.

use std::process::Command;

use serde_json::Value;
use toolpack::Catalog;

/// The demo's output with `arguments`, after checking that it exited successfully and
/// wrote no error.
fn demo_output(arguments: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_demo"))
        .args(arguments)
        .output()
        .expect("the demo starts");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the demo failed: {stderr}");
    assert!(stderr.is_empty(), "the demo wrote to stderr: {stderr}");
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// Each call's tool, its answer in words and its code, in order: a `tool: question` line,
/// then `  → words [CODE, N ms]`.
fn answers(output: &str) -> Vec<(String, String, String)> {
    let mut found = Vec::new();
    let mut lines = output.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(answer) = lines.peek().and_then(|next| next.strip_prefix("  → ")) else {
            continue;
        };
        let tool = line.split(':').next().unwrap_or_default().to_owned();
        let (words, tail) = answer
            .rsplit_once(" [")
            .expect("the code and time in brackets");
        let (code, took) = tail.split_once(", ").expect("code, time");
        assert!(took.ends_with(" ms]"), "{answer}");
        found.push((tool, words.to_owned(), code.to_owned()));
        lines.next();
    }
    found
}

#[test]
fn the_demo_says_each_answer_in_a_line_offline() {
    let output = demo_output(&[]);
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
    let answers = answers(&output);
    assert!(answers.len() >= 23, "{answers:?}");
    assert!(output.lines().count() < 2 * answers.len() + 10, "{output}");
    let answer = |tool: &str, nth: usize| {
        answers
            .iter()
            .filter(|(t, _, _)| t == tool)
            .nth(nth)
            .map(|(_, words, code)| (words.as_str(), code.as_str()))
            .unwrap_or_else(|| panic!("the demo calls {tool} at least {} times", nth + 1))
    };
    // Each family answers over the recorded upstream or from bundled data, in words, and the
    // demo shows the errors a user meets too.
    // The answers' own messages say them.
    assert_eq!(
        answer("planJourney", 0),
        (
            "Fastest: 7 min, 16:27–16:34, Central line to Mile End. 4 journeys in all.",
            "OK"
        )
    );
    let (which, code) = answer("planJourney", 2);
    assert_eq!(code, "DISAMBIGUATION_REQUIRED");
    assert!(
        which.starts_with("which one? ") && which.contains("Victoria Station"),
        "{which}"
    );
    let (disrupted, _) = answer("lineStatus", 0);
    assert_eq!(
        disrupted,
        "Elizabeth line: severe delays, part suspended. Jubilee, Windrush: minor delays. The \
other 17 lines: good service."
    );
    let (next, _) = answer("arrivals", 0);
    assert!(
        next.starts_with("Next at Oxford Circus") && next.contains("Victoria to "),
        "{next}"
    );
    assert_eq!(answer("stationToilets", 0).1, "OK");
    assert_eq!(answer("stationToilets", 1).1, "DISAMBIGUATION_REQUIRED");
    assert_eq!(answer("stationToilets", 3).1, "STATION_NOT_FOUND");
    assert!(
        answer("plan_trip", 0)
            .0
            .contains("tram 10 from Lasipalatsi to Jalavatie"),
        "{:?}",
        answer("plan_trip", 0)
    );
    assert_eq!(answer("get_departures", 0).1, "OK");
    assert_eq!(answer("plan_trip", 1).1, "validation-error");
    assert_eq!(answer("create_container", 1).1, "ALREADY_EXISTS");
    assert_eq!(answer("build_docs", 0).1, "OK");
    assert!(
        output.contains("not from live TfL") && output.contains("not from live Digitransit"),
        "the demo says its answers are recorded"
    );
}

#[test]
fn json_gives_every_answer_whole() {
    let output = demo_output(&["--json"]);
    let answers: Value = serde_json::from_str(&output).expect("parseable JSON");
    let answers = answers.as_array().expect("one entry per call");
    assert!(answers.len() >= 23);
    assert_eq!(answers[0]["tool"], "planJourney");
    assert_eq!(answers[0]["code"], "OK");
    assert!(answers[0]["body"]["topJourneys"].is_array());
    assert_eq!(answers[0]["arguments"]["from"], "Bank Underground Station");
}
