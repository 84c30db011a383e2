//! Station names as they are compared: normalised text and its tokens. Both the
//! station data (normalised once, on load) and the matching use it.

const SUFFIXES: [&str; 3] = [" underground station", " rail station", " station"];

/// A name lower-cased, without punctuation (`'`, `’` and `.` removed, other
/// punctuation as spaces), `&` as `and`, whitespace collapsed and a trailing
/// "station", "underground station" or "rail station" removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NormalizedName {
    pub(crate) text: String,
    tokens: Vec<String>,
}

impl NormalizedName {
    /// Normalises `raw`.
    pub fn new(raw: &str) -> Self {
        let mut spaced = String::with_capacity(raw.len());
        for c in raw.chars().flat_map(char::to_lowercase) {
            match c {
                '\'' | '’' | '‘' | '.' => {}
                '&' => spaced.push_str(" and "),
                c if c.is_alphanumeric() => spaced.push(c),
                _ => spaced.push(' '),
            }
        }
        let mut text = spaced.split_whitespace().collect::<Vec<_>>().join(" ");
        if let Some(stripped) = SUFFIXES.iter().find_map(|s| text.strip_suffix(s)) {
            text = stripped.to_owned();
        }
        let tokens = text
            .split(' ')
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .collect();
        Self { text, tokens }
    }

    /// The name's tokens (its words), in order.
    pub(super) fn tokens(&self) -> &[String] {
        &self.tokens
    }

    /// The longest token: among stations a query can match, the one fewest names have a
    /// word starting with, in the common case (`None` when nothing is left).
    pub(super) fn longest_token(&self) -> Option<&str> {
        self.tokens
            .iter()
            .max_by_key(|token| token.len())
            .map(String::as_str)
    }

    /// Whether nothing searchable is left.
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Token score of `self` (a query) against `name`: +2 per query token equal to
    /// a name token, +1 per query token that prefixes one; `None` if any query token
    /// matches nothing.
    pub(super) fn score_against(&self, name: &NormalizedName) -> Option<u32> {
        self.tokens.iter().try_fold(0, |total, token| {
            if name.tokens.iter().any(|t| t == token) {
                Some(total + 2)
            } else if name.tokens.iter().any(|t| t.starts_with(token.as_str())) {
                Some(total + 1)
            } else {
                None
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::NormalizedName;

    #[test]
    fn normalisation() {
        assert_eq!(
            NormalizedName::new("  King’s Cross  St. Pancras ").text,
            "kings cross st pancras"
        );
        assert_eq!(
            NormalizedName::new("Elephant & Castle").text,
            "elephant and castle"
        );
        assert_eq!(
            NormalizedName::new("Kensington (Olympia)").text,
            "kensington olympia"
        );
        assert_eq!(NormalizedName::new("Bank Underground Station").text, "bank");
        assert_eq!(NormalizedName::new("Burnham Rail Station").text, "burnham");
        assert!(NormalizedName::new(" ?!' ").is_empty());
    }
}
