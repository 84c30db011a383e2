//! Arguments that take one of a few words (`type`, `direction`, `level`…): checked in one
//! place, so every tool refuses another word with the same message.

use crate::loko::response::Failure;

/// `value` trimmed, when given and not blank; `INVALID_INPUT` naming `field` and the
/// words allowed when it is not one of `allowed`.
pub fn optional(
    field: &str,
    value: Option<&str>,
    allowed: &[&str],
) -> Result<Option<String>, Failure> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(v) if allowed.contains(&v) => Ok(Some(v.to_owned())),
        Some(v) => Err(Failure::invalid(format!(
            "{field} must be one of {}; got '{v}'",
            allowed.join(", ")
        ))),
    }
}

/// As [`optional`], with the first of `allowed` when `value` is absent or blank.
pub fn or_first(field: &str, value: Option<&str>, allowed: &[&str]) -> Result<String, Failure> {
    Ok(optional(field, value, allowed)?.unwrap_or_else(|| allowed[0].to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_is_one_of_those_allowed() {
        let allowed = ["sync", "async"];
        assert_eq!(or_first("type", None, &allowed).unwrap(), "sync");
        assert_eq!(or_first("type", Some(" "), &allowed).unwrap(), "sync");
        assert_eq!(
            optional("type", Some(" async "), &allowed)
                .unwrap()
                .as_deref(),
            Some("async")
        );
        assert_eq!(optional("type", None, &allowed).unwrap(), None);
        let refused = optional("type", Some("http"), &allowed).unwrap_err();
        assert_eq!(
            refused.message,
            "type must be one of sync, async; got 'http'"
        );
    }
}
