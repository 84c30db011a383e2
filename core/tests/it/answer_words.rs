//! Every transit answer's `message` names what it answers: the lines not in good service,
//! the fastest journey's minutes and times, the first departure, the first place found.
//! The vectors' run hands each successful answer to [`note`]; [`check`] fails naming every
//! message that leaves its answer out, and every tool below that no answer reached.

use std::sync::Mutex;

use serde_json::Value;

/// What a tool's message must say, read from its answer: the words it must hold.
type Said = fn(&Value) -> Vec<String>;

/// The tools whose messages are checked, and what each must say.
const RULES: [(&str, Said); 12] = [
    ("lineStatus", |b| texts(b, "/lines", "/name")),
    ("planJourney", fastest_journey),
    ("plan_trip", first_itinerary),
    ("arrivals", |b| {
        first(b, &["/arrivals/0/line", "/arrivals/0/destination"])
    }),
    ("get_departures", |b| first(b, &["/departures/0/line"])),
    ("timetable", |b| {
        texts(b, "/directions/0/schedules", "/first/time")
    }),
    ("get_alerts", |b| first(b, &["/alerts/0/header"])),
    ("bikePoints", |b| first(b, &["/bikePoints/0/name"])),
    ("stopSearch", |b| first(b, &["/stops/0/name"])),
    ("find_stops", |b| first(b, &["/stops/0/name"])),
    ("get_stop_info", |b| first(b, &["/stop/name"])),
    ("geocode_address", |b| first(b, &["/results/0/label"])),
];

/// The string at each of `pointers` that the answer has.
fn first(body: &Value, pointers: &[&str]) -> Vec<String> {
    pointers
        .iter()
        .filter_map(|p| body.pointer(p)?.as_str().map(str::to_owned))
        .collect()
}

/// The string at `field` of each item of the list at `list`.
fn texts(body: &Value, list: &str, field: &str) -> Vec<String> {
    body.pointer(list)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|item| item.pointer(field)?.as_str().map(str::to_owned))
        .collect()
}

/// `HH:MM` of an ISO 8601 time.
fn clock(time: Option<&Value>) -> Option<String> {
    time?.as_str()?.get(11..16).map(str::to_owned)
}

/// The fastest journey's minutes, departure and arrival.
fn fastest_journey(body: &Value) -> Vec<String> {
    let journeys = body["topJourneys"].as_array().cloned().unwrap_or_default();
    let Some(fastest) = journeys
        .iter()
        .min_by_key(|j| j["durationMinutes"].as_i64().unwrap_or(i64::MAX))
    else {
        return Vec::new();
    };
    let mut said = vec![format!("{} min", fastest["durationMinutes"])];
    said.extend(clock(fastest.get("startDateTime")));
    said.extend(clock(fastest.get("arrivalDateTime")));
    said
}

/// The first itinerary's departure and arrival.
fn first_itinerary(body: &Value) -> Vec<String> {
    let first = &body["itineraries"][0];
    [clock(first.get("start")), clock(first.get("end"))]
        .into_iter()
        .flatten()
        .collect()
}

/// Messages that leave out what their answer says, and the tools checked.
static CHECKED: Mutex<(Vec<String>, Vec<&'static str>)> = Mutex::new((Vec::new(), Vec::new()));

/// Checks the message of `tool`'s successful answer `body` to `case`.
pub fn note(tool: &str, case: &str, body: &Value) {
    let Some((name, said)) = RULES.iter().find(|(name, _)| *name == tool) else {
        return;
    };
    let message = body["message"].as_str().unwrap_or_default();
    let mut checked = CHECKED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let missing: Vec<String> = said(body)
        .into_iter()
        .filter(|words| !message.contains(words.as_str()))
        .collect();
    if !missing.is_empty() {
        checked
            .0
            .push(format!("{tool}: {case}: {missing:?} not in \"{message}\""));
    }
    checked.1.push(name);
}

/// Fails naming every message that leaves its answer out, and every rule no answer met.
pub fn check() {
    let checked = CHECKED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let unmet: Vec<&str> = RULES
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| !checked.1.contains(name))
        .collect();
    assert!(
        unmet.is_empty(),
        "no successful answer of {unmet:?} was read"
    );
    assert!(
        checked.0.is_empty(),
        "messages that do not say their answer:\n{}",
        checked.0.join("\n")
    );
}
