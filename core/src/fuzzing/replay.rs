//! Every fuzz target over its committed inputs, in every test run: the seed corpus
//! (`fuzz/corpus/<target>/`, drawn from the vectors and fixtures) and the inputs that once
//! broke it (`fuzz/regressions/<target>/`, each named after what it was). And the targets
//! of `fuzz/` are exactly the bodies here.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::targets;

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

#[test]
fn every_target_answers_its_corpus_and_regressions() {
    for (name, body) in targets() {
        let corpus = files(&fuzz_dir().join("corpus").join(name));
        assert!(!corpus.is_empty(), "fuzz/corpus/{name}/ has no seed");
        let regressions = files(&fuzz_dir().join("regressions").join(name));
        for input in corpus.iter().chain(&regressions) {
            let data = std::fs::read(input).unwrap();
            let replay = std::panic::catch_unwind(|| body(&data));
            assert!(replay.is_ok(), "{name} failed on {}", input.display());
        }
    }
}

#[test]
fn the_fuzz_crate_has_a_target_per_body_and_no_other() {
    let bodies: BTreeSet<String> = targets()
        .iter()
        .map(|(name, _)| (*name).to_owned())
        .collect();
    let files: BTreeSet<String> = files(&fuzz_dir().join("fuzz_targets"))
        .iter()
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    assert_eq!(
        files, bodies,
        "fuzz/fuzz_targets/ against crate::fuzzing::targets()"
    );
    let manifest = std::fs::read_to_string(fuzz_dir().join("Cargo.toml")).unwrap();
    for name in &bodies {
        assert!(
            manifest.contains(&format!("name = \"{name}\"")),
            "fuzz/Cargo.toml has no [[bin]] {name}"
        );
    }
}
