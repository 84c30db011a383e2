//! Which catalog tools a server offers (`--toolsets`).

use toolpack::{Catalog, Config, ToolEntry, Toolset};

/// The tools to serve, and the ones left out with the reason.
#[derive(Debug)]
pub struct Selection {
    /// Tools to serve, in catalog order.
    pub tools: Vec<&'static ToolEntry>,
    /// `(tool name, why)` for each tool left out of a default selection.
    pub left_out: Vec<(&'static str, String)>,
}

/// Why the requested toolsets cannot be served.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectionError {
    /// A name that is not a toolset.
    #[error("unknown toolset '{0}' (expected tfl, digitransit or loko)")]
    Unknown(String),
    /// A toolset named explicitly whose prerequisites are missing.
    #[error("toolset '{toolset}' cannot start: {reason}")]
    Unmet {
        /// The toolset.
        toolset: &'static str,
        /// The first unmet prerequisite.
        reason: String,
    },
}

/// Selects tools. With `requested = None`, every toolset is served and each tool
/// whose prerequisites are missing is left out (and reported); naming a toolset
/// explicitly makes a missing prerequisite an error.
pub fn select_tools(config: &Config, requested: Option<&str>) -> Result<Selection, SelectionError> {
    select_from(Catalog::get().entries(), config, requested)
}

/// [`select_tools`] over any list of entries.
fn select_from(
    entries: &'static [ToolEntry],
    config: &Config,
    requested: Option<&str>,
) -> Result<Selection, SelectionError> {
    let Some(requested) = requested else {
        let (tools, left_out) = entries.iter().fold(
            (Vec::new(), Vec::new()),
            |(mut tools, mut left_out), entry| {
                match entry.missing_prerequisite(config) {
                    Some(why) => left_out.push((entry.spec.name, why)),
                    None => tools.push(entry),
                }
                (tools, left_out)
            },
        );
        return Ok(Selection { tools, left_out });
    };
    let toolsets = requested
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|name| {
            Toolset::parse(name).ok_or_else(|| SelectionError::Unknown(name.trim().to_owned()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let tools: Vec<&'static ToolEntry> = entries
        .iter()
        .filter(|e| toolsets.contains(&e.spec.toolset))
        .collect();
    if let Some((entry, reason)) = tools
        .iter()
        .find_map(|e| e.missing_prerequisite(config).map(|why| (e, why)))
    {
        return Err(SelectionError::Unmet {
            toolset: entry.spec.toolset.as_str(),
            reason,
        });
    }
    Ok(Selection {
        tools,
        left_out: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::LazyLock;
    use toolpack::tfl::{StationToiletLookupRequest, StationToiletToolResponse};
    use toolpack::{Annotations, Tool, ToolSpec, Toolpack};

    /// A tool that needs `TFL_API_KEY`, like `planJourney`.
    struct NeedsKey;

    impl Tool for NeedsKey {
        type Input = StationToiletLookupRequest;
        type Output = StationToiletToolResponse;
        const SPEC: ToolSpec = ToolSpec {
            name: "needsKey",
            title: "Needs a key",
            description: "A test tool that needs TFL_API_KEY.",
            toolset: Toolset::Tfl,
            annotations: Annotations::READ_ONLY_REMOTE,
        };
        fn missing_prerequisite(config: &Config) -> Option<String> {
            config
                .tfl_api_key()
                .is_none()
                .then(|| "TFL_API_KEY is not set".to_owned())
        }
        async fn run(_: &Toolpack, _: Self::Input) -> Self::Output {
            unreachable!("never called by selection")
        }
    }

    static ENTRIES: LazyLock<Vec<ToolEntry>> = LazyLock::new(|| {
        let mut entries = Catalog::get().entries().to_vec();
        entries.push(ToolEntry::of::<NeedsKey>());
        entries
    });

    fn names(selection: &Selection) -> Vec<&'static str> {
        selection.tools.iter().map(|t| t.spec.name).collect()
    }

    #[test]
    fn by_default_a_tool_missing_its_key_is_left_out_with_the_reason() {
        let selection = select_from(&ENTRIES, &Config::default(), None).unwrap();
        assert!(!names(&selection).contains(&"needsKey"));
        assert!(names(&selection).contains(&"stationToilets"));
        assert_eq!(
            selection.left_out,
            vec![("needsKey", "TFL_API_KEY is not set".to_owned())]
        );
    }

    #[test]
    fn a_named_toolset_with_a_missing_key_stops_start_up() {
        let err = select_from(&ENTRIES, &Config::default(), Some("tfl")).unwrap_err();
        assert_eq!(
            err,
            SelectionError::Unmet {
                toolset: "tfl",
                reason: "TFL_API_KEY is not set".into()
            }
        );
        assert_eq!(
            err.to_string(),
            "toolset 'tfl' cannot start: TFL_API_KEY is not set"
        );
    }

    #[test]
    fn with_the_key_everything_is_served() {
        let config = Config::builder().tfl_api_key("k").build();
        let selection = select_from(&ENTRIES, &config, Some("tfl")).unwrap();
        assert!(names(&selection).contains(&"needsKey"));
        assert!(selection.left_out.is_empty());
    }

    #[test]
    fn default_selection_serves_every_runnable_tool() {
        let selection = select_tools(&Config::default(), None).unwrap();
        assert!(
            selection
                .tools
                .iter()
                .any(|t| t.spec.name == "stationToilets")
        );
        assert!(
            selection
                .left_out
                .iter()
                .all(|(name, _)| *name != "stationToilets")
        );
    }

    #[test]
    fn explicit_toolsets_filter_and_unknown_names_fail() {
        let tfl = select_tools(&Config::default(), Some("tfl")).unwrap();
        assert!(tfl.tools.iter().all(|t| t.spec.toolset == Toolset::Tfl));
        assert_eq!(
            select_tools(&Config::default(), Some("tfl,weather")).unwrap_err(),
            SelectionError::Unknown("weather".into())
        );
    }
}
