//! Which catalog tools a server offers: `--toolsets`, then `--read-only`, `--tools`
//! and `--exclude-tools` ([`ToolChoice`]), and what remote callers may not get.

use toolpack::{Catalog, Config, ToolEntry, ToolSpec, Toolset};

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
    /// A name in `--tools` or `--exclude-tools` that is not a catalog tool.
    #[error("unknown tool '{0}' (see `toolpack-mcp tools`)")]
    UnknownTool(String),
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

/// Single tools to offer within the selected toolsets. The flags set it for the server;
/// over HTTP, the `X-MCP-Toolsets`, `X-MCP-Tools`, `X-MCP-Exclude-Tools` and
/// `X-MCP-Readonly` headers give one per request (github-mcp-server's names), which can
/// only narrow what the flags allow.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolChoice {
    /// Only the tools annotated read-only (`--read-only`, `X-MCP-Readonly: true`).
    pub read_only: bool,
    /// Only the tools of these families (`X-MCP-Toolsets: tfl,loko`); `None`: every family
    /// served. (`--toolsets` chooses what the server serves at all.)
    pub toolsets: Option<Vec<Toolset>>,
    /// Only these tools (`--tools a,b`, `X-MCP-Tools: a,b`); `None`: no such filter.
    pub only: Option<Vec<String>>,
    /// Never these tools (`--exclude-tools c`, `X-MCP-Exclude-Tools: c`).
    pub exclude: Vec<String>,
}

impl ToolChoice {
    /// Whether `tool` is chosen.
    pub fn allows(&self, tool: &ToolSpec) -> bool {
        (!self.read_only || tool.annotations.read_only)
            && self
                .toolsets
                .as_ref()
                .is_none_or(|toolsets| toolsets.contains(&tool.toolset))
            && self
                .only
                .as_ref()
                .is_none_or(|only| only.iter().any(|n| n == tool.name))
            && !self.exclude.iter().any(|n| n == tool.name)
    }

    /// Fails on a name that is not a catalog tool (a typo in a flag must not serve
    /// something else than meant).
    pub fn check_names(&self) -> Result<(), SelectionError> {
        self.only
            .iter()
            .flatten()
            .chain(&self.exclude)
            .find(|name| Catalog::get().find(name).is_none())
            .map_or(Ok(()), |name| {
                Err(SelectionError::UnknownTool(name.clone()))
            })
    }

    /// The choice of one HTTP request's headers: `X-MCP-Toolsets`, `X-MCP-Tools` and
    /// `X-MCP-Exclude-Tools` (comma-separated names) and `X-MCP-Readonly` (`true`/`1`).
    /// A name that is not a toolset or a catalog tool is refused, with the valid names.
    pub fn from_headers(headers: &axum::http::HeaderMap) -> Result<Self, String> {
        // Most requests choose nothing: one pass over the names spares them four lookups.
        if !headers
            .keys()
            .any(|name| name.as_str().starts_with("x-mcp-"))
        {
            return Ok(Self::default());
        }
        let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
        let toolsets = text("x-mcp-toolsets")
            .map(|list| {
                names(list)
                    .iter()
                    .map(|name| {
                        Toolset::parse(name).ok_or_else(|| {
                            let valid: Vec<&str> =
                                Toolset::ALL.iter().map(|t| t.as_str()).collect();
                            format!(
                                "X-MCP-Toolsets: unknown toolset '{name}'; the toolsets are {}",
                                valid.join(", ")
                            )
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()?;
        let tools = |header: &str| -> Result<Option<Vec<String>>, String> {
            let Some(list) = text(header) else {
                return Ok(None);
            };
            let listed = names(list);
            match listed
                .iter()
                .find(|name| Catalog::get().find(name).is_none())
            {
                None => Ok(Some(listed)),
                Some(unknown) => {
                    let valid: Vec<&str> = Catalog::get()
                        .entries()
                        .iter()
                        .map(|e| e.spec.name)
                        .collect();
                    Err(format!(
                        "{}: unknown tool '{unknown}'; the tools are {}",
                        canonical(header),
                        valid.join(", ")
                    ))
                }
            }
        };
        Ok(Self {
            read_only: text("x-mcp-readonly").is_some_and(|v| {
                matches!(v.trim().to_ascii_lowercase().as_str(), "true" | "1" | "yes")
            }),
            toolsets,
            only: tools("x-mcp-tools")?,
            exclude: tools("x-mcp-exclude-tools")?.unwrap_or_default(),
        })
    }
}

/// A header's name as the docs write it.
fn canonical(header: &str) -> &'static str {
    match header {
        "x-mcp-tools" => "X-MCP-Tools",
        _ => "X-MCP-Exclude-Tools",
    }
}

/// Comma-separated names, trimmed, blanks dropped.
pub fn names(list: &str) -> Vec<String> {
    list.split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(str::to_owned)
        .collect()
}

impl Selection {
    /// The selection with only the tools `choice` allows.
    pub fn narrowed(mut self, choice: &ToolChoice) -> Self {
        self.tools.retain(|t| choice.allows(&t.spec));
        self
    }

    /// The selection as remote callers may have it: tools whose toolset must not be
    /// served remotely with `config` are left out with the reason, or, when the
    /// toolsets were named explicitly, refused.
    pub fn for_remote_callers(
        mut self,
        config: &Config,
        explicit: bool,
    ) -> Result<Self, SelectionError> {
        let mut kept = Vec::new();
        for tool in self.tools {
            match config.missing_remote_prerequisite(tool.spec.toolset) {
                None => kept.push(tool),
                Some(reason) if explicit => {
                    return Err(SelectionError::Unmet {
                        toolset: tool.spec.toolset.as_str(),
                        reason,
                    });
                }
                Some(reason) => self.left_out.push((tool.spec.name, reason)),
            }
        }
        self.tools = kept;
        Ok(self)
    }
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

    #[test]
    fn choices_narrow_and_unknown_names_fail() {
        let all = select_tools(&with_tfl_key(), None).unwrap();
        let read_only = all.narrowed(&ToolChoice {
            read_only: true,
            ..ToolChoice::default()
        });
        assert!(read_only.tools.iter().all(|t| t.spec.annotations.read_only));
        assert!(!names(&read_only).contains(&"save_user_variable"));
        assert!(names(&read_only).contains(&"stationToilets"));
        let picked = select_tools(&with_tfl_key(), None)
            .unwrap()
            .narrowed(&ToolChoice {
                only: Some(vec!["stationToilets".into(), "validate".into()]),
                exclude: vec!["validate".into()],
                ..ToolChoice::default()
            });
        assert_eq!(names(&picked), ["stationToilets"]);
        let typo = ToolChoice {
            exclude: vec!["stationToilet".into()],
            ..ToolChoice::default()
        };
        assert_eq!(
            typo.check_names(),
            Err(SelectionError::UnknownTool("stationToilet".into()))
        );
    }

    #[test]
    fn remote_callers_get_loko_only_inside_allowed_roots() {
        let open = select_tools(&Config::default(), None)
            .unwrap()
            .for_remote_callers(&Config::default(), false)
            .unwrap();
        assert!(open.tools.iter().all(|t| t.spec.toolset != Toolset::Loko));
        assert!(
            open.left_out
                .iter()
                .any(|(name, why)| *name == "create_system" && why.contains("LOKO_ALLOWED_ROOTS"))
        );
        let explicit = select_tools(&Config::default(), Some("loko"))
            .unwrap()
            .for_remote_callers(&Config::default(), true);
        assert!(matches!(
            explicit,
            Err(SelectionError::Unmet {
                toolset: "loko",
                ..
            })
        ));
        let fenced = Config::builder()
            .loko_allowed_roots([std::path::PathBuf::from("/srv/docs")])
            .build();
        let served = select_tools(&fenced, Some("loko"))
            .unwrap()
            .for_remote_callers(&fenced, true)
            .unwrap();
        let loko = toolpack::Catalog::get()
            .entries()
            .iter()
            .filter(|e| e.spec.toolset == Toolset::Loko)
            .count();
        assert_eq!(served.tools.len(), loko);
    }
}
