//! `lineStatus`: whether London's lines are running, from the TfL Unified API
//! (`GET /Line/{ids}/Status`, `GET /Line/Mode/{modes}/Status`).

mod types;
pub(crate) mod wire;

pub use types::{LineStatusLine, LineStatusRequest, LineStatusResponse, PlannedStatus};

use serde::Deserialize;

use self::wire::{Line, Summary};
use crate::Toolpack;
use crate::http::AnswerKind;
use crate::tfl::TflCode;
use crate::tfl::checks::is_id;
use crate::tfl::lenient;
use crate::tfl::upstream::{self, Failure};
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

/// Most line ids in one call (TfL's limit for one `/Line/{ids}` request is about 20).
pub const MAX_LINES: usize = 20;
/// Most modes in one call.
pub const MAX_MODES: usize = 10;
/// The modes reported when the call names neither lines nor modes: London's rail.
pub const DEFAULT_MODES: [&str; 5] = ["tube", "elizabeth-line", "overground", "dlr", "tram"];
/// Line ids TfL retired, the mode whose lines replaced each, and those lines' ids: the
/// Overground became six lines in November 2024, TfL Rail the Elizabeth line in May 2022.
/// The successors are written here, not looked up: a caller can pass them straight back
/// whether or not TfL answers the list of lines.
pub const RETIRED_LINES: [RetiredLine; 2] = [
    RetiredLine {
        id: "london-overground",
        mode: "overground",
        successors: &[
            "liberty",
            "lioness",
            "mildmay",
            "suffragette",
            "weaver",
            "windrush",
        ],
    },
    RetiredLine {
        id: "tfl-rail",
        mode: "elizabeth-line",
        successors: &["elizabeth"],
    },
];

/// A line id TfL no longer knows, and what replaced it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetiredLine {
    /// The retired id, e.g. `london-overground`.
    pub id: &'static str,
    /// The mode whose lines replaced it, e.g. `overground`.
    pub mode: &'static str,
    /// The ids of the lines that replaced it.
    pub successors: &'static [&'static str],
}
/// Most suggestions for one unknown line id or mode.
const MAX_SUGGESTIONS: usize = 6;

/// The `lineStatus` tool.
#[derive(Debug, Clone, Copy)]
pub struct LineStatus;

impl Tool for LineStatus {
    type Input = LineStatusRequest;
    type Output = LineStatusResponse;
    const SPEC: ToolSpec = ToolSpec {
        name: "lineStatus",
        title: "London line status",
        description: "Is a London line running? Good service, delays, closures and why, now, for tube, \
Overground, Elizabeth line, DLR, tram and bus lines (TfL).",
        summary: "Whether London's lines are running now (TfL): good service or not, each status with its severity, reason and period",
        needs: "nothing (`TFL_API_KEY` raises TfL's limit from 50 to 500 requests a minute)",
        toolset: Toolset::Tfl,
        annotations: Annotations::READ_ONLY_REMOTE,
    };

    async fn run(toolpack: &Toolpack, input: Self::Input) -> Self::Output {
        let selection = match Selection::of(&input) {
            Ok(selection) => selection,
            Err(message) => {
                return LineStatusResponse::error(TflCode::ValidationError, message);
            }
        };
        let disrupted_only = input.disrupted_only.unwrap_or(false);
        if let Selection::Lines(ids) = &selection
            && ids.iter().any(|id| retired(id).is_some())
        {
            return line_not_found(toolpack, ids, None).await;
        }
        let path = match &selection {
            Selection::Lines(ids) => format!("/Line/{}/Status", ids.join(",")),
            Selection::Modes(modes) => format!("/Line/Mode/{}/Status", modes.join(",")),
        };
        let failure = match upstream::get_shared::<Vec<Line>>(
            toolpack,
            AnswerKind::LineStatus,
            &path,
            &[("detail", "false")],
        )
        .await
        {
            Ok(lines) => return answer(&lines, disrupted_only),
            Err(failure) => failure,
        };
        match (failure, &selection) {
            (Failure::NotFound(said), Selection::Lines(ids)) => {
                line_not_found(toolpack, ids, said).await
            }
            (Failure::NotFound(said) | Failure::BadArgument(said), Selection::Modes(modes)) => {
                mode_not_found(toolpack, modes, said).await
            }
            (failure, _) => LineStatusResponse::error(TflCode::from(&failure), failure.message()),
        }
    }
}

crate::tfl::tfl_tool_output!(
    LineStatusResponse,
    TflCode,
    "Unexpected error while getting line status.",
    live
);

/// What the call asks about: line ids or modes, trimmed and in lower case.
enum Selection {
    Lines(Vec<String>),
    Modes(Vec<String>),
}

impl Selection {
    fn of(input: &LineStatusRequest) -> Result<Self, String> {
        match (&input.lines, &input.modes) {
            (Some(_), Some(_)) => Err("Give 'lines' or 'modes', not both.".into()),
            (Some(lines), None) => ids("lines", lines, MAX_LINES).map(Self::Lines),
            (None, Some(modes)) => ids("modes", modes, MAX_MODES).map(Self::Modes),
            (None, None) => Ok(Self::Modes(
                DEFAULT_MODES.iter().map(|m| (*m).to_owned()).collect(),
            )),
        }
    }
}

/// `values` as TfL ids (trimmed, lower case, each once), or why not.
fn ids(field: &str, values: &[String], max: usize) -> Result<Vec<String>, String> {
    if values.is_empty() {
        return Err(format!("Field '{field}' must list at least one id."));
    }
    if values.len() > max {
        return Err(format!("Field '{field}' must list at most {max} ids."));
    }
    let mut ids: Vec<String> = Vec::new();
    for value in values {
        let id = value.trim().to_ascii_lowercase();
        if !is_id(&id) {
            return Err(format!(
                "Field '{field}' holds \"{}\", which is not an id (letters, digits and '-', at \
most 40).",
                upstream::clip(value, 60)
            ));
        }
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    Ok(ids)
}

fn answer(lines: &[Line], disrupted_only: bool) -> LineStatusResponse {
    let summaries: Vec<Summary> = lines.iter().filter_map(Line::summarise).collect();
    let (mut troubled, good): (Vec<&Summary>, Vec<&Summary>) =
        summaries.iter().partition(|line| !line.good_service);
    troubled.sort_by_key(|line| line.badness());
    let planned: Vec<PlannedStatus> = summaries.iter().flat_map(Summary::plans).collect();
    LineStatusResponse {
        served: None,
        success: true,
        code: TflCode::Ok,
        message: status_message(&troubled, good.len(), &planned, disrupted_only),
        lines: Some(troubled.iter().map(|line| line.line()).collect()),
        good_service: (!disrupted_only).then(|| good.iter().map(|l| l.name.clone()).collect()),
        planned: (!disrupted_only && !planned.is_empty()).then_some(planned),
        suggestions: None,
    }
}

/// What a person asking "is it running" hears: the lines not in good service by what is
/// wrong ("Elizabeth line: severe delays, part suspended. Jubilee, Windrush: minor
/// delays."), then the others in one clause, then what is planned.
fn status_message(
    troubled: &[&Summary],
    good: usize,
    planned: &[PlannedStatus],
    disrupted_only: bool,
) -> String {
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for line in troubled {
        let what: Vec<String> = line
            .troubles()
            .map(|s| s.description.to_lowercase())
            .collect();
        let what = what.join(", ");
        match groups.iter_mut().find(|(said, _)| *said == what) {
            Some((_, names)) => names.push(&line.name),
            None => groups.push((what, vec![&line.name])),
        }
    }
    let planned: Vec<String> = planned
        .iter()
        .map(|plan| format!("{} ({})", plan.line, plan.status.to_lowercase()))
        .collect();
    let mut sentences: Vec<String> = groups
        .iter()
        .map(|(what, names)| format!("{}: {what}.", names.join(", ")))
        .collect();
    match (sentences.is_empty(), good) {
        (_, 0) if sentences.is_empty() => sentences.push("TfL listed no lines.".into()),
        (_, 0) => {}
        (true, 1) => sentences.push("Good service.".into()),
        (true, n) => sentences.push(format!("All {n} lines: good service.")),
        (false, 1) if !disrupted_only => sentences.push("The other line: good service.".into()),
        (false, n) if !disrupted_only => {
            sentences.push(format!("The other {n} lines: good service."))
        }
        (false, _) => {}
    }
    if !planned.is_empty() && !disrupted_only {
        sentences.push(format!("Planned: {}.", planned.join("; ")));
    }
    sentences.join(" ")
}

/// What replaced a retired line id.
pub(crate) fn retired(id: &str) -> Option<&'static RetiredLine> {
    RETIRED_LINES.iter().find(|retired| retired.id == id)
}

/// `LINE_NOT_FOUND` for the ids TfL does not know, with the nearest known ids.
async fn line_not_found(
    toolpack: &Toolpack,
    ids: &[String],
    said: Option<String>,
) -> LineStatusResponse {
    let (message, suggestions) = unknown_lines(toolpack, ids, said.as_deref()).await;
    LineStatusResponse {
        suggestions: Some(suggestions),
        ..LineStatusResponse::error(TflCode::LineNotFound, message)
    }
}

/// What to tell a caller about the line ids TfL does not know (those its message names,
/// else all asked for): the message, and for each id the lines that replaced it (a retired
/// id) or the nearest line ids of TfL's own list of the default modes' lines. The list is
/// asked for only when an id is not retired; without it, no nearest ids. Shared by the
/// tools that take line ids.
pub(crate) async fn unknown_lines(
    toolpack: &Toolpack,
    ids: &[String],
    said: Option<&str>,
) -> (String, Vec<String>) {
    let unknown = unknown_ids(ids, said);
    let known = if unknown.iter().all(|id| retired(id).is_some()) {
        Vec::new()
    } else {
        upstream::get::<Vec<Line>>(
            toolpack,
            AnswerKind::LineStatus,
            &format!("/Line/Mode/{}", DEFAULT_MODES.join(",")),
            &[],
        )
        .await
        .unwrap_or_default()
    };
    let mut suggestions: Vec<String> = Vec::new();
    for id in &unknown {
        let near: Vec<&str> = match retired(id) {
            Some(retired) => retired.successors.to_vec(),
            None => crate::nearest::nearest(
                id,
                known.iter().filter_map(|line| line.id.as_deref()),
                MAX_SUGGESTIONS,
            ),
        };
        for line in near {
            if !suggestions.iter().any(|s| s == line) {
                suggestions.push(line.to_owned());
            }
        }
    }
    let listed = unknown
        .iter()
        .map(|id| format!("'{id}'"))
        .collect::<Vec<_>>()
        .join(", ");
    let retired_note = unknown
        .iter()
        .filter_map(|id| retired(id))
        .map(|retired| {
            format!(
                " '{}' was retired: its lines are now under mode '{}'.",
                retired.id, retired.mode
            )
        })
        .collect::<String>();
    let message = format!(
        "TfL knows no line with the id {listed}.{retired_note}{}",
        if suggestions.is_empty() {
            String::new()
        } else {
            format!(" Nearest: {}.", suggestions.join(", "))
        }
    );
    (message, suggestions)
}

/// `MODE_NOT_FOUND`, with the nearest of the modes TfL lists (`/Line/Meta/Modes`).
async fn mode_not_found(
    toolpack: &Toolpack,
    modes: &[String],
    said: Option<String>,
) -> LineStatusResponse {
    #[derive(Clone, Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Mode {
        #[serde(default, deserialize_with = "lenient::string")]
        mode_name: Option<String>,
    }
    let unknown = unknown_ids(modes, said.as_deref());
    let known: Vec<Mode> = upstream::get(toolpack, AnswerKind::Places, "/Line/Meta/Modes", &[])
        .await
        .unwrap_or_default();
    let known: Vec<&str> = known
        .iter()
        .filter_map(|m| m.mode_name.as_deref())
        .collect();
    let mut suggestions: Vec<String> = Vec::new();
    for mode in &unknown {
        for near in crate::nearest::nearest(mode, known.iter().copied(), MAX_SUGGESTIONS) {
            if !suggestions.iter().any(|s| s == near) {
                suggestions.push(near.to_owned());
            }
        }
    }
    let listed = unknown
        .iter()
        .map(|m| format!("'{m}'"))
        .collect::<Vec<_>>()
        .join(", ");
    let message = format!(
        "TfL knows no mode {listed}.{}",
        if suggestions.is_empty() {
            String::new()
        } else {
            format!(" Nearest: {}.", suggestions.join(", "))
        }
    );
    LineStatusResponse {
        suggestions: Some(suggestions),
        ..LineStatusResponse::error(TflCode::ModeNotFound, message)
    }
}

/// The ids of `asked` that TfL's message ("The following line ids are not recognised: a,
/// b") names; all of them when it names none.
fn unknown_ids(asked: &[String], said: Option<&str>) -> Vec<String> {
    let named: Vec<String> = said
        .and_then(|said| said.rsplit_once(':'))
        .map(|(_, list)| {
            list.split(',')
                .map(|id| id.trim().trim_end_matches('.').to_ascii_lowercase())
                .collect()
        })
        .unwrap_or_default();
    let unknown: Vec<String> = asked
        .iter()
        .filter(|id| named.contains(id) || retired(id).is_some())
        .cloned()
        .collect();
    if unknown.is_empty() {
        asked.to_vec()
    } else {
        unknown
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_trimmed_lower_case_and_each_once() {
        let lines = vec![" Central ".to_owned(), "central".into(), "N29".into()];
        assert_eq!(ids("lines", &lines, 20).unwrap(), ["central", "n29"]);
        assert_eq!(
            ids("lines", &[], 20).unwrap_err(),
            "Field 'lines' must list at least one id."
        );
        assert!(
            ids("modes", &["tube/../x".into()], 10)
                .unwrap_err()
                .contains("not an id")
        );
        let many: Vec<String> = (0..21).map(|n| n.to_string()).collect();
        assert_eq!(
            ids("lines", &many, MAX_LINES).unwrap_err(),
            "Field 'lines' must list at most 20 ids."
        );
    }

    #[test]
    fn tfls_message_names_the_unknown_ids() {
        let asked = ["central".to_owned(), "notaline".into(), "nor-this".into()];
        assert_eq!(
            unknown_ids(
                &asked,
                Some("The following line ids are not recognised: notaline, nor-this")
            ),
            ["notaline", "nor-this"]
        );
        assert_eq!(unknown_ids(&asked, None), asked);
        assert_eq!(
            unknown_ids(&["london-overground".into(), "central".into()], None),
            ["london-overground"]
        );
    }
}
