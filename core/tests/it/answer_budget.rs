//! The answers a model can afford: every transit tool's successful answer on its recorded
//! bodies, in compact JSON, within its tool's budget. The vectors' run notes each answer
//! ([`note`]) and checks them at its end ([`check`]), so the budget costs no second run.
//!
//! The targets are the (`lineStatus` on the rail modes 1,000 bytes, `arrivals`
//! 1,500, `crowding` 1,500, every other transit answer 2,000). Where an answer is not yet
//! lean enough, its tool's ceiling is today's largest answer: it may shrink, never grow.
//! Options a caller asks for to get more (`quarterHours`, `includeEnded`, a larger `limit`)
//! are outside the budget.

use std::sync::Mutex;

use serde_json::Value;

/// Arguments that ask for more than the default answer.
const ON_REQUEST: [&str; 7] = [
    "quarterHours",
    "includeEnded",
    "limit",
    "maxResults",
    "size",
    "before",
    "after",
];

/// The transit tools and the most bytes a default answer of each may take: the target,
/// and while an answer is over it, today's ceiling.
const BUDGETS: [(&str, usize, usize); 21] = [
    ("lineStatus", 1_000, 4_858),
    ("arrivals", 1_500, 3_060),
    ("crowding", 1_500, 1_500),
    ("timetable", 2_000, 2_657),
    ("planJourney", 2_000, 2_873),
    ("stationToilets", 2_000, 2_000),
    ("stopSearch", 2_000, 2_000),
    ("bikePoints", 2_000, 2_000),
    ("lineRoute", 2_000, 2_000),
    ("liftOutages", 2_000, 2_000),
    ("plan_trip", 2_000, 4_096),
    ("get_alerts", 2_000, 2_426),
    ("geocode_address", 2_000, 2_000),
    ("reverse_geocode", 2_000, 2_000),
    ("get_departures", 2_000, 2_000),
    ("find_stops", 2_000, 2_000),
    ("find_rental_vehicles", 2_000, 2_000),
    ("get_stop_info", 2_000, 2_000),
    ("vehicle_positions", 2_000, 2_000),
    ("save_user_variable", 2_000, 2_000),
    ("get_user_variables", 2_000, 2_000),
];

/// One successful answer: its tool, its case, its size in compact JSON.
struct Sized {
    tool: String,
    case: String,
    bytes: usize,
}

static ANSWERS: Mutex<Vec<Sized>> = Mutex::new(Vec::new());

/// Notes a successful answer of `tool` to a case with `arguments`, when it is a transit
/// tool's default answer.
pub fn note(tool: &str, case: &str, arguments: &Value, body: &Value) {
    let asked_more = arguments
        .as_object()
        .is_some_and(|a| ON_REQUEST.iter().any(|key| a.contains_key(*key)));
    if asked_more || !BUDGETS.iter().any(|(name, ..)| *name == tool) {
        return;
    }
    let bytes = serde_json::to_vec(body).expect("JSON").len();
    ANSWERS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push(Sized {
            tool: tool.to_owned(),
            case: case.to_owned(),
            bytes,
        });
}

/// Fails naming every answer over its tool's ceiling; prints how far each tool is from
/// its target.
pub fn check() {
    let answers = ANSWERS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut over = Vec::new();
    for (tool, target, ceiling) in BUDGETS {
        let of_tool: Vec<&Sized> = answers.iter().filter(|a| a.tool == tool).collect();
        let largest = of_tool.iter().map(|a| a.bytes).max().unwrap_or(0);
        println!("answer budget: {tool}: largest default answer {largest} B (target {target} B)");
        over.extend(
            of_tool
                .iter()
                .filter(|a| a.bytes > ceiling.max(target))
                .map(|a| format!("{tool}: {} B over {ceiling} B: {}", a.bytes, a.case)),
        );
    }
    assert!(
        answers.len() > 100,
        "the transit vectors' answers were noted ({})",
        answers.len()
    );
    assert!(over.is_empty(), "answers over budget:\n{}", over.join("\n"));
}
