//! `cargo xtask hack [--check]`: keeps `workspace-hack/` (crate `toolpack-workspace-hack`)
//! such that every binding crate, built alone, resolves each dependency with the features
//! the release build of all native artifacts resolves it with.
//!
//! Why: maturin builds the Python extension alone (`-p toolpack-python`), while the MCP
//! server, the Node addon and the uniffi library are built together. Cargo picks a
//! dependency's features from the packages selected, so without this crate the two builds
//! share almost nothing and the release build happens twice. The binding crates depend on
//! `toolpack-workspace-hack`, which asks for the union's features (the cargo-hakari
//! pattern). The published crates (`toolpack`, `toolpack-mcp`) do not depend on it.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use anyhow::{Context, Result, bail};
use xshell::{Shell, cmd};

use crate::package::native::TRIPLE;

/// The crates built alone: by their own tool (maturin, and any one of them by hand), and the
/// instruction-count guard's program (`cargo xtask bench`).
const ALONE: [&str; 4] = [
    "toolpack-python",
    "toolpack-node",
    "toolpack-uniffi",
    "toolpack-cost-guard",
];
/// The release build of every native artifact (and the uniffi-bindgen that reads one).
const UNION: [&str; 5] = [
    "toolpack-python",
    "toolpack-node",
    "toolpack-uniffi",
    "toolpack-mcp",
    "uniffi-bindgen",
];
/// The hack crate's manifest, and its name in the dependency trees.
const MANIFEST: &str = "workspace-hack/Cargo.toml";
const NAME: &str = "toolpack-workspace-hack";

/// One resolved package, as a build unit kind: for the target, or for the host (build
/// scripts and proc-macros, whose features cargo resolves separately).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Unit {
    name: String,
    version: String,
    path: Option<String>,
    host: bool,
}

type Features = BTreeMap<Unit, BTreeSet<String>>;

/// Regenerates the hack crate (or, with `check`, fails when a crate built alone would
/// resolve a dependency differently from the union build).
pub fn run(sh: &Shell, check: bool) -> Result<()> {
    let union = tree(sh, &UNION, check)?;
    if check {
        let differences = differences(sh, &union, true)?;
        if !differences.is_empty() {
            bail!(
                "workspace-hack is out of date (run `cargo xtask hack`):\n{}",
                differences.join("\n")
            );
        }
        println!(
            "hack: each of {} resolves like the union build",
            ALONE.join(", ")
        );
        return Ok(());
    }
    let mut wanted = Features::new();
    for _round in 0..8 {
        sh.write_file(MANIFEST, manifest(&wanted))?;
        let mut next = wanted.clone();
        for member in ALONE {
            for (unit, features) in tree(sh, &[member], false)? {
                if let Some(all) = union.get(&unit)
                    && *all != features
                {
                    next.insert(unit, all.clone());
                }
            }
        }
        if next == wanted {
            println!("hack: {MANIFEST} lists {} units", wanted.len());
            return Ok(());
        }
        wanted = next;
    }
    bail!("hack: the features did not settle")
}

/// Every unit that a crate built alone resolves with other features than `union`.
fn differences(sh: &Shell, union: &Features, locked: bool) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for member in ALONE {
        for (unit, features) in tree(sh, &[member], locked)? {
            if let Some(all) = union.get(&unit)
                && *all != features
            {
                let kind = if unit.host { "host" } else { "target" };
                out.push(format!(
                    "  {member}: {} {} ({kind}): {features:?} instead of {all:?}",
                    unit.name, unit.version
                ));
            }
        }
    }
    Ok(out)
}

/// The resolved features of every unit when `packages` are built together.
fn tree(sh: &Shell, packages: &[&str], locked: bool) -> Result<Features> {
    let selection: Vec<String> = packages
        .iter()
        .flat_map(|p| ["-p".into(), p.to_string()])
        .collect();
    let locked = if locked { Some("--locked") } else { None };
    let format = "{p}|{f}";
    let text = cmd!(
        sh,
        "cargo tree -q {locked...} -e normal,build --target {TRIPLE} -f {format} {selection...}"
    )
    .read()?;
    parse(&text)
}

/// Reads `cargo tree`'s indented output: a line's depth is its prefix width / 4; a unit is
/// a host unit below a `[build-dependencies]` marker or a proc-macro, or when its parent is.
fn parse(text: &str) -> Result<Features> {
    let mut features = Features::new();
    let mut host_at: Vec<bool> = Vec::new();
    let mut build_section: Vec<bool> = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let content = line.trim_start_matches(['│', '├', '└', '─', ' ', '\u{a0}']);
        let depth = (line.chars().count() - content.chars().count()) / 4;
        build_section.resize(depth + 2, false);
        host_at.resize(depth + 1, false);
        if content == "[build-dependencies]" {
            // Printed at its parent's depth; the build dependencies follow one deeper.
            build_section[depth + 1] = true;
            continue;
        }
        let (package, list) = content
            .split_once('|')
            .with_context(|| format!("cargo tree line without features: {line}"))?;
        let mut words = package.split_whitespace();
        let name = words.next().context("a package name")?.to_owned();
        let version = words
            .next()
            .and_then(|v| v.strip_prefix('v'))
            .context("a package version")?
            .to_owned();
        let path = package
            .split_once("(/")
            .and_then(|(_, rest)| rest.split_once(')'))
            .map(|(path, _)| format!("/{path}"));
        let parent_host = depth > 0 && host_at[depth - 1];
        let host = parent_host || build_section[depth] || package.contains("(proc-macro)");
        host_at[depth] = host;
        build_section[depth + 1] = false;
        if name == NAME || depth == 0 {
            continue;
        }
        let set = list
            .trim_end_matches(" (*)")
            .split(',')
            .filter(|f| !f.is_empty())
            .map(str::to_owned)
            .collect();
        features.insert(
            Unit {
                name,
                version,
                path,
                host,
            },
            set,
        );
    }
    Ok(features)
}

/// The hack crate's `Cargo.toml` asking for `wanted`.
fn manifest(wanted: &Features) -> String {
    let mut text = String::from(
        "# Generated by `cargo xtask hack` (xtask/src/hack.rs); checked by `cargo xtask hack --check`.\n\
         # Every binding crate depends on this crate so that, built alone, it resolves each\n\
         # dependency with the features of the release build of all native artifacts.\n\
         [package]\nname = \"toolpack-workspace-hack\"\n\
         description = \"Feature unification for the binding crates (generated).\"\n\
         version.workspace = true\nedition.workspace = true\nlicense.workspace = true\npublish = false\n",
    );
    for (host, section) in [(false, "dependencies"), (true, "build-dependencies")] {
        let units: Vec<&Unit> = wanted.keys().filter(|u| u.host == host).collect();
        let _ = write!(text, "\n[{section}]\n");
        for unit in &units {
            let twins = units.iter().filter(|u| u.name == unit.name).count();
            let key = if twins > 1 {
                format!("{}-{}", unit.name, unit.version.replace(['.', '+'], "_"))
            } else {
                unit.name.clone()
            };
            let features: Vec<String> = wanted[*unit].iter().map(|f| format!("{f:?}")).collect();
            let source = match &unit.path {
                Some(path) => format!("path = \"../{}\"", path_from_root(path)),
                None => format!("version = \"={}\"", unit.version),
            };
            let rename = if key == unit.name {
                String::new()
            } else {
                format!("package = \"{}\", ", unit.name)
            };
            let _ = writeln!(
                text,
                "{key} = {{ {rename}{source}, default-features = false, features = [{}] }}",
                features.join(", ")
            );
        }
    }
    text
}

/// A workspace package's directory relative to the workspace root.
fn path_from_root(path: &str) -> String {
    let root = crate::shell::root()
        .map(|r| r.display().to_string())
        .unwrap_or_default();
    path.strip_prefix(&root)
        .map(|p| p.trim_start_matches('/').to_owned())
        .unwrap_or_else(|| path.to_owned())
}
