//! A tool's answer in a line of words. The transit tools' answers say it themselves (their
//! `message`); the demo reads for itself only what an answer leaves to its JSON: the
//! places to choose between, and a loko project's counts.

use serde_json::Value;

/// `body`, the answer of `tool`, in words.
pub fn said(tool: &str, body: &Value) -> String {
    if let Some(error) = body.get("error") {
        return text(&error["message"]);
    }
    let own = match tool {
        "planJourney" => choices(
            body,
            &["fromLocationDisambiguation", "toLocationDisambiguation"],
        ),
        "stationToilets" => choices(body, &["stationDisambiguation"]),
        "query_project" => Some(format!(
            "{}: {} systems, {} containers, {} components",
            text(&body["name"]),
            number(&body["system_count"]),
            number(&body["total_containers"]),
            number(&body["total_components"])
        )),
        "query_architecture" => architecture(body),
        _ => None,
    };
    own.or_else(|| body.get("message").map(text))
        .unwrap_or_else(|| "answered".to_owned())
}

/// The places a name may mean, when the answer asks which one.
fn choices(body: &Value, sides: &[&str]) -> Option<String> {
    let titles: Vec<String> = sides
        .iter()
        .filter_map(|side| body[side].as_array())
        .flatten()
        .map(|place| text(&place["title"]))
        .collect();
    (!titles.is_empty()).then(|| format!("which one? {}", titles.join(" / ")))
}

/// What the architecture answer holds.
fn architecture(body: &Value) -> Option<String> {
    if let Some(toon) = body["toon"].as_str() {
        return Some(format!("{} lines of TOON", toon.lines().count()));
    }
    let container = &body["container"];
    Some(format!(
        "container {}: {} components",
        text(&container["name"]),
        container["components"].as_array().map_or(0, Vec::len)
    ))
}

fn text(value: &Value) -> String {
    value
        .as_str()
        .map_or_else(|| value.to_string(), str::to_owned)
}

fn number(value: &Value) -> String {
    value
        .as_f64()
        .map_or_else(|| "?".to_owned(), |n| format!("{n}"))
}
