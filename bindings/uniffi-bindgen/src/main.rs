//! `uniffi-bindgen generate --library LIB --language kotlin|swift [--no-format] --out-dir DIR`:
//! generates the Kotlin and Swift sources from the built library (`cargo xtask bindings`).
//!
//! It calls the generator crate (`uniffi_bindgen`) itself instead of `uniffi`'s own CLI:
//! that CLI is `uniffi`'s `cli` feature, and with it every build that also compiles this
//! binary (the release natives, the test build) unifies `uniffi` to depend on the
//! generator, so the core, and every binding above it, waited for the generator (minutes
//! of a release build) before it could start.

use std::process::ExitCode;

use camino::Utf8PathBuf;
use uniffi_bindgen::bindings::{GenerateOptions, TargetLanguage, generate};

/// A language the bindings are generated in.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Language {
    Kotlin,
    Swift,
}

impl Language {
    fn target(self) -> TargetLanguage {
        match self {
            Self::Kotlin => TargetLanguage::Kotlin,
            Self::Swift => TargetLanguage::Swift,
        }
    }
}

/// What the command line asks for.
#[derive(Debug, PartialEq)]
struct Generate {
    library: Utf8PathBuf,
    languages: Vec<Language>,
    out_dir: Utf8PathBuf,
    format: bool,
}

const USAGE: &str = "usage: uniffi-bindgen generate --library LIB --language kotlin|swift [--no-format] --out-dir DIR";

/// Reads `generate`'s arguments (after the program's name).
fn parse(mut args: impl Iterator<Item = String>) -> Result<Generate, String> {
    if args.next().as_deref() != Some("generate") {
        return Err(USAGE.to_owned());
    }
    let (mut library, mut out_dir, mut languages, mut format) = (None, None, Vec::new(), true);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--library" => library = Some(Utf8PathBuf::from(value()?)),
            "--out-dir" => out_dir = Some(Utf8PathBuf::from(value()?)),
            "--language" => languages.push(match value()?.as_str() {
                "kotlin" => Language::Kotlin,
                "swift" => Language::Swift,
                other => return Err(format!("unknown language {other:?} (kotlin, swift)")),
            }),
            "--no-format" => format = false,
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    match (library, out_dir, languages.is_empty()) {
        (Some(library), Some(out_dir), false) => Ok(Generate {
            library,
            languages,
            out_dir,
            format,
        }),
        _ => Err(USAGE.to_owned()),
    }
}

fn main() -> ExitCode {
    let asked = match parse(std::env::args().skip(1)) {
        Ok(asked) => asked,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let languages = asked.languages.iter().map(|l| l.target()).collect();
    let options = GenerateOptions {
        languages,
        source: asked.library,
        out_dir: asked.out_dir,
        config_override: None,
        format: asked.format,
        crate_filter: None,
        metadata_no_deps: false,
    };
    match generate(options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("uniffi-bindgen: {error:#}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> impl Iterator<Item = String> {
        line.split_whitespace()
            .map(str::to_owned)
            .collect::<Vec<_>>()
            .into_iter()
    }

    #[test]
    fn reads_the_call_cargo_xtask_bindings_makes() {
        let asked = parse(args(
            "generate --library lib.so --language kotlin --no-format --out-dir out",
        ))
        .unwrap();
        assert_eq!(
            asked,
            Generate {
                library: "lib.so".into(),
                languages: vec![Language::Kotlin],
                out_dir: "out".into(),
                format: false,
            }
        );
    }

    #[test]
    fn refuses_what_it_cannot_do() {
        for (line, says) in [
            ("", "usage:"),
            ("generate --library l --out-dir o", "usage:"),
            (
                "generate --library l --language ruby --out-dir o",
                "unknown language",
            ),
            (
                "generate --library l --language swift --out-dir o --x",
                "unknown argument",
            ),
            ("generate --library", "--library needs a value"),
        ] {
            let error = parse(args(line)).unwrap_err();
            assert!(error.contains(says), "{line:?}: {error}");
        }
    }
}
