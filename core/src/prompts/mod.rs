//! Prompts: named starting points for what people ask most, each with arguments a host
//! can complete ([`crate::Toolpack::complete`]). Defined once here, like the tools; the MCP server lists,
//! renders and completes them with no code of its own per prompt.
//!
//! A prompt is offered only where every tool it names is served.

mod complete;

pub use complete::{CompletionError, MAX_COMPLETIONS, MIN_TYPED_FOR_GEOCODER, Source};

use std::collections::BTreeMap;

/// One argument of a prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PromptArgument {
    /// Its name, e.g. `from`.
    pub name: &'static str,
    /// What it is, for the person filling it in.
    pub description: &'static str,
    /// Whether the prompt needs it.
    pub required: bool,
    /// Where its completions come from, if anywhere.
    pub completes: Option<Source>,
}

/// One prompt: its name, what it is for, the tools it uses and its arguments.
#[derive(Debug, Clone, Copy)]
pub struct Prompt {
    /// Its name, e.g. `london_journey`.
    pub name: &'static str,
    /// A title for a menu.
    pub title: &'static str,
    /// What it starts.
    pub description: &'static str,
    /// The tools it asks the model to use: the prompt is offered only where all are served.
    pub tools: &'static [&'static str],
    /// Its arguments.
    pub arguments: &'static [PromptArgument],
    /// The message it starts the conversation with, from the arguments given.
    render: fn(&Arguments<'_>) -> String,
}

/// The arguments a prompt is rendered with (trimmed; a blank one counts as absent).
pub struct Arguments<'a>(&'a BTreeMap<String, String>);

impl Arguments<'_> {
    /// The argument `name`, when given and not blank.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .get(name)
            .map(|value| value.trim())
            .filter(|value| !value.is_empty())
    }

    fn or<'b>(&'b self, name: &str, otherwise: &'b str) -> &'b str {
        self.get(name).unwrap_or(otherwise)
    }
}

/// Why a prompt could not be rendered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PromptError {
    /// No prompt has that name.
    #[error("unknown prompt '{0}'")]
    Unknown(String),
    /// A required argument is missing or blank.
    #[error("prompt '{prompt}' needs the argument '{argument}'")]
    Missing {
        /// The prompt.
        prompt: &'static str,
        /// The argument.
        argument: &'static str,
    },
}

impl Prompt {
    /// Every prompt, in menu order.
    pub fn all() -> &'static [Prompt] {
        PROMPTS
    }

    /// The prompt called `name`.
    pub fn find(name: &str) -> Option<&'static Prompt> {
        PROMPTS.iter().find(|p| p.name == name)
    }

    /// The prompt's message for `arguments`, or the first required argument missing.
    pub fn render(&self, arguments: &BTreeMap<String, String>) -> Result<String, PromptError> {
        let given = Arguments(arguments);
        if let Some(missing) = self
            .arguments
            .iter()
            .find(|a| a.required && given.get(a.name).is_none())
        {
            return Err(PromptError::Missing {
                prompt: self.name,
                argument: missing.name,
            });
        }
        Ok((self.render)(&given))
    }

    /// The argument called `name`.
    pub fn argument(&self, name: &str) -> Option<&PromptArgument> {
        self.arguments.iter().find(|a| a.name == name)
    }
}

const fn argument(
    name: &'static str,
    description: &'static str,
    required: bool,
    completes: Option<Source>,
) -> PromptArgument {
    PromptArgument {
        name,
        description,
        required,
        completes,
    }
}

const PROMPTS: &[Prompt] = &[
    Prompt {
        name: "london_journey",
        title: "Plan a London journey",
        description: "The fastest ways between two places in London, with disruptions and the fare.",
        tools: &["planJourney"],
        arguments: &[
            argument(
                "from",
                "Where from: a station, a place, a postcode",
                true,
                Some(Source::TflStation),
            ),
            argument("to", "Where to", true, Some(Source::TflStation)),
            argument("step_free", "\"yes\" for a step-free route", false, None),
        ],
        render: |a| {
            let step_free = matches!(a.get("step_free"), Some(v) if v.eq_ignore_ascii_case("yes") || v.eq_ignore_ascii_case("true"));
            format!(
                "Plan a journey in London from {} to {}{} with planJourney. Give the fastest option \
with its legs (line, where to change, times), say whether any leg is disrupted and what TfL \
says about it, and give the fare. Mention a second option if it is nearly as fast.",
                a.or("from", ""),
                a.or("to", ""),
                if step_free {
                    ", step-free from street to train (needAccessibleRoute: true)"
                } else {
                    ""
                },
            )
        },
    },
    Prompt {
        name: "station_facilities",
        title: "A London station's facilities",
        description: "A station's toilets (accessible, baby changing, inside the gates) and any lift out of service.",
        tools: &["stationToilets", "liftOutages"],
        arguments: &[argument(
            "station",
            "The station",
            true,
            Some(Source::TflStation),
        )],
        render: |a| {
            format!(
                "What facilities does {} station have? Use stationToilets for its toilets (where they \
are, whether accessible, baby changing, inside the ticket gates) and liftOutages for any lift out \
of service there now. Say plainly if step-free access is affected.",
                a.or("station", "")
            )
        },
    },
    Prompt {
        name: "next_trains",
        title: "The next trains at a London station",
        description: "The next arrivals at a station or stop, soonest first, and how its lines are running.",
        tools: &["arrivals", "lineStatus"],
        arguments: &[
            argument(
                "station",
                "The station or stop",
                true,
                Some(Source::TflStation),
            ),
            argument("line", "Only this line, e.g. victoria", false, None),
        ],
        render: |a| {
            let line = a
                .get("line")
                .map(|l| format!(" on the {l} line"))
                .unwrap_or_default();
            format!(
                "When are the next trains{line} at {}? Use arrivals (soonest first: line, platform, \
destination, minutes away), then lineStatus for the lines you list, and say if any is not \
running a good service.",
                a.or("station", "")
            )
        },
    },
    Prompt {
        name: "departures",
        title: "Departures from a stop (Digitransit)",
        description: "The next departures from a stop in Finland, with delays, cancellations and alerts.",
        tools: &["get_departures"],
        arguments: &[argument(
            "stop",
            "The stop, as \"Name (stop id)\" or a stop id",
            true,
            Some(Source::DigitransitStop),
        )],
        render: |a| {
            format!(
                "Show the next departures from {} with get_departures (if only a name is given, find \
the stop id with geocode_address first). For each: route, headsign, the time it leaves, and \
whether it is delayed or cancelled. Then list the stop's alerts, most severe first.",
                a.or("stop", "")
            )
        },
    },
    Prompt {
        name: "explain_loko_project",
        title: "Explain a loko architecture project",
        description: "A C4 walk-through of a loko project: its systems, containers and how they depend on each other.",
        tools: &["query_architecture"],
        arguments: &[
            argument(
                "project_path",
                "The project's directory (inside LOKO_ALLOWED_ROOTS)",
                true,
                None,
            ),
            argument(
                "element",
                "Focus on this element (system, system/container, …)",
                false,
                Some(Source::LokoElement),
            ),
        ],
        render: |a| {
            let focus = a
                .get("element")
                .map(|e| format!(" Focus on {e}: what it is for, what it uses and what uses it."))
                .unwrap_or_default();
            format!(
                "Explain the architecture of the loko project at {} the way the C4 model tells it: \
start with query_architecture for the overview, then the systems, their containers and the \
relationships between them, in plain words.{focus}",
                a.or("project_path", "")
            )
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Catalog;

    #[test]
    fn every_prompt_names_catalog_tools_and_completes_from_a_source() {
        for prompt in Prompt::all() {
            for tool in prompt.tools {
                assert!(
                    Catalog::get().find(tool).is_some(),
                    "{}: {tool}",
                    prompt.name
                );
            }
            assert!(
                prompt.arguments.iter().any(|a| a.completes.is_some()),
                "{}",
                prompt.name
            );
        }
    }

    #[test]
    fn a_prompt_renders_its_arguments_and_refuses_without_a_required_one() {
        let journey = Prompt::find("london_journey").unwrap();
        let args = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
            pairs
                .iter()
                .map(|(k, v)| ((*k).into(), (*v).into()))
                .collect()
        };
        let text = journey
            .render(&args(&[
                ("from", " Bank "),
                ("to", "Edgware Road"),
                ("step_free", "yes"),
            ]))
            .unwrap();
        assert!(
            text.starts_with("Plan a journey in London from Bank to Edgware Road, step-free"),
            "{text}"
        );
        assert_eq!(
            journey.render(&args(&[("from", "Bank"), ("to", "  ")])),
            Err(PromptError::Missing {
                prompt: "london_journey",
                argument: "to"
            })
        );
        let trains = Prompt::find("next_trains").unwrap();
        let text = trains
            .render(&args(&[("station", "Oxford Circus")]))
            .unwrap();
        assert!(
            text.starts_with("When are the next trains at Oxford Circus?"),
            "{text}"
        );
    }
}
