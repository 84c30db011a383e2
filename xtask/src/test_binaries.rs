//! One integration-test binary per crate: each binary links the whole dependency graph
//! again, so a crate's tests are modules of `tests/it/main.rs`. A file directly in a
//! crate's `tests/` would be a binary of its own; only the files named here may be, each
//! for the reason given.

use std::path::Path;

/// The test files that stay binaries of their own, and why.
const OWN_BINARIES: &[(&str, &str)] = &[
    (
        "core/tests/postgres_tls.rs",
        "sets SSL_CERT_FILE, which is process-wide",
    ),
    (
        "core/tests/loko_stall.rs",
        "times the executor's stalls to the millisecond: the other tests of a shared binary, \
         running beside it on the same cores, would make them",
    ),
];

/// The crates whose tests live in `tests/it/`.
const CRATES: &[&str] = &["core", "mcp"];

/// The test binaries under `root` that are neither `tests/it` nor named in
/// [`OWN_BINARIES`].
pub fn extra_binaries(root: &Path) -> Vec<String> {
    let mut extra = Vec::new();
    for krate in CRATES {
        let Ok(entries) = std::fs::read_dir(root.join(krate).join("tests")) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let is_binary = path.extension().is_some_and(|e| e == "rs")
                || (path.is_dir() && path.join("main.rs").is_file());
            let name = format!("{krate}/tests/{}", entry.file_name().to_string_lossy());
            if is_binary && name != format!("{krate}/tests/it") && !is_own(&name) {
                extra.push(name);
            }
        }
    }
    extra.sort();
    extra
}

fn is_own(name: &str) -> bool {
    OWN_BINARIES.iter().any(|(file, _)| *file == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_crate_has_one_integration_test_binary() {
        let root = crate::shell::root().unwrap();
        let extra = extra_binaries(&root);
        assert!(
            extra.is_empty(),
            "{extra:?}: make each a module of its crate's tests/it/main.rs (or name it, \
             with the reason, in xtask/src/test_binaries.rs)"
        );
        for krate in CRATES {
            assert!(
                root.join(krate).join("tests/it/main.rs").is_file(),
                "{krate}"
            );
        }
        for (file, _) in OWN_BINARIES {
            assert!(
                root.join(file).is_file(),
                "{file} is gone: drop it from the list"
            );
        }
    }

    #[test]
    fn a_new_file_beside_tests_it_is_found() {
        let root = std::env::temp_dir().join(format!("xtask-tests-{}", std::process::id()));
        std::fs::create_dir_all(root.join("core/tests/it")).unwrap();
        std::fs::write(root.join("core/tests/it/main.rs"), "").unwrap();
        std::fs::write(root.join("core/tests/new_subject.rs"), "").unwrap();
        std::fs::write(root.join("core/tests/postgres_tls.rs"), "").unwrap();
        let found = extra_binaries(&root);
        std::fs::remove_dir_all(&root).unwrap();
        assert_eq!(found, ["core/tests/new_subject.rs"]);
    }
}
