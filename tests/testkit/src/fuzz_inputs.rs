//! The fuzz targets' committed inputs (`fuzz/`), for the tests that replay them through the
//! targets' bodies on stable Rust in every test run (the core's and the server's):
//! - [`replay`]: the seed corpus `fuzz/corpus/<target>/` and the inputs that once broke a
//!   target, `fuzz/regressions/<target>/`;
//! - [`smoke`]: a short, deterministic mutation run over that corpus (bit flips, interesting
//!   bytes, cuts, repeats, splices), the test command's stand-in for libFuzzer, whose
//!   instrumented nightly build does not fit its time budget. `cargo xtask fuzz` is the real,
//!   coverage-guided run.

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

/// The repository's `fuzz/` directory.
pub fn fuzz_dir() -> PathBuf {
    crate::tests_dir().join("../fuzz")
}

/// The files of `dir`, sorted (none when it does not exist).
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

/// The names of the targets of the fuzz crate (`fuzz/fuzz_targets/<name>.rs`).
pub fn target_files() -> BTreeSet<String> {
    files(&fuzz_dir().join("fuzz_targets"))
        .iter()
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect()
}

/// The text of `fuzz/fuzz_targets/<target>.rs`.
pub fn target_source(target: &str) -> String {
    std::fs::read_to_string(fuzz_dir().join(format!("fuzz_targets/{target}.rs")))
        .unwrap_or_default()
}

/// Whether `fuzz/Cargo.toml` declares the binary `target`.
pub fn declared(target: &str) -> bool {
    std::fs::read_to_string(fuzz_dir().join("Cargo.toml"))
        .is_ok_and(|manifest| manifest.contains(&format!("name = \"{target}\"")))
}

/// The seed corpus of `target`.
pub fn corpus(target: &str) -> Vec<Vec<u8>> {
    files(&fuzz_dir().join("corpus").join(target))
        .iter()
        .filter_map(|file| std::fs::read(file).ok())
        .collect()
}

/// Runs `body` on every seed and regression of `target`; panics naming the first input it
/// fails on, or when the target has no seed.
pub fn replay(target: &str, body: fn(&[u8])) {
    let corpus = files(&fuzz_dir().join("corpus").join(target));
    assert!(!corpus.is_empty(), "fuzz/corpus/{target}/ has no seed");
    let regressions = files(&fuzz_dir().join("regressions").join(target));
    for input in corpus.iter().chain(&regressions) {
        let data = std::fs::read(input).expect("a committed input");
        let outcome = catch_unwind(|| body(&data));
        assert!(outcome.is_ok(), "{target} failed on {}", input.display());
    }
}

/// A fuzz target: its name and its body.
pub type Target = (&'static str, fn(&[u8]));

/// Runs each of `targets` ([`replay`], then [`smoke`] with `mutations` inputs), one after
/// another: the bodies of a crate share their loopback upstreams, which serve one input at a
/// time.
pub fn exercise(targets: Vec<Target>, mutations: usize) {
    for (name, body) in targets {
        replay(name, body);
        smoke(name, body, mutations);
    }
}

/// Bytes a mutation writes: the ones parsers branch on.
const INTERESTING: &[u8] = b"\0\xff\"\\\n\r{}[]:,.-+0123456789eE tn\x7f";

/// Runs `body` on `mutations` inputs derived from `target`'s corpus by a generator seeded
/// with the target's name, so a run is the same every time. A failing input is written to
/// `target/fuzz-smoke/<target>-<n>` and named in the panic.
pub fn smoke(target: &str, body: fn(&[u8]), mutations: usize) {
    let corpus = corpus(target);
    assert!(!corpus.is_empty(), "fuzz/corpus/{target}/ has no seed");
    let mut random = Random::seeded(target);
    for n in 0..mutations {
        let input = mutate(&corpus, &mut random);
        if catch_unwind(AssertUnwindSafe(|| body(&input))).is_err() {
            let dir = crate::tests_dir().join("../target/fuzz-smoke");
            let _ = std::fs::create_dir_all(&dir);
            let file = dir.join(format!("{target}-{n}"));
            let _ = std::fs::write(&file, &input);
            panic!(
                "{target} failed on a mutated input, kept in {}",
                file.display()
            );
        }
    }
}

/// One input: a seed with one to four mutations.
fn mutate(corpus: &[Vec<u8>], random: &mut Random) -> Vec<u8> {
    let mut data = corpus[random.below(corpus.len())].clone();
    for _ in 0..=random.below(4) {
        let at = random.below(data.len() + 1);
        match random.below(7) {
            0 if !data.is_empty() => {
                let i = at.min(data.len() - 1);
                data[i] ^= 1 << random.below(8);
            }
            1 if !data.is_empty() => {
                let i = at.min(data.len() - 1);
                data[i] = INTERESTING[random.below(INTERESTING.len())];
            }
            2 => {
                let end = (at + 1 + random.below(16)).min(data.len());
                data.drain(at..end.max(at));
            }
            3 => {
                let end = (at + 1 + random.below(32)).min(data.len());
                let piece = data[at..end.max(at)].to_vec();
                data.splice(at..at, piece.iter().copied().cycle().take(piece.len() * 3));
            }
            4 => data.insert(at, INTERESTING[random.below(INTERESTING.len())]),
            5 => data.truncate(at),
            _ => {
                let other = &corpus[random.below(corpus.len())];
                let from = random.below(other.len() + 1);
                data.truncate(at);
                data.extend_from_slice(&other[from..]);
            }
        }
    }
    data
}

/// xorshift64*: small, fast, and the same everywhere.
struct Random(u64);

impl Random {
    fn seeded(name: &str) -> Self {
        let seed = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        });
        Self(seed | 1)
    }

    /// A number below `n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let value = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d);
        if n == 0 {
            0
        } else {
            (value % n as u64) as usize
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutations_are_the_same_every_run_and_differ_from_the_seeds() {
        let corpus = vec![b"{\"a\":[1,2,3]}".to_vec(), b"hello".to_vec()];
        let run = |name| {
            let mut random = Random::seeded(name);
            (0..50)
                .map(|_| mutate(&corpus, &mut random))
                .collect::<Vec<_>>()
        };
        assert_eq!(run("x"), run("x"));
        assert_ne!(run("x"), run("y"));
        assert!(run("x").iter().filter(|m| !corpus.contains(m)).count() > 40);
    }

    #[test]
    fn a_failing_body_is_reported_with_its_input_kept() {
        fn fails_on_braces(data: &[u8]) {
            assert!(!data.contains(&b'}'), "a brace");
        }
        let outcome = catch_unwind(|| smoke("bearer", fails_on_braces, 100));
        let message = outcome.unwrap_err();
        let message = message.downcast_ref::<String>().unwrap();
        assert!(message.contains("target/fuzz-smoke/bearer-"), "{message}");
    }
}
