//! The server's instructions, built from what it serves: a host that loads only tool names
//! and instructions up front (a tool search) learns here which family answers what, where,
//! which tool to ask first and how tools chain. Each clause is said only when every tool
//! it names is served.

use crate::config::{Config, DigitransitRouter};
use crate::{ToolEntry, Toolset};

/// A clause of a family's guide and the tools it names.
struct Clause {
    text: &'static str,
    tools: &'static [&'static str],
}

const fn clause(text: &'static str, tools: &'static [&'static str]) -> Clause {
    Clause { text, tools }
}

const TFL: &[Clause] = &[
    clause("is a line running: lineStatus", &["lineStatus"]),
    clause(
        "next trains or buses: stopSearch → arrivals (arrivals takes a name too)",
        &["stopSearch", "arrivals"],
    ),
    clause("next trains or buses: arrivals", &["arrivals"]),
    clause("A to B: planJourney", &["planJourney"]),
    clause("lifts out of service: liftOutages", &["liftOutages"]),
    clause("toilets: stationToilets", &["stationToilets"]),
    clause("hire bikes: bikePoints", &["bikePoints"]),
    clause("a line's stops: lineRoute", &["lineRoute"]),
];

const DIGITRANSIT: &[Clause] = &[
    clause(
        "A to B: geocode_address → plan_trip",
        &["geocode_address", "plan_trip"],
    ),
    clause("A to B: plan_trip", &["plan_trip"]),
    clause(
        "departures: find_stops → get_departures",
        &["find_stops", "get_departures"],
    ),
    clause("a stop's lines: get_stop_info", &["get_stop_info"]),
    clause("disruptions: get_alerts", &["get_alerts"]),
    clause(
        "city bikes, scooters: find_rental_vehicles",
        &["find_rental_vehicles"],
    ),
    clause(
        "saved places (home, work) as origins: save_user_variable, get_user_variables",
        &["save_user_variable"],
    ),
];

const LOKO: &[Clause] = &[
    clause(
        "start with query_project → query_architecture",
        &["query_project", "query_architecture"],
    ),
    clause("find ids: search_elements", &["search_elements"]),
    clause(
        "add: create_system, create_container, create_component",
        &["create_system", "create_container", "create_component"],
    ),
    clause(
        "links: create_relationship, query_dependencies",
        &["create_relationship", "query_dependencies"],
    ),
    clause(
        "check: validate; publish: build_docs",
        &["validate", "build_docs"],
    ),
];

/// The instructions for a server of `tools` with `config`: one line per family served,
/// then how an ambiguous name is answered. Empty when nothing is served.
pub fn instructions(tools: &[&ToolEntry], config: &Config) -> String {
    let served = |name: &&str| tools.iter().any(|t| t.spec.name == *name);
    let mut lines = Vec::new();
    for toolset in Toolset::ALL {
        if !tools.iter().any(|t| t.spec.toolset == toolset) {
            continue;
        }
        let (place, clauses) = match toolset {
            Toolset::Tfl => ("London transport (TfL)".to_owned(), TFL),
            Toolset::Digitransit => (
                format!(
                    "Finnish public transport (Digitransit, {})",
                    region(config.digitransit_router())
                ),
                DIGITRANSIT,
            ),
            Toolset::Loko => (
                "C4 architecture docs in a project on disk (loko; project_path, default the \
working directory; an element by its id or name)"
                    .to_owned(),
                LOKO,
            ),
        };
        let mut said: Vec<&str> = Vec::new();
        for clause in clauses {
            let topic = clause.text.split(':').next().unwrap_or_default();
            let covered = said.iter().any(|s| s.split(':').next() == Some(topic));
            if !covered && clause.tools.iter().all(&served) {
                said.push(clause.text);
            }
        }
        lines.push(if said.is_empty() {
            format!("{place}.")
        } else {
            format!("{place}: {}.", said.join("; "))
        });
    }
    if lines.is_empty() {
        return String::new();
    }
    lines.push(
        "A name that means several places answers DISAMBIGUATION_REQUIRED with titled choices \
(or the person is asked, where the client can): call again with the chosen id. Errors carry a \
code."
            .to_owned(),
    );
    lines.join("\n")
}

/// Where the configured Digitransit router plans.
fn region(router: DigitransitRouter) -> &'static str {
    match router {
        DigitransitRouter::Hsl => "trips in the Helsinki region",
        DigitransitRouter::Waltti => "trips in Finnish cities outside Helsinki",
        DigitransitRouter::Finland => "trips anywhere in Finland",
        DigitransitRouter::Varely => "trips in Varsinais-Suomi",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Catalog;

    fn of(names: &[&str]) -> Vec<&'static ToolEntry> {
        Catalog::get()
            .entries()
            .iter()
            .filter(|e| names.is_empty() || names.contains(&e.spec.name))
            .collect()
    }

    #[test]
    fn every_family_is_named_with_its_first_tools_within_the_budget() {
        let text = instructions(&of(&[]), &Config::default());
        assert!(text.len() <= 1_500, "{} bytes: {text}", text.len());
        for words in [
            "London transport (TfL)",
            "stopSearch → arrivals",
            "geocode_address → plan_trip",
            "anywhere in Finland",
            "query_project → query_architecture",
            "project_path, default the working directory",
            "DISAMBIGUATION_REQUIRED",
        ] {
            assert!(text.contains(words), "{words} in {text}");
        }
        // Each tool it names is a catalog tool.
        for clause in TFL.iter().chain(DIGITRANSIT).chain(LOKO) {
            for tool in clause.tools {
                assert!(Catalog::get().find(tool).is_some(), "{tool}");
            }
        }
    }

    #[test]
    fn only_the_families_and_tools_served_are_named() {
        let keyless = of(&["stationToilets", "lineStatus", "arrivals"]);
        let text = instructions(&keyless, &Config::default());
        assert!(text.starts_with("London transport (TfL): is a line running: lineStatus; next trains or buses: arrivals; toilets: stationToilets."), "{text}");
        assert!(
            !text.contains("planJourney")
                && !text.contains("Digitransit")
                && !text.contains("loko")
        );
        let hsl = Config::builder()
            .digitransit_router(DigitransitRouter::Hsl)
            .build();
        assert!(instructions(&of(&["plan_trip"]), &hsl).contains("Helsinki region"));
        assert_eq!(instructions(&[], &Config::default()), "");
        // A family whose served tools no clause names is still named, without an empty list.
        let lone = instructions(&of(&["reverse_geocode"]), &Config::default());
        assert!(
            lone.starts_with(
                "Finnish public transport (Digitransit, trips anywhere in Finland).\n"
            ),
            "{lone}"
        );
    }
}
