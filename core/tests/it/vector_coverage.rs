//! Every error code of every catalog tool is exercised by a shared vector case, or is
//! listed in `tests/unexercised-error-codes.json` with the reason it cannot be
//! (or is not yet). A new tool, or a new code, without a case fails here; so does a
//! listed code that a case now exercises (the list only shrinks).
#![allow(
    clippy::disallowed_methods,
    reason = "a test, not a server's async path: it reads the committed list with std::fs"
)]

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;
use toolpack::Catalog;
use toolpack_testkit::vectors;

/// The code an error case expects, wherever the case says it.
fn expected_code(expect: &vectors::Expect) -> Option<String> {
    ["/code", "/error/code"]
        .iter()
        .find_map(|p| expect.pointers.get(*p))
        .or_else(|| {
            let body = expect.body.as_ref()?;
            body.pointer("/code")
                .or_else(|| body.pointer("/error/code"))
        })
        .and_then(Value::as_str)
        .map(str::to_owned)
}

/// `(tool, code)` pairs the vectors exercise.
fn exercised() -> BTreeSet<(String, String)> {
    vectors::load_all()
        .into_iter()
        .filter(|c| c.case.expect.is_error)
        .filter_map(|c| Some((c.tool.clone(), expected_code(&c.case.expect)?)))
        .collect()
}

/// `(tool, code)` pairs listed as not exercised, with their reasons.
fn listed() -> BTreeMap<(String, String), String> {
    let path = toolpack_testkit::tests_dir().join("unexercised-error-codes.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let json: BTreeMap<String, BTreeMap<String, String>> = serde_json::from_str(&text).unwrap();
    json.into_iter()
        .flat_map(|(tool, codes)| {
            codes
                .into_iter()
                .map(move |(code, reason)| ((tool.clone(), code), reason))
        })
        .collect()
}

#[test]
fn every_error_code_of_every_tool_has_a_vector_case_or_a_listed_reason() {
    let exercised = exercised();
    let listed = listed();
    let mut missing = Vec::new();
    for entry in Catalog::get().entries() {
        for code in entry.error_codes.iter() {
            let pair = (entry.spec.name.to_owned(), code.code.clone());
            if !exercised.contains(&pair) && !listed.contains_key(&pair) {
                missing.push(format!("{} {}", pair.0, pair.1));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "error codes no vector case exercises (add a case to tests/vectors/): {missing:?}"
    );
}

#[test]
fn the_unexercised_list_names_only_real_codes_no_case_exercises() {
    let exercised = exercised();
    for ((tool, code), reason) in listed() {
        let entry = Catalog::get()
            .find(&tool)
            .unwrap_or_else(|| panic!("{tool} is not a catalog tool"));
        assert!(
            entry.error_codes.iter().any(|c| c.code == code),
            "{tool} has no error code {code}"
        );
        assert!(
            !exercised.contains(&(tool.clone(), code.clone())),
            "{tool} {code} is exercised now: take it off the list ({reason})"
        );
        assert!(!reason.trim().is_empty(), "{tool} {code}: give a reason");
    }
}

#[test]
fn every_case_expects_a_code_of_its_tool() {
    for case in vectors::load_all() {
        if let Some(code) = expected_code(&case.case.expect) {
            let entry = Catalog::get().find(&case.tool).unwrap();
            let known = entry.error_codes.iter().any(|c| c.code == code)
                || (!case.case.expect.is_error && code == "OK");
            assert!(known, "{}: {code} is not a code of the tool", case.label());
        }
    }
}
