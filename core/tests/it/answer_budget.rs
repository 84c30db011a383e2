//! The answers a model can afford: every transit tool's successful answer on its recorded
//! bodies, in compact JSON, within its tool's budget. The vectors' run notes each answer
//! ([`note`]) and checks them at its end ([`check`]), so the budget costs no second run.
//!
//! The targets: `lineStatus` on the rail modes 1,000 bytes, `arrivals` 1,500, `crowding`
//! 1,500, every other transit answer 2,000. Where an answer is not yet lean enough, its
//! ceiling is today's largest answer: it may shrink, never grow.
//! Options a caller asks for to get more (`quarterHours`, `includeEnded`, `stops`, every
//! `day`, a larger `limit`) are outside the budget; a window (`after`, `before`) is not.

use std::sync::Mutex;

use serde_json::Value;
use toolpack::{Catalog, Toolset};

/// Arguments that ask for more than the default answer: the argument, and the value that
/// does when not every value does.
const ON_REQUEST: [(&str, Option<&str>); 7] = [
    ("quarterHours", None),
    ("includeEnded", None),
    ("stops", None),
    ("day", Some("all")),
    ("limit", None),
    ("maxResults", None),
    ("size", None),
];

/// What a transit answer may take unless its tool says otherwise.
const TARGET: usize = 2_000;

/// The answers whose target is smaller: a tool's, or a case's when a part of its name is
/// given.
const TARGETS: [(&str, &str, usize); 3] = [
    ("lineStatus", "neither lines nor modes", 1_000),
    ("arrivals", "", 1_500),
    ("crowding", "", 1_500),
];

/// The answers over their target today, a tool's or a case's (a part of its name): the
/// largest such answer's size is their ceiling until they are lean (it may shrink, never
/// grow).
const CEILINGS: [(&str, &str, usize); 2] = [
    // TfL's tube body from the 2020 lockdown: all eleven lines disrupted, each with a
    // reason of its own that the answer keeps whole.
    ("lineStatus", "the District line's", 2_660),
    // Two itineraries by the contract's default, each with its fingerprint, the times of
    // every leg and the stops' coordinates the views draw: about 1,100 bytes each.
    ("plan_trip", "", 3_540),
];

/// Whether `tool` is a transit tool (TfL or Digitransit), from the catalog.
fn is_transit(tool: &str) -> bool {
    Catalog::get()
        .find(tool)
        .is_some_and(|entry| matches!(entry.spec.toolset, Toolset::Tfl | Toolset::Digitransit))
}

/// The target of `tool`'s answer to `case`, and the most bytes it may take today.
fn budget(tool: &str, case: &str) -> (usize, usize) {
    let find = |table: &[(&str, &str, usize)]| {
        table
            .iter()
            .find(|(name, part, _)| *name == tool && case.contains(part))
            .map(|(_, _, n)| *n)
    };
    let target = find(&TARGETS).unwrap_or(TARGET);
    (target, find(&CEILINGS).unwrap_or(target).max(target))
}

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
    let asked_more = arguments.as_object().is_some_and(|a| {
        ON_REQUEST.iter().any(|(key, value)| {
            a.get(*key)
                .is_some_and(|given| value.is_none_or(|value| given == value))
        })
    });
    if asked_more || !is_transit(tool) {
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
    let mut tools: Vec<&str> = answers.iter().map(|a| a.tool.as_str()).collect();
    tools.sort_unstable();
    tools.dedup();
    let mut over = Vec::new();
    for tool in tools {
        let of_tool: Vec<&Sized> = answers.iter().filter(|a| a.tool == tool).collect();
        if let Some(largest) = of_tool.iter().max_by_key(|a| a.bytes) {
            println!(
                "answer budget: {tool}: largest default answer {} B (target {} B): {}",
                largest.bytes,
                budget(tool, &largest.case).0,
                largest.case
            );
        }
        over.extend(of_tool.iter().filter_map(|a| {
            let (_, ceiling) = budget(tool, &a.case);
            (a.bytes > ceiling)
                .then(|| format!("{tool}: {} B over {ceiling} B: {}", a.bytes, a.case))
        }));
    }
    assert!(
        answers.len() > 100,
        "the transit vectors' answers were noted ({})",
        answers.len()
    );
    assert!(over.is_empty(), "answers over budget:\n{}", over.join("\n"));
}
