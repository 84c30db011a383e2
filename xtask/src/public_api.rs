//! `cargo xtask public-api [--check]`: the public API of the `toolpack` crate, one line
//! per item, in `core/public-api.txt`. Rustdoc writes the crate as JSON (stable rustdoc, its
//! unstable JSON flag switched on with `RUSTC_BOOTSTRAP=1`), and the `public-api` crate (the
//! library of cargo-public-api) lists every public path, field, variant, method signature
//! and trait implementation in it; `--check` fails when the committed file differs, so a
//! change to the API shows in review. `public-api` reads one JSON format version, the
//! toolchain's (`xtask/Cargo.toml` says which).
//!
//! Only rustdoc sees `RUSTC_BOOTSTRAP` (through a wrapper, [`rustdoc_with_json`]): in the
//! environment of the whole build, it would make build scripts that watch it (`proc-macro2`'s)
//! run again, and the next ordinary build (the test build) would build every crate that
//! depends on them again: some 140 crates, minutes of a cold run.

use std::collections::BTreeSet;

use anyhow::{Context, Result, bail};
use xshell::{Shell, cmd};

use crate::shell::section;

/// The committed record.
const RECORD: &str = "core/public-api.txt";

/// Writes the record, or with `check` fails when it differs.
pub fn run(sh: &Shell, check: bool) -> Result<()> {
    section("rust: the public API of the toolpack crate matches core/public-api.txt");
    let lines = read_api(sh)?;
    let text = format!(
        "# The public API of the `toolpack` crate (default features), written by\n\
         # `cargo xtask public-api`; the rust suite fails when it drifts.\n{}",
        lines.into_iter().map(|l| l + "\n").collect::<String>()
    );
    let current = sh.read_file(RECORD).unwrap_or_default();
    if current == text {
        println!("public-api: {RECORD} matches");
        return Ok(());
    }
    if check {
        let (old, new): (BTreeSet<&str>, BTreeSet<&str>) =
            (current.lines().collect(), text.lines().collect());
        for line in old.difference(&new) {
            println!("- {line}");
        }
        for line in new.difference(&old) {
            println!("+ {line}");
        }
        bail!("public-api: the crate's public API changed; run `cargo xtask public-api`");
    }
    sh.write_file(RECORD, text)?;
    println!("public-api: wrote {RECORD}");
    Ok(())
}

/// Every public item of the crate, rendered and sorted (blanket and auto-trait
/// implementations left out: they follow from the items and the standard library).
fn read_api(sh: &Shell) -> Result<BTreeSet<String>> {
    let rustdoc = rustdoc_with_json(sh)?;
    cmd!(
        sh,
        "cargo rustdoc -q --locked -p toolpack --lib -- -Z unstable-options --output-format json"
    )
    .env("RUSTDOC", rustdoc)
    .run()?;
    let json = format!("{}/doc/toolpack.json", crate::shell::target_dir());
    let api = public_api::Builder::from_rustdoc_json(&json)
        .omit_blanket_impls(true)
        .omit_auto_trait_impls(true)
        .build()
        .with_context(|| format!("reading {json} (rustdoc JSON)"))?;
    Ok(api.items().map(ToString::to_string).collect())
}

/// A `rustdoc` that runs the toolchain's with `RUSTC_BOOTSTRAP=1` (its JSON output is
/// unstable), written into the target directory; its path. Cargo runs it for the documented
/// crate alone: the dependencies build as they do for clippy, and reuse its builds.
fn rustdoc_with_json(sh: &Shell) -> Result<String> {
    let sysroot = cmd!(sh, "rustc --print sysroot").read()?;
    let path = format!("{}/tools/rustdoc-json", crate::shell::target_dir());
    sh.write_file(
        &path,
        format!("#!/bin/sh\nRUSTC_BOOTSTRAP=1 exec '{sysroot}/bin/rustdoc' \"$@\"\n"),
    )?;
    cmd!(sh, "chmod +x {path}").run()?;
    Ok(sh.current_dir().join(path).display().to_string())
}

#[cfg(test)]
mod tests {
    /// No cargo command of the xtask puts `RUSTC_BOOTSTRAP` in its environment (see the
    /// module doc: it costs the next build some 140 crates); rustdoc alone gets it.
    #[test]
    fn no_cargo_command_sets_rustc_bootstrap() {
        let needle = concat!(".env(\"RUSTC_", "BOOTSTRAP\"");
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let sources = crate::cycles::read_tree(&src).unwrap();
        assert!(
            sources.len() > 20,
            "read the xtask's sources: {}",
            sources.len()
        );
        for (module, source) in sources {
            assert!(!source.contains(needle), "{module:?} sets RUSTC_BOOTSTRAP");
        }
    }
}
