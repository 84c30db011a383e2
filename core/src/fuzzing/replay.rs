//! Every fuzz target over its committed inputs, in every test run (see
//! `toolpack_testkit::fuzz_inputs`): the seed corpus and the regressions replayed, then a
//! short deterministic mutation run over the corpus. And the targets of `fuzz/` are exactly
//! the bodies here and the server's (`toolpack_mcp::fuzzing`, whose files call
//! `server_target!`).

use std::collections::BTreeSet;

use toolpack_testkit::fuzz_inputs::{declared, exercise, target_files, target_source};

use super::targets;

/// Mutated inputs each target answers in a test run.
const SMOKE_MUTATIONS: usize = 1000;

#[test]
fn every_target_answers_its_committed_inputs_and_mutations_of_them() {
    exercise(targets(), SMOKE_MUTATIONS);
}

#[test]
fn the_fuzz_crate_has_a_target_per_body_and_no_other() {
    let bodies: BTreeSet<String> = targets()
        .iter()
        .map(|(name, _)| (*name).to_owned())
        .collect();
    let server_targets: BTreeSet<String> = target_files()
        .into_iter()
        .filter(|name| target_source(name).contains("toolpack_fuzz::server_target!"))
        .collect();
    let files: BTreeSet<String> = target_files()
        .difference(&server_targets)
        .cloned()
        .collect();
    assert_eq!(
        files, bodies,
        "fuzz/fuzz_targets/ against crate::fuzzing::targets()"
    );
    for name in &bodies {
        assert!(
            target_source(name).contains(&format!("toolpack_fuzz::target!(\"{name}\")")),
            "fuzz/fuzz_targets/{name}.rs runs the body {name}"
        );
        assert!(declared(name), "fuzz/Cargo.toml has no [[bin]] {name}");
    }
}
