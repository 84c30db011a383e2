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
    let entries: &'static [ToolEntry] = Catalog::get().entries();
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

    fn names(selection: &Selection) -> Vec<&'static str> {
        selection.tools.iter().map(|t| t.spec.name).collect()
    }

    fn with_tfl_key() -> Config {
        Config::builder().tfl_api_key("k").build()
    }

    #[test]
    fn by_default_a_tool_missing_its_key_is_left_out_with_the_reason() {
        let selection = select_tools(&Config::default(), None).unwrap();
        assert!(!names(&selection).contains(&"planJourney"));
        assert!(names(&selection).contains(&"stationToilets"));
        assert!(
            selection
                .left_out
                .contains(&("planJourney", "TFL_API_KEY is not set".to_owned()))
        );
        assert!(
            selection
                .left_out
                .iter()
                .all(|(name, _)| *name != "stationToilets")
        );
    }

    #[test]
    fn a_named_toolset_with_a_missing_key_stops_start_up() {
        let err = select_tools(&Config::default(), Some("tfl")).unwrap_err();
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
    fn with_the_key_every_tfl_tool_is_served() {
        let selection = select_tools(&with_tfl_key(), Some("tfl")).unwrap();
        assert!(names(&selection).contains(&"planJourney"));
        assert!(names(&selection).contains(&"stationToilets"));
        assert!(selection.left_out.is_empty());
        let all = select_tools(&with_tfl_key(), None).unwrap();
        assert!(all.left_out.iter().all(|(name, _)| *name != "planJourney"));
    }

    #[test]
    fn explicit_toolsets_filter_and_unknown_names_fail() {
        let tfl = select_tools(&with_tfl_key(), Some("tfl")).unwrap();
        assert!(tfl.tools.iter().all(|t| t.spec.toolset == Toolset::Tfl));
        assert_eq!(
            select_tools(&with_tfl_key(), Some("tfl,weather")).unwrap_err(),
            SelectionError::Unknown("weather".into())
        );
    }
}
