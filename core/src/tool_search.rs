//! How a host's tool search finds toolpack's tools: hosts that load only names and
//! instructions up front (Claude Code's tool search) rank tools by their name, title and
//! description, with BM25 or a regex. The test below asks the catalog the questions
//! travellers and architects ask, in their words, and wants the right tool in the top 3.

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use crate::Catalog;

    /// Lower-case words of `text`; a tool name's camelCase and snake_case parts are words.
    fn words(text: &str) -> Vec<String> {
        let mut spaced = String::new();
        let mut previous_lower = false;
        for c in text.chars() {
            if c.is_uppercase() && previous_lower {
                spaced.push(' ');
            }
            previous_lower = c.is_lowercase();
            spaced.push(if c.is_alphanumeric() { c } else { ' ' });
        }
        spaced.split_whitespace().map(str::to_lowercase).collect()
    }

    /// Okapi BM25 (k1 1.2, b 0.75) over each tool's name, title and description.
    struct Index {
        names: Vec<&'static str>,
        documents: Vec<HashMap<String, f64>>,
        lengths: Vec<f64>,
        average: f64,
        frequency: HashMap<String, f64>,
    }

    impl Index {
        fn of_catalog() -> Self {
            let entries = Catalog::get().entries();
            let mut documents = Vec::new();
            let mut lengths = Vec::new();
            let mut frequency: HashMap<String, f64> = HashMap::new();
            for entry in entries {
                let spec = entry.spec;
                let text = format!("{} {} {}", spec.name, spec.title, spec.description);
                let mut counts: HashMap<String, f64> = HashMap::new();
                let all = words(&text);
                for word in &all {
                    *counts.entry(word.clone()).or_default() += 1.0;
                }
                for word in counts.keys() {
                    *frequency.entry(word.clone()).or_default() += 1.0;
                }
                lengths.push(all.len() as f64);
                documents.push(counts);
            }
            let average = lengths.iter().sum::<f64>() / lengths.len() as f64;
            Self {
                names: entries.iter().map(|e| e.spec.name).collect(),
                documents,
                lengths,
                average,
                frequency,
            }
        }

        /// The tools, best first.
        fn ranked(&self, query: &str) -> Vec<&'static str> {
            let n = self.documents.len() as f64;
            let mut scored: Vec<(f64, &'static str)> = self
                .documents
                .iter()
                .zip(&self.lengths)
                .zip(&self.names)
                .map(|((counts, length), name)| {
                    let score = words(query)
                        .iter()
                        .map(|word| {
                            let tf = counts.get(word).copied().unwrap_or(0.0);
                            let df = self.frequency.get(word).copied().unwrap_or(0.0);
                            let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
                            idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / self.average))
                        })
                        .sum::<f64>();
                    (score, *name)
                })
                .collect();
            scored.sort_by(|a, b| b.0.total_cmp(&a.0));
            scored.into_iter().map(|(_, name)| name).collect()
        }
    }

    /// Questions as people ask them, never with a tool's name, and the tool that answers.
    const QUESTIONS: &[(&str, &str)] = &[
        ("is the Central line running", "lineStatus"),
        ("when is the last train from Poplar on the DLR", "timetable"),
        ("first tube from Brixton on Sunday morning", "timetable"),
        ("how busy is Oxford Circus station right now", "crowding"),
        ("when is King's Cross quietest today", "crowding"),
        ("any delays on the tube today", "lineStatus"),
        ("how do I get from King's Cross to Waterloo", "planJourney"),
        ("fastest way from Bank to Mile End in London", "planJourney"),
        ("is the lift working at Green Park", "liftOutages"),
        (
            "broken elevators, step-free access at Oxford Circus",
            "liftOutages",
        ),
        ("where can I get a bike", "bikePoints"),
        (
            "Santander cycles dock with free spaces near Hyde Park",
            "bikePoints",
        ),
        ("next train at Oxford Circus", "arrivals"),
        ("when is the next bus at my London stop", "arrivals"),
        ("find the stop id of Piccadilly Circus", "stopSearch"),
        ("bus stops near me in London", "stopSearch"),
        ("is there a toilet at Victoria station", "stationToilets"),
        (
            "accessible toilets with baby changing at Paddington",
            "stationToilets",
        ),
        ("which stations does the Victoria line call at", "lineRoute"),
        ("list the stops of the Northern line in order", "lineRoute"),
        ("where is the 550 bus now in Helsinki", "vehicle_positions"),
        ("how late is tram 15 running right now", "vehicle_positions"),
        ("any disruptions on tram 4", "get_alerts"),
        ("service alerts for Helsinki buses", "get_alerts"),
        (
            "how do I get from Kamppi to the airport in Helsinki",
            "plan_trip",
        ),
        ("plan a trip in Finland arriving by nine", "plan_trip"),
        (
            "coordinates of Mannerheimintie 1, Helsinki",
            "geocode_address",
        ),
        (
            "look up the address Aleksanterinkatu 52 in Finland",
            "geocode_address",
        ),
        ("what address is at 60.17, 24.94", "reverse_geocode"),
        ("which street is this point in Finland", "reverse_geocode"),
        (
            "next departures from the Rautatientori stop",
            "get_departures",
        ),
        (
            "when does the next tram leave from my stop in Helsinki",
            "get_departures",
        ),
        ("stops within walking distance in Helsinki", "find_stops"),
        (
            "city bikes and scooters near Kamppi",
            "find_rental_vehicles",
        ),
        (
            "which lines serve this Helsinki stop and is it wheelchair accessible",
            "get_stop_info",
        ),
        ("remember my home address", "save_user_variable"),
        ("what places have I saved", "get_user_variables"),
        ("add a system to my architecture docs", "create_system"),
        ("add a container to the payment system", "create_container"),
        ("add a component to the API container", "create_component"),
        ("what systems are in this C4 project", "query_project"),
        (
            "show the architecture of the payment system",
            "query_architecture",
        ),
        ("build the documentation site as HTML", "build_docs"),
        ("check my architecture docs for errors", "validate"),
        ("render the diagram as SVG", "render_diagram"),
        ("replace the D2 diagram of a container", "update_diagram"),
        (
            "what depends on the database component",
            "query_related_components",
        ),
        ("find tightly coupled components", "analyze_coupling"),
        (
            "connect two components with a relationship",
            "create_relationship",
        ),
        (
            "remove the link between the api and the db",
            "delete_relationship",
        ),
        ("search for elements named payment", "search_elements"),
        ("change the description of a system", "update_system"),
        ("create several components at once", "create_components"),
        ("is this D2 code valid", "validate_diagram"),
        (
            "list the relationships of the shop system",
            "list_relationships",
        ),
        (
            "what does the checkout component depend on",
            "query_dependencies",
        ),
    ];

    #[test]
    fn the_questions_people_ask_find_the_right_tool_in_the_top_three() {
        let index = Index::of_catalog();
        let missed: Vec<String> = QUESTIONS
            .iter()
            .filter_map(|(question, tool)| {
                let top: Vec<&str> = index.ranked(question).into_iter().take(3).collect();
                (!top.contains(tool)).then(|| format!("{question:?} → {top:?}, not {tool}"))
            })
            .collect();
        let found = QUESTIONS.len() - missed.len();
        assert!(QUESTIONS.len() >= 40);
        assert!(
            found * 100 >= QUESTIONS.len() * 95,
            "{found} of {} found in the top 3; missed:\n{}",
            QUESTIONS.len(),
            missed.join("\n")
        );
    }

    #[test]
    fn words_split_names_and_drop_punctuation() {
        assert_eq!(
            words("stopSearch, get_departures!"),
            ["stop", "search", "get", "departures"]
        );
        let index = Index::of_catalog();
        assert_eq!(index.ranked("lift outages")[0], "liftOutages");
    }
}
