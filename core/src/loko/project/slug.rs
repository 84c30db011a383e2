//! Ids from names: the notes' slug rule (trim, lower-case, spaces, `_` and other
//! punctuation to `-`, repeated `-` collapsed, `-` trimmed), with common Latin letters
//! with accents folded to ASCII so "Päämäärä" becomes `paamaara`.

/// The longest name accepted, in characters.
pub const MAX_NAME_CHARS: usize = 100;

/// The slug of `name`; empty when the name has no letter or digit.
pub fn slugify(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.trim().chars().flat_map(char::to_lowercase) {
        match fold(c) {
            Some(ascii) => out.push_str(ascii),
            None if c.is_ascii_alphanumeric() => out.push(c),
            None => {
                if !out.ends_with('-') {
                    out.push('-');
                }
            }
        }
    }
    out.trim_matches('-').to_owned()
}

fn fold(c: char) -> Option<&'static str> {
    Some(match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' => "a",
        'æ' => "ae",
        'ç' | 'č' | 'ć' => "c",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ę' => "e",
        'ì' | 'í' | 'î' | 'ï' => "i",
        'ñ' | 'ń' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' => "o",
        'ù' | 'ú' | 'û' | 'ü' | 'ū' => "u",
        'ý' | 'ÿ' => "y",
        'ß' => "ss",
        'š' | 'ś' => "s",
        'ž' | 'ź' | 'ż' => "z",
        'ł' => "l",
        _ => return None,
    })
}

/// Checks a display name for an entity of `kind` (`System`, `Container`,
/// `Component`) and returns its id; the error is the contract's message.
pub fn checked_id(kind: &str, name: &str) -> Result<String, (String, String)> {
    let message = format!("{kind} name must be alphanumeric");
    let trimmed = name.trim();
    if trimmed.chars().any(char::is_control) {
        return Err((
            message,
            "it must not contain control characters or line breaks".into(),
        ));
    }
    if trimmed.chars().count() > MAX_NAME_CHARS {
        return Err((
            message,
            format!("it must be at most {MAX_NAME_CHARS} characters"),
        ));
    }
    let id = slugify(trimmed);
    if id.is_empty() {
        return Err((message, "it needs at least one letter or digit".into()));
    }
    Ok(id)
}

/// Whether `id` is exactly what a lookup by `wanted` (an id or a name) means: the same
/// text, or the same slug.
pub fn same_entity(id: &str, name: &str, wanted: &str) -> bool {
    let wanted_slug = slugify(wanted);
    id == wanted.trim()
        || (!wanted_slug.is_empty() && (slugify(id) == wanted_slug || slugify(name) == wanted_slug))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_notes_examples() {
        assert_eq!(slugify("Payment Service"), "payment-service");
        assert_eq!(slugify("  API__Gateway  "), "api-gateway");
        assert_eq!(slugify("Node.js API"), "node-js-api");
        assert_eq!(slugify("API (v2)"), "api-v2");
        assert_eq!(slugify("Auth/SSO"), "auth-sso");
        assert_eq!(slugify("Päämäärä"), "paamaara");
        assert_eq!(slugify("PaymentService"), "paymentservice");
        assert_eq!(slugify("--a---b--"), "a-b");
    }

    #[test]
    fn names_without_letters_or_with_line_breaks_are_refused() {
        assert_eq!(
            checked_id("System", "Payment Service").unwrap(),
            "payment-service"
        );
        for bad in ["", "   ", "!!!", "a\nb", &"x".repeat(101)] {
            let (message, _) = checked_id("System", bad).unwrap_err();
            assert_eq!(message, "System name must be alphanumeric");
        }
    }

    #[test]
    fn lookups_accept_the_id_or_the_name() {
        assert!(same_entity(
            "payment-service",
            "Payment Service",
            "Payment Service"
        ));
        assert!(same_entity(
            "payment-service",
            "Payment Service",
            "payment-service"
        ));
        assert!(same_entity("PaymentAPI", "Payment API", "PaymentAPI"));
        assert!(same_entity("backend", "Backend API", "backend"));
        assert!(!same_entity("backend", "Backend API", "front"));
    }
}
