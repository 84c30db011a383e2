//! When `from`, `to` or `via` names several places: titles that tell same-named places apart,
//! and asking the person which place each side means ([`crate::ask`]).

use std::collections::HashMap;

use super::types::{JourneyDisambiguationSuggestion, JourneyPlanToolResponse};
use super::wire::{Disambiguation, JourneyResponse};
use crate::Toolpack;
use crate::ask::{Choice, Question, choose, titled};
use crate::tfl::stops::station_lines;

/// Gives the suggestions that share a name on their side their lines in the title
/// ("Edgware Road — Bakerloo", "Edgware Road — Circle, District, Hammersmith & City"),
/// from one `/StopPoint/{ids}` request for all of them (by the NaPTAN ids of TfL's
/// answer, `body`). Titles stay as they are when TfL does not say.
pub(super) async fn tell_apart(
    toolpack: &Toolpack,
    body: &[u8],
    answer: &mut JourneyPlanToolResponse,
) {
    let Ok(read) = serde_json::from_slice::<JourneyResponse>(body) else {
        return;
    };
    let sides = [
        (
            answer.from_location_disambiguation.as_mut(),
            read.from_location_disambiguation.as_ref(),
        ),
        (
            answer.to_location_disambiguation.as_mut(),
            read.to_location_disambiguation.as_ref(),
        ),
        (
            answer.via_location_disambiguation.as_mut(),
            read.via_location_disambiguation.as_ref(),
        ),
    ];
    let mut alike: Vec<(&mut JourneyDisambiguationSuggestion, String)> = Vec::new();
    for (suggestions, side) in sides {
        let (Some(suggestions), Some(side)) = (suggestions, side) else {
            continue;
        };
        let naptan = naptan_ids(side);
        let mut seen: HashMap<Option<String>, usize> = HashMap::new();
        for suggestion in suggestions.iter() {
            *seen.entry(suggestion.common_name.clone()).or_default() += 1;
        }
        for suggestion in suggestions.iter_mut() {
            let shared = seen.get(&suggestion.common_name).is_some_and(|n| *n > 1);
            if let (true, Some(id)) = (shared, naptan.get(&suggestion.parameter_value)) {
                let id = id.clone();
                alike.push((suggestion, id));
            }
        }
    }
    if alike.is_empty() {
        return;
    }
    let mut ids: Vec<String> = alike.iter().map(|(_, id)| id.clone()).collect();
    ids.sort();
    ids.dedup();
    let lines = station_lines(toolpack, &ids).await;
    for (suggestion, id) in alike {
        if let Some(names) = lines.get(&id).filter(|names| !names.is_empty()) {
            let name = suggestion
                .common_name
                .as_deref()
                .unwrap_or(&suggestion.parameter_value);
            suggestion.title = titled(name, &names.join(", "));
        }
    }
}

/// Each usable option's NaPTAN id, by its `parameterValue`.
fn naptan_ids(side: &Disambiguation) -> HashMap<String, String> {
    side.usable_options()
        .filter_map(|option| {
            let id = option.place.as_ref()?.naptan_id.clone()?;
            Some((option.parameter_value.clone()?.trim().to_owned(), id))
        })
        .collect()
}

/// The places a journey is planned between: `from`, `to` and the `via` it goes through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Places {
    pub(super) from: String,
    pub(super) to: String,
    pub(super) via: Option<String>,
}

/// Asks the person which place each ambiguous side of `answer` means: the places to plan
/// with once every ambiguous side is picked; `None` when any is not.
pub(super) async fn picked(answer: &JourneyPlanToolResponse, given: &Places) -> Option<Places> {
    let from = pick(
        "from",
        &given.from,
        answer.from_location_disambiguation.as_deref(),
    )
    .await?;
    let to = pick(
        "to",
        &given.to,
        answer.to_location_disambiguation.as_deref(),
    )
    .await?;
    let via = match &given.via {
        Some(via) => Some(pick("via", via, answer.via_location_disambiguation.as_deref()).await?),
        None => None,
    };
    Some(Places { from, to, via })
}

/// The value `field` goes on with: as given when it needed no choosing, else the picked
/// suggestion's `parameterValue`.
async fn pick(
    field: &str,
    given: &str,
    suggestions: Option<&[JourneyDisambiguationSuggestion]>,
) -> Option<String> {
    let suggestions = suggestions.unwrap_or_default();
    if suggestions.is_empty() {
        return Some(given.to_owned());
    }
    let question = Question::new(
        field,
        format!("Which place do you mean by \"{given}\" ({field})?"),
        suggestions.iter().map(|s| Choice {
            value: s.parameter_value.clone(),
            title: s.title.clone(),
        }),
    );
    choose(&question).await
}
