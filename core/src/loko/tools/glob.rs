//! Glob patterns for the search tools: `*` (any run of characters, `/` included) and
//! `?` (one character), matched against the whole text, ignoring case.

/// Whether `pattern` matches all of `text`, ignoring case.
pub fn matches(pattern: &str, text: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().flat_map(char::to_lowercase).collect();
    let text: Vec<char> = text.chars().flat_map(char::to_lowercase).collect();
    let (mut p, mut t) = (0, 0);
    // Where the last `*` was, and the text position it currently covers up to.
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some('*') => {
                star = Some((p, t));
                p += 1;
            }
            Some(&c) if c == '?' || c == text[t] => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    p = sp + 1;
                    t = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|c| *c == '*')
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn globs_match_the_whole_text() {
        assert!(matches("*api*", "shop/API/orders"));
        assert!(matches("shop/*", "shop/api/orders"));
        assert!(matches("s?op", "shop"));
        assert!(matches("*", ""));
        assert!(matches("a*b*c", "aXbYbZc"));
        assert!(!matches("shop", "shop/api"));
        assert!(!matches("s?op", "sop"));
        assert!(!matches("*x", "abc"));
        assert!(matches("Ä*", "äiti"));
    }
}
