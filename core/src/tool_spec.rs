//! [`ToolSpec`] and [`Annotations`]: what a tool is, as data. A leaf: the caller's
//! scope checks and the rate limiters read it without depending on how tools run.

use crate::toolset::Toolset;

/// MCP tool annotations: hints a client may use to decide how to call a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Annotations {
    /// The tool does not modify its environment.
    pub read_only: bool,
    /// The tool may destroy or overwrite data (meaningful only when not read-only).
    pub destructive: bool,
    /// Calling it again with the same arguments has no further effect.
    pub idempotent: bool,
    /// The tool reaches an open world of external entities (e.g. a public API).
    pub open_world: bool,
    /// A call may outlive a client's patience (a PDF build): the MCP server runs it as a
    /// task where the client supports tasks, and under its longer deadline everywhere.
    pub long_running: bool,
}

impl Annotations {
    /// Reads local data only: read-only, idempotent, closed world.
    pub const READ_ONLY_LOCAL: Annotations = Annotations {
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
        long_running: false,
    };
    /// Replaces local files with what the arguments say (a diagram, a build output):
    /// destructive, idempotent, closed world.
    pub const REPLACES_LOCAL: Annotations = Annotations {
        read_only: false,
        destructive: true,
        idempotent: true,
        open_world: false,
        long_running: false,
    };
    /// Adds local files and never overwrites one: not destructive, not idempotent (a
    /// second call finds the first one's work), closed world.
    pub const CREATES_LOCAL: Annotations = Annotations {
        read_only: false,
        destructive: false,
        idempotent: false,
        open_world: false,
        long_running: false,
    };
    /// Reads from an external API: read-only, idempotent, open world.
    pub const READ_ONLY_REMOTE: Annotations = Annotations {
        open_world: true,
        ..Self::READ_ONLY_LOCAL
    };
    /// Replaces local files and may take minutes (a documentation build with a PDF).
    pub const REPLACES_LOCAL_SLOWLY: Annotations = Annotations {
        long_running: true,
        ..Self::REPLACES_LOCAL
    };
}

/// What a tool is: everything the catalog and every surface show about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolSpec {
    /// The contract's tool name, e.g. `stationToilets`.
    pub name: &'static str,
    /// A short human-readable title.
    pub title: &'static str,
    /// What the tool does and when to use it, written for an LLM choosing a tool.
    pub description: &'static str,
    /// What it does in one line, written for a person reading the README's tool table.
    pub summary: &'static str,
    /// What it needs beyond the crate (an API key, a program on `PATH`), in markdown;
    /// empty when it needs nothing.
    pub needs: &'static str,
    /// The family the tool belongs to.
    pub toolset: Toolset,
    /// MCP annotations.
    pub annotations: Annotations,
}
