//! [`Toolset`]: the families of tools. A leaf: it depends on nothing else in the crate.

/// A family of tools that can be switched on or off as a unit (`--toolsets`). Which tools
/// a family has is the catalog's to say (each `ToolSpec` names its toolset); no list of
/// them is kept here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Toolset {
    /// TfL (London).
    Tfl,
    /// Digitransit (Finland).
    Digitransit,
    /// loko (C4 architecture docs as code).
    Loko,
}

impl Toolset {
    /// Every toolset, in catalog order.
    pub const ALL: [Toolset; 3] = [Toolset::Tfl, Toolset::Digitransit, Toolset::Loko];

    /// The toolset's name as used by `--toolsets`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Tfl => "tfl",
            Self::Digitransit => "digitransit",
            Self::Loko => "loko",
        }
    }

    /// The family's name as people write it (`TfL`, `Digitransit`, `loko`).
    pub fn title(self) -> &'static str {
        match self {
            Self::Tfl => "TfL",
            Self::Digitransit => "Digitransit",
            Self::Loko => "loko",
        }
    }

    /// Parses a toolset name (`tfl`, `digitransit`, `loko`; case-insensitive).
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|t| t.as_str().eq_ignore_ascii_case(name.trim()))
    }
}
