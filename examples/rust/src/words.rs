//! A tool's answer in a line of words, as a person would say it: the fastest journey and
//! its legs, the lines that are disrupted, the next arrivals. Tools without a reading of
//! their own are said by the answer's `message`, or its counts.

use serde_json::Value;

/// `body`, the answer of `tool`, in words.
pub fn said(tool: &str, body: &Value) -> String {
    if let Some(error) = body.get("error") {
        return text(&error["message"]);
    }
    let own = match tool {
        "planJourney" => journey(body),
        "lineStatus" => lines(body),
        "arrivals" => arrivals(body),
        "stationToilets" => toilets(body),
        "geocode_address" => list(body, "results", |r| text(&r["label"])),
        "find_stops" => list(body, "stops", |s| {
            format!("{} ({} m)", text(&s["name"]), number(&s["distance"]))
        }),
        "plan_trip" => trip(body),
        "get_departures" => list(body, "departures", |d| {
            format!(
                "{} to {} at {} ({})",
                text(&d["line"]),
                text(&d["destination"]),
                clock(&d["realtimeTime"])
                    .unwrap_or_else(|| clock(&d["scheduledTime"]).unwrap_or_default()),
                text(&d["status"]).replace('_', " ")
            )
        }),
        "query_project" => Some(format!(
            "{}: {} systems, {} containers, {} components",
            text(&body["name"]),
            number(&body["system_count"]),
            number(&body["total_containers"]),
            number(&body["total_components"])
        )),
        "query_architecture" => architecture(body),
        "save_user_variable" => Some(format!(
            "saved {} ({})",
            text(&body["variable"]["key"]),
            text(&body["variable"]["type"])
        )),
        _ => None,
    };
    own.or_else(|| body.get("message").map(text))
        .unwrap_or_else(|| "answered".to_owned())
}

/// The fastest journey and its legs, or the places to choose between.
fn journey(body: &Value) -> Option<String> {
    let Some(fastest) = body["topJourneys"].get(0) else {
        let titles: Vec<String> = ["fromLocationDisambiguation", "toLocationDisambiguation"]
            .iter()
            .filter_map(|side| body[side].as_array())
            .flatten()
            .map(|place| text(&place["title"]))
            .collect();
        return Some(format!("which one? {}", titles.join(" / ")));
    };
    let legs: Vec<String> = fastest["legs"]
        .as_array()?
        .iter()
        .map(|leg| text(&leg["instruction"]))
        .collect();
    let fare = fastest["totalFarePence"]
        .as_f64()
        .map(|pence| format!(", £{:.2}", pence / 100.0))
        .unwrap_or_default();
    Some(format!(
        "fastest {} min, {}–{}{fare}: {}",
        number(&fastest["durationMinutes"]),
        clock(&fastest["startDateTime"])?,
        clock(&fastest["arrivalDateTime"])?,
        legs.join("; ")
    ))
}

/// The lines without a good service, with their statuses.
fn lines(body: &Value) -> Option<String> {
    let all = body["lines"].as_array()?;
    let troubled: Vec<String> = all
        .iter()
        .filter(|line| line["goodService"] == Value::Bool(false))
        .map(|line| {
            let statuses: Vec<String> = line["statuses"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|s| text(&s["description"]))
                .collect();
            format!("{} ({})", text(&line["name"]), statuses.join(", "))
        })
        .collect();
    Some(match troubled.as_slice() {
        [] => format!("all {} lines have a good service", all.len()),
        _ => format!(
            "{} of {} lines disrupted: {}",
            troubled.len(),
            all.len(),
            troubled.join("; ")
        ),
    })
}

/// The next three arrivals.
fn arrivals(body: &Value) -> Option<String> {
    let next: Vec<String> = body["arrivals"]
        .as_array()?
        .iter()
        .take(3)
        .map(|a| {
            format!(
                "{} to {} in {} min",
                text(&a["lineName"]),
                text(&a["destination"]),
                a["secondsToArrival"].as_i64().unwrap_or_default() / 60
            )
        })
        .collect();
    Some(format!(
        "{}: {}",
        text(&body["stop"]["name"]),
        next.join("; ")
    ))
}

/// The station's toilets, or the stations to choose between.
fn toilets(body: &Value) -> Option<String> {
    if let Some(choices) = body["stationDisambiguation"].as_array() {
        let titles: Vec<String> = choices.iter().map(|c| text(&c["title"])).collect();
        return Some(format!("which one? {}", titles.join(" / ")));
    }
    let toilets = body["toilets"].as_array()?;
    Some(format!(
        "{}: {} toilets{}",
        text(&body["stationName"]),
        toilets.len(),
        match toilets
            .iter()
            .filter(|t| t["accessible"] == Value::Bool(true))
            .count()
        {
            0 => String::new(),
            n => format!(", {n} accessible"),
        }
    ))
}

/// The first itinerary: when, how long, its legs.
fn trip(body: &Value) -> Option<String> {
    let first = body["itineraries"].get(0)?;
    let legs: Vec<String> = first["legs"]
        .as_array()?
        .iter()
        .map(|leg| match leg["line"].as_str() {
            Some(line) => format!(
                "{} {line} to {}",
                text(&leg["mode"]).to_lowercase(),
                text(&leg["to"]["name"])
            ),
            None => format!(
                "{} to {}",
                text(&leg["mode"]).to_lowercase(),
                text(&leg["to"]["name"])
            ),
        })
        .collect();
    Some(format!(
        "{}–{}, {} min: {}",
        clock(&first["start"])?,
        clock(&first["end"])?,
        first["durationSeconds"].as_i64()? / 60,
        legs.join("; ")
    ))
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

/// The first three items of the array at `key`, said by `item`, and how many there are.
fn list(body: &Value, key: &str, item: impl Fn(&Value) -> String) -> Option<String> {
    let items = body[key].as_array()?;
    let first: Vec<String> = items.iter().take(3).map(item).collect();
    Some(format!("{} {key}: {}", items.len(), first.join("; ")))
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

/// The `HH:MM` of an ISO 8601 date-time.
fn clock(value: &Value) -> Option<String> {
    let time = value.as_str()?.split('T').nth(1)?;
    Some(time.get(..5)?.to_owned())
}
