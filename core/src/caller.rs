//! [`Caller`]: who a call runs for. Every call has one: the surface that received it
//! sets it (the MCP server from the request's credential, a binding from
//! `for_caller`), and tools only read it. Tools never see a token.
//!
//! What belongs to a caller: its saved places (Digitransit) and its own share of the
//! local rate limits. What a caller may do is its [`Scopes`], checked by the surface
//! that authenticated it (the MCP server answers HTTP 403 with a step-up challenge).

use std::fmt;
use std::sync::Arc;

use crate::tool_spec::ToolSpec;

/// The id of the caller that stdio, the CLI and a library client without
/// `for_caller` act for. A single-user install's data belongs to it.
pub const LOCAL_CALLER_ID: &str = "local";
/// The longest caller id accepted, in bytes.
pub const MAX_CALLER_ID_BYTES: usize = 512;

/// A permission a caller may hold (OAuth scope names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// `toolpack:read`: the tools annotated read-only.
    Read,
    /// `toolpack:write`: also the tools with side effects (saving a place, the loko
    /// create tools, `update_diagram`, `build_docs`). It includes `toolpack:read`.
    Write,
}

impl Scope {
    /// Every scope, weakest first.
    pub const ALL: [Scope; 2] = [Scope::Read, Scope::Write];

    /// The scope's OAuth name, e.g. `toolpack:read`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Read => "toolpack:read",
            Self::Write => "toolpack:write",
        }
    }

    /// The scope named `name` (exact OAuth name), if it is one of toolpack's.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == name)
    }

    /// The scope a caller needs to call `tool`: read-only tools need `toolpack:read`,
    /// every other tool `toolpack:write`.
    pub fn required_by(tool: &ToolSpec) -> Self {
        if tool.annotations.read_only {
            Self::Read
        } else {
            Self::Write
        }
    }
}

/// The scopes a caller holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Scopes {
    read: bool,
    write: bool,
}

impl Scopes {
    /// Every scope: what the local caller and a static token without listed scopes hold.
    pub const ALL: Scopes = Scopes {
        read: true,
        write: true,
    };
    /// No scope at all: such a caller may call no tool.
    pub const NONE: Scopes = Scopes {
        read: false,
        write: false,
    };

    /// The toolpack scopes among space- or comma-separated `names` (an OAuth `scope`
    /// claim); names that are not toolpack's are ignored.
    pub fn parse(names: &str) -> Self {
        names
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter_map(Scope::parse)
            .fold(Self::NONE, Self::with)
    }

    /// These scopes and `scope`.
    pub fn with(self, scope: Scope) -> Self {
        match scope {
            Scope::Read => Self { read: true, ..self },
            Scope::Write => Self {
                read: true,
                write: true,
            },
        }
    }

    /// Whether `scope` is held (`toolpack:write` includes `toolpack:read`).
    pub fn contains(self, scope: Scope) -> bool {
        match scope {
            Scope::Read => self.read || self.write,
            Scope::Write => self.write,
        }
    }

    /// The held scopes' names, space-separated (OAuth form).
    pub fn names(self) -> String {
        Scope::ALL
            .into_iter()
            .filter(|s| self.contains(*s))
            .map(Scope::as_str)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Who a call runs for: an id (whose data and limits the call uses) and its scopes.
/// Cheap to clone.
#[derive(Clone, PartialEq, Eq)]
pub struct Caller {
    id: Arc<str>,
    scopes: Scopes,
}

/// A caller id that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid caller id: {0}")]
pub struct InvalidCallerId(pub &'static str);

impl Caller {
    /// The local caller: stdio, the CLI, and a library client without `for_caller`.
    /// It holds every scope.
    pub fn local() -> Self {
        Self {
            id: Arc::from(LOCAL_CALLER_ID),
            scopes: Scopes::ALL,
        }
    }

    /// The caller `id` with `scopes`. The id is 1..=512 bytes with no control
    /// characters; the surface chooses it (e.g. `token:alice`, an OAuth issuer and
    /// subject, or an application's own user id).
    pub fn new(id: impl AsRef<str>, scopes: Scopes) -> Result<Self, InvalidCallerId> {
        let id = id.as_ref();
        if id.trim().is_empty() {
            return Err(InvalidCallerId("it is blank"));
        }
        if id.len() > MAX_CALLER_ID_BYTES {
            return Err(InvalidCallerId("it is longer than 512 bytes"));
        }
        if id.chars().any(char::is_control) {
            return Err(InvalidCallerId("it contains control characters"));
        }
        Ok(Self {
            id: Arc::from(id),
            scopes,
        })
    }

    /// The caller's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The caller's id, shared (a cheap key for per-caller maps).
    pub(crate) fn shared_id(&self) -> &Arc<str> {
        &self.id
    }

    /// The caller's scopes.
    pub fn scopes(&self) -> Scopes {
        self.scopes
    }

    /// The scope this caller lacks to call `tool`, or `None` when it may call it.
    pub fn missing_scope(&self, tool: &ToolSpec) -> Option<Scope> {
        let needed = Scope::required_by(tool);
        (!self.scopes.contains(needed)).then_some(needed)
    }
}

impl Default for Caller {
    fn default() -> Self {
        Self::local()
    }
}

impl fmt::Debug for Caller {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Caller")
            .field("id", &self.id)
            .field("scopes", &self.scopes.names())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool_spec::Annotations;
    use crate::toolset::Toolset;

    fn spec(annotations: Annotations) -> ToolSpec {
        ToolSpec {
            name: "t",
            title: "t",
            description: "t",
            summary: "t",
            needs: "",
            toolset: Toolset::Tfl,
            annotations,
        }
    }

    #[test]
    fn write_includes_read_and_unknown_scopes_are_ignored() {
        let read = Scopes::parse("openid toolpack:read profile");
        assert!(read.contains(Scope::Read) && !read.contains(Scope::Write));
        let write = Scopes::parse("toolpack:write");
        assert!(write.contains(Scope::Read) && write.contains(Scope::Write));
        assert_eq!(Scopes::parse("email,toolpack:read"), read);
        assert_eq!(Scopes::parse(""), Scopes::NONE);
        assert_eq!(
            Scopes::parse("TOOLPACK:READ"),
            Scopes::NONE,
            "names are exact"
        );
        assert_eq!(write.names(), "toolpack:read toolpack:write");
    }

    #[test]
    fn read_only_tools_need_read_and_the_others_write() {
        let reader = Caller::new("r", Scopes::parse("toolpack:read")).unwrap();
        assert_eq!(
            reader.missing_scope(&spec(Annotations::READ_ONLY_LOCAL)),
            None
        );
        assert_eq!(
            reader.missing_scope(&spec(Annotations::CREATES_LOCAL)),
            Some(Scope::Write)
        );
        let nobody = Caller::new("n", Scopes::NONE).unwrap();
        assert_eq!(
            nobody.missing_scope(&spec(Annotations::READ_ONLY_REMOTE)),
            Some(Scope::Read)
        );
        assert_eq!(
            Caller::local().missing_scope(&spec(Annotations::REPLACES_LOCAL)),
            None
        );
    }

    #[test]
    fn ids_are_checked() {
        assert!(Caller::new("user-123", Scopes::ALL).is_ok());
        assert!(Caller::new("  ", Scopes::ALL).is_err());
        assert!(Caller::new("a\nb", Scopes::ALL).is_err());
        assert!(Caller::new("x".repeat(513), Scopes::ALL).is_err());
        assert_eq!(Caller::default().id(), LOCAL_CALLER_ID);
    }
}
