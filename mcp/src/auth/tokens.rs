//! Static bearer tokens (`TOOLPACK_HTTP_TOKENS`): each token is its own caller.
//!
//! The value is a comma-separated list, or `@file` with one entry per line (blank lines
//! and `#` comments ignored). An entry is whitespace-separated fields:
//!
//! - `TOKEN`: an unnamed token; its caller id is `token:sha256:` + the first 16 hex
//!   digits of the token's SHA-256 (stable, and not the token);
//! - `NAME:TOKEN` or `NAME TOKEN`: a named token; its caller id is `token:NAME`;
//! - then, optionally, the scopes it holds (`toolpack:read`, `toolpack:write`); a token
//!   without listed scopes holds both.
//!
//! Names are 1..=64 of `A-Z a-z 0-9 . _ @ -`. A token containing `:` must be named
//! (`NAME:TOK:EN` splits at the first colon).

use sha2::{Digest, Sha256};
use toolpack::{Caller, Scope, Scopes};

/// One accepted static token and the caller it stands for.
#[derive(Clone, PartialEq, Eq)]
pub struct StaticToken {
    token: String,
    caller: Caller,
}

impl std::fmt::Debug for StaticToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StaticToken")
            .field("token", &"[redacted]")
            .field("caller", &self.caller)
            .finish()
    }
}

/// A token entry that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("TOOLPACK_HTTP_TOKENS entry {entry}: {reason}")]
pub struct TokenEntryError {
    /// The entry's position (1-based).
    pub entry: usize,
    /// What is wrong (never the token).
    pub reason: String,
}

impl StaticToken {
    /// An unnamed token holding every scope (today's `tok1,tok2` form).
    pub fn unnamed(token: impl Into<String>) -> Self {
        let token = token.into();
        let digest = Sha256::digest(token.as_bytes());
        let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
        let caller = Caller::new(format!("token:sha256:{hex}"), Scopes::ALL)
            .expect("a fixed-form id is valid");
        Self { token, caller }
    }

    /// The token `token` for the caller called `name`, holding `scopes`.
    pub fn named(name: &str, token: impl Into<String>, scopes: Scopes) -> Result<Self, String> {
        let valid = !name.is_empty()
            && name.len() <= 64
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._@-".contains(c));
        if !valid {
            return Err(format!(
                "the name '{name}' is not 1..64 of A-Z a-z 0-9 . _ @ -"
            ));
        }
        let caller = Caller::new(format!("token:{name}"), scopes).map_err(|e| e.to_string())?;
        Ok(Self {
            token: token.into(),
            caller,
        })
    }

    /// The token's bytes.
    pub(crate) fn secret(&self) -> &[u8] {
        self.token.as_bytes()
    }

    /// The caller this token stands for.
    pub fn caller(&self) -> &Caller {
        &self.caller
    }
}

impl From<&str> for StaticToken {
    fn from(token: &str) -> Self {
        Self::unnamed(token)
    }
}

/// Reads the tokens of a `TOOLPACK_HTTP_TOKENS` value: a comma-separated list, or
/// `@file`. Names and tokens must be unique; scopes must be toolpack's.
pub fn parse_tokens(value: &str) -> Result<Vec<StaticToken>, String> {
    let value = value.trim();
    let text = match value.strip_prefix('@') {
        Some(path) => std::fs::read_to_string(path.trim())
            .map_err(|e| format!("cannot read the token file: {e}"))?,
        None => value.replace(',', "\n"),
    };
    let tokens = text
        .lines()
        .map(str::trim)
        .filter(|t| !t.is_empty() && !t.starts_with('#'))
        .enumerate()
        .map(|(i, line)| {
            parse_entry(line).map_err(|reason| {
                TokenEntryError {
                    entry: i + 1,
                    reason,
                }
                .to_string()
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    for (i, a) in tokens.iter().enumerate() {
        for b in &tokens[..i] {
            if a.token == b.token {
                return Err(format!(
                    "TOOLPACK_HTTP_TOKENS entry {}: a token is listed twice",
                    i + 1
                ));
            }
            if a.caller.id() == b.caller.id() {
                return Err(format!(
                    "TOOLPACK_HTTP_TOKENS entry {}: the name of {} is used twice",
                    i + 1,
                    a.caller.id()
                ));
            }
        }
    }
    Ok(tokens)
}

fn parse_entry(line: &str) -> Result<StaticToken, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let (name, token, scope_fields) = match fields.as_slice() {
        [only] => match only.split_once(':') {
            Some((name, token)) => (Some(name), token, &[][..]),
            None => return Ok(StaticToken::unnamed(*only)),
        },
        [first, rest @ ..] => match first.split_once(':') {
            Some((name, token)) => (Some(name), token, rest),
            None => (Some(*first), rest[0], &rest[1..]),
        },
        [] => return Err("it is empty".into()),
    };
    if token.is_empty() {
        return Err("the token is empty".into());
    }
    let scopes = if scope_fields.is_empty() {
        Scopes::ALL
    } else {
        scope_fields.iter().try_fold(Scopes::NONE, |held, name| {
            Scope::parse(name)
                .map(|s| held.with(s))
                .ok_or_else(|| format!("unknown scope '{name}' (toolpack:read, toolpack:write)"))
        })?
    };
    StaticToken::named(name.unwrap_or_default(), token, scopes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(tokens: &[StaticToken]) -> Vec<&str> {
        tokens.iter().map(|t| t.caller().id()).collect()
    }

    #[test]
    fn todays_lists_and_files_keep_working_each_token_its_own_caller() {
        let tokens = parse_tokens(" a, b ,,c ").unwrap();
        assert_eq!(tokens.len(), 3);
        assert!(tokens.iter().all(|t| t.caller().scopes() == Scopes::ALL));
        assert_ne!(ids(&tokens)[0], ids(&tokens)[1]);
        assert!(ids(&tokens)[0].starts_with("token:sha256:"));
        assert_eq!(ids(&tokens)[0].len(), "token:sha256:".len() + 16);
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), "# team tokens\nt1\n\n t2 \n").unwrap();
        let from_file = parse_tokens(&format!("@{}", file.path().display())).unwrap();
        assert_eq!(
            from_file.iter().map(|t| t.secret()).collect::<Vec<_>>(),
            [b"t1", b"t2"]
        );
        assert!(parse_tokens("@/no/such/file").is_err());
    }

    #[test]
    fn names_and_scopes() {
        let tokens = parse_tokens("alice:tok-a, bob:tok-b toolpack:read").unwrap();
        assert_eq!(ids(&tokens), ["token:alice", "token:bob"]);
        assert_eq!(tokens[0].caller().scopes(), Scopes::ALL);
        assert_eq!(tokens[1].caller().scopes(), Scopes::parse("toolpack:read"));
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(
            file.path(),
            "alice tok-a toolpack:read toolpack:write\ncarol tok-c toolpack:read\nanon:tok:with:colons\n",
        )
        .unwrap();
        let tokens = parse_tokens(&format!("@{}", file.path().display())).unwrap();
        assert_eq!(ids(&tokens), ["token:alice", "token:carol", "token:anon"]);
        assert_eq!(tokens[2].secret(), b"tok:with:colons");
        assert!(!tokens[1].caller().scopes().contains(Scope::Write));
    }

    #[test]
    fn bad_entries_are_named_without_the_token() {
        for (value, needle) in [
            (
                "alice:sekrit toolpack:admin",
                "unknown scope 'toolpack:admin'",
            ),
            ("a:sekrit,b:sekrit", "listed twice"),
            ("a:sekrit1,a:sekrit2", "used twice"),
            ("bad/name:sekrit", "is not 1..64"),
            ("alice:", "the token is empty"),
        ] {
            let error = parse_tokens(value).unwrap_err();
            assert!(error.contains(needle), "{value}: {error}");
            assert!(!error.contains("sekrit"), "{error}");
        }
    }

    #[test]
    fn debug_never_shows_tokens() {
        let token = StaticToken::named("alice", "sk-never-print", Scopes::ALL).unwrap();
        assert!(!format!("{token:?}").contains("sk-never-print"));
    }
}
