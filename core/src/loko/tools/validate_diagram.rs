//! `validate_diagram`: checks a D2 source before it is written, through the real `d2`
//! (the first syntax error, with line and column), plus the C4 checks loko v0.3 makes
//! for a diagram of each level. Without `d2` it says so plainly and checks the rest.

use std::collections::BTreeSet;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Toolpack;
use crate::loko::formats::d2::D2;
use crate::loko::project::model::ROLES;
use crate::loko::response::{Failure, LokoResponse};
use crate::loko::tools::choice;
use crate::loko::tools::project_tool::{answer, blocking};
use crate::loko::tools::update_diagram::MAX_D2_BYTES;
use crate::tool::{Annotations, Tool, ToolSpec, Toolset};

/// `validate_diagram` arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
#[serde(deny_unknown_fields)]
pub struct ValidateDiagramRequest {
    /// The D2 source to check.
    pub d2_source: String,
    /// `system`, `container` or `component`.
    ///
    /// The C4 level it draws, for the level's checks: `system`, `container` or `component`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["system", "container", "component"]))]
    pub level: Option<String>,
}

/// A syntax error d2 found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct DiagramError {
    /// d2's message.
    pub message: String,
    /// The line (1-based), when d2 says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// The column (1-based), when d2 says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
}

/// `validate_diagram` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct ValidateDiagramResult {
    /// Whether d2 checked the source and found no error.
    pub valid: bool,
    /// Whether d2 accepts the syntax (`false` too when d2 could not check it).
    pub syntax_valid: bool,
    /// Whether `d2` was found.
    pub d2_available: bool,
    /// The syntax error d2 found (at most one: d2 stops at the first).
    pub errors: Vec<DiagramError>,
    /// Problems worth fixing that do not make the source invalid (and that d2 is missing).
    pub warnings: Vec<String>,
    /// Ideas for a clearer C4 diagram.
    pub suggestions: Vec<String>,
    /// How many shapes the source declares or connects.
    pub shape_count: u32,
}

/// The `validate_diagram` tool.
pub struct ValidateDiagram;

crate::tool::offline_bodies!(ValidateDiagramResult);

impl Tool for ValidateDiagram {
    type Input = ValidateDiagramRequest;
    type Output = LokoResponse<ValidateDiagramResult>;
    const SPEC: ToolSpec = ToolSpec {
        name: "validate_diagram",
        title: "loko: validate a diagram",
        description: "Check D2 diagram code with d2 and the C4 rules before writing it; writes nothing.",
        summary: "Checks D2 source with the real d2, plus C4 level checks",
        needs: "`d2` (for the syntax)",
        toolset: Toolset::Loko,
        annotations: Annotations::READ_ONLY_LOCAL,
    };

    async fn run(toolpack: &Toolpack, r: ValidateDiagramRequest) -> Self::Output {
        answer(async {
            if r.d2_source.trim().is_empty() {
                return Err(Failure::invalid("d2_source is required"));
            }
            if r.d2_source.len() > MAX_D2_BYTES {
                return Err(Failure::invalid(format!(
                    "d2_source is {} bytes; at most {MAX_D2_BYTES}",
                    r.d2_source.len()
                )));
            }
            let level = choice::optional("level", r.level.as_deref(), &ROLES)?;
            let config = toolpack.config().clone();
            let mut warnings = Vec::new();
            let mut errors = Vec::new();
            let d2 = blocking(move || Ok(D2::locate(&config))).await?;
            let d2_available = d2.is_ok();
            let syntax_valid = match d2 {
                Ok(d2) => {
                    let checker = toolpack.loko().syntax_checker(d2, None).await;
                    match checker.check(&r.d2_source).await? {
                        None => true,
                        Some(e) => {
                            errors.push(DiagramError {
                                message: e.message,
                                line: (e.line > 0).then_some(e.line),
                                column: (e.column > 0).then_some(e.column),
                            });
                            false
                        }
                    }
                }
                Err(missing) => {
                    warnings.push(format!(
                        "d2 is not installed, so the syntax was not checked: {}",
                        missing.details.unwrap_or(missing.message)
                    ));
                    false
                }
            };
            let shapes = shapes(&r.d2_source);
            let (level_warnings, suggestions) =
                c4_checks(&r.d2_source, level.as_deref(), shapes.len());
            warnings.extend(level_warnings);
            Ok(ValidateDiagramResult {
                valid: d2_available && syntax_valid,
                syntax_valid,
                d2_available,
                errors,
                warnings,
                suggestions,
                shape_count: shapes.len() as u32,
            })
        })
        .await
    }
}

/// D2's reserved keys, which are attributes rather than shapes.
const RESERVED: [&str; 16] = [
    "direction",
    "label",
    "shape",
    "style",
    "tooltip",
    "icon",
    "near",
    "width",
    "height",
    "link",
    "class",
    "classes",
    "vars",
    "layers",
    "scenarios",
    "steps",
];

/// The shapes a source declares (`key: …`, `key {`, `key`) or connects, by key.
fn shapes(source: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let key = |s: &str| s.trim().trim_matches('"').trim().to_owned();
    let is_shape = |k: &str| {
        !k.is_empty()
            && !k.contains('.')
            && !RESERVED.contains(&k)
            && !k.starts_with("grid-")
            && !k.starts_with('(')
    };
    for line in source.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line == "}" {
            continue;
        }
        let head = line
            .split_once(':')
            .map_or(line, |(h, _)| h)
            .trim_end_matches('{')
            .trim();
        let arrows = head
            .replace("<->", "\u{1}")
            .replace("->", "\u{1}")
            .replace("<-", "\u{1}")
            .replace("--", "\u{1}");
        let ends: Vec<String> = arrows.split('\u{1}').map(key).collect();
        if ends.len() > 1 {
            found.extend(ends.into_iter().filter(|k| is_shape(k)));
        } else {
            let k = key(head);
            if is_shape(&k) {
                found.insert(k);
            }
        }
    }
    found
}

/// loko v0.3's C4 checks for a diagram of `level`: warnings, then suggestions.
fn c4_checks(source: &str, level: Option<&str>, shapes: usize) -> (Vec<String>, Vec<String>) {
    let mut warnings = Vec::new();
    let mut suggestions = Vec::new();
    let has = |s: &str| source.contains(s);
    if !source.lines().any(|l| l.trim_start().starts_with('#')) {
        suggestions.push("Add # comments to explain the diagram's structure".to_owned());
    }
    match level {
        Some("system") => {
            if !source.to_lowercase().contains("user") && !has("shape: person") {
                suggestions.push(
                    "A C4 system context diagram usually shows its users: add a person (shape: person)".to_owned(),
                );
            }
            if shapes < 2 {
                warnings.push(format!(
                    "A system context diagram should have at least 2 shapes (the users and the system); it has {shapes}"
                ));
            }
        }
        Some("container") => {
            if shapes < 2 {
                warnings.push(format!(
                    "A container diagram should have at least 2 shapes; it has {shapes}"
                ));
            }
            if !has("{\n") && !has("{\r\n") {
                suggestions.push(
                    "Group related containers inside the system's shape with { … }".to_owned(),
                );
            }
        }
        Some("component") if shapes < 1 => {
            warnings
                .push("A component diagram should have at least 1 shape; it has none".to_owned());
        }
        _ => {}
    }
    if !has("direction") {
        suggestions.push("Say the layout's direction (e.g. direction: right)".to_owned());
    }
    if !has("tooltip") && !has("description") {
        suggestions.push("Add tooltips to shapes to document them".to_owned());
    }
    (warnings, suggestions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_declared_or_connected() {
        let source = "# ctx\ndirection: right\nuser: Customer {\n  shape: person\n}\nshop: \"Shop\" {\n  style.fill: \"#fff\"\n  api\n}\nuser -> shop: buys\nshop -> card-bank\n";
        let found: Vec<String> = shapes(source).into_iter().collect();
        assert_eq!(found, ["api", "card-bank", "shop", "user"]);
    }

    #[test]
    fn each_level_has_its_checks() {
        let (w, s) = c4_checks("a -> b\n", Some("system"), 1);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(s.iter().any(|s| s.contains("person")), "{s:?}");
        let (w, _) = c4_checks("# x\ndirection: right\n", Some("component"), 0);
        assert_eq!(w.len(), 1);
        let (w, s) = c4_checks(
            "# x\ndirection: right\ns: {\n  a\n  b\n}\ns.a.tooltip: t\n",
            Some("container"),
            3,
        );
        assert!(w.is_empty() && s.is_empty(), "{w:?} {s:?}");
    }
}
