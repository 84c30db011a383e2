//! A string that never shows itself: API keys live in [`Secret`].

use std::fmt;

/// An API key or other credential.
///
/// `Debug` and `Display` print `[REDACTED]`; the only way to read the value is
/// [`Secret::expose`], which the HTTP layer calls when it sets a request header.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a credential. Surrounding whitespace is trimmed.
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into().trim().to_owned())
    }

    /// The credential itself. Never log or format the result.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Replaces every occurrence of the credential in `text` with `[REDACTED]`.
    ///
    /// Used on upstream error bodies and transport messages before they reach
    /// any output, in case an upstream echoes the key back.
    pub fn redact_in(&self, text: &str) -> String {
        if self.0.is_empty() {
            text.to_owned()
        } else {
            text.replace(&self.0, REDACTED)
        }
    }
}

/// What a secret prints as.
pub const REDACTED: &str = "[REDACTED]";

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_and_display_hide_the_value() {
        let key = Secret::new("  abc123  ");
        assert_eq!(format!("{key:?}"), "[REDACTED]");
        assert_eq!(format!("{key}"), "[REDACTED]");
        assert_eq!(key.expose(), "abc123");
    }

    #[test]
    fn redact_in_replaces_every_occurrence() {
        let key = Secret::new("k3y");
        assert_eq!(
            key.redact_in("a k3y and k3y"),
            "a [REDACTED] and [REDACTED]"
        );
        assert_eq!(Secret::new("").redact_in("text"), "text");
    }
}
