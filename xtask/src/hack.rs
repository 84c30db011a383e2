//! `cargo xtask hack [--check]`: keeps the two hack crates (the cargo-hakari pattern) such
//! that a crate built alone resolves each dependency with the features of the build it
//! should share dependencies with. Cargo picks a dependency's features from the packages
//! selected, so without them two builds of the same dependencies share almost nothing.
//!
//! - `workspace-hack/` (`toolpack-workspace-hack`), for the release build: maturin builds
//!   the Python extension alone, the Node addon and the uniffi library are built together,
//!   and the MCP server beside the hack crate. The binding crates depend on it; the
//!   published crates (`toolpack`, `toolpack-postgres`, `toolpack-mcp`) do not. The
//!   server's database (`toolpack-postgres`) is a crate of its own that only the server
//!   links, so the libraries carry no database; the check fails if one of them would.
//! - `dev-hack/` (`toolpack-dev-hack`), for the debug build: `cargo xtask` builds xtask
//!   alone before anything else, and the suites build helper binaries (the fake upstream,
//!   the MCP binary, the uniffi library for Kotlin) with `-p`; each would otherwise rebuild
//!   most dependencies the test build (`cargo test --workspace`) has built. xtask and the
//!   testkit depend on it; nothing shipped does.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use anyhow::{Context, Result, bail};
use xshell::{Shell, cmd};

use crate::package::native::TRIPLE;

/// One hack crate: the build whose features it asks for, and the builds that must resolve
/// like that one.
struct Hack {
    /// The crate's manifest, and its name in the dependency trees.
    manifest: &'static str,
    name: &'static str,
    /// What the crate is for, in its manifest's heading and its description.
    purpose: &'static str,
    description: &'static str,
    /// The build to match: these packages (none: the whole workspace), and whether its
    /// dev-dependencies count (a test build).
    union: &'static [&'static str],
    dev: bool,
    /// The builds of a few packages that must resolve like `union`.
    alone: &'static [&'static [&'static str]],
}

/// The release build: the crates built alone by their own tool (maturin, and any one of
/// them by hand), and the instruction-count guard's program (`cargo xtask bench`), like the
/// release build of every native artifact.
const RELEASE: Hack = Hack {
    manifest: "workspace-hack/Cargo.toml",
    name: "toolpack-workspace-hack",
    purpose: "Every binding crate depends on this crate so that, built alone, it resolves each\n\
              # dependency with the features of the release build of all native artifacts.",
    description: "Feature unification for the binding crates (generated).",
    union: &[
        "toolpack-python",
        "toolpack-node",
        "toolpack-uniffi",
        "toolpack-mcp",
    ],
    dev: false,
    alone: &[
        &["toolpack-python"],
        &["toolpack-node"],
        &["toolpack-node", "toolpack-uniffi"],
        &["toolpack-uniffi"],
        &["toolpack-cost-guard"],
    ],
};

/// The libraries (Python, Node, Kotlin) built alone, as `cargo xtask package` builds them:
/// none of them may compile the database stack that only the server's replicas use.
const LIBRARIES: [&str; 3] = ["toolpack-python", "toolpack-node", "toolpack-uniffi"];
/// The database stack: PostgreSQL's client, its pool and their TLS.
const DATABASE_STACK: [&str; 3] = [
    "tokio-postgres",
    "deadpool-postgres",
    "tokio-postgres-rustls",
];

/// The debug build: `cargo xtask` (xtask alone), the suites' helper binaries
/// ([`crate::shell::helper_binaries`]), the fake upstream Maven builds, and the uniffi
/// library the Kotlin tests load and the `uniffi-bindgen` that reads any library, the
/// release one too ([`crate::bindings`]), like `cargo test --workspace`.
const DEV: Hack = Hack {
    manifest: "dev-hack/Cargo.toml",
    name: "toolpack-dev-hack",
    purpose: "xtask and the testkit depend on this crate so that `cargo xtask` and the suites'\n\
              # helper builds resolve each dependency with the features of `cargo test --workspace`.",
    description: "Feature unification for the debug builds of xtask and the test helpers (generated).",
    union: &[],
    dev: true,
    alone: &[
        &["xtask"],
        &["toolpack-testkit"],
        &["toolpack-testkit", "toolpack-mcp"],
        &["toolpack-uniffi", "uniffi-bindgen", "toolpack-testkit"],
        &["uniffi-bindgen", "toolpack-testkit"],
    ],
};

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

/// Regenerates both hack crates (or, with `check`, fails when a build of a few crates would
/// resolve a dependency differently from the build it should match).
pub fn run(sh: &Shell, check: bool) -> Result<()> {
    for hack in [&RELEASE, &DEV] {
        hack.run(sh, check)?;
    }
    libraries_carry_no_database(sh, check)
}

/// Fails when a library ([`LIBRARIES`]), built alone, would compile a crate of the
/// [`DATABASE_STACK`].
fn libraries_carry_no_database(sh: &Shell, locked: bool) -> Result<()> {
    let mut found = Vec::new();
    for library in LIBRARIES {
        let units = tree(sh, &[library], false, locked)?;
        found.extend(
            units
                .keys()
                .filter(|unit| DATABASE_STACK.contains(&unit.name.as_str()))
                .map(|unit| format!("{library} compiles {} {}", unit.name, unit.version)),
        );
    }
    if !found.is_empty() {
        bail!(
            "the libraries must build without the database stack:\n  {}",
            found.join("\n  ")
        );
    }
    println!(
        "hack: {} build without {}",
        LIBRARIES.join(", "),
        DATABASE_STACK.join(", ")
    );
    Ok(())
}

impl Hack {
    /// Regenerates this hack crate, or with `check` fails when it is out of date.
    fn run(&self, sh: &Shell, check: bool) -> Result<()> {
        if !check {
            // The build to match, without what the hack asked for before: a feature no
            // crate wants any more must not keep itself alive through the hack.
            sh.write_file(self.manifest, self.manifest_text(&Features::new()))?;
        }
        let union = tree(sh, self.union, self.dev, check)?;
        let alone: Vec<String> = self.alone.iter().map(|a| a.join(" + ")).collect();
        if check {
            let differences = self.differences(sh, &union, true)?;
            if !differences.is_empty() {
                bail!(
                    "{} is out of date (run `cargo xtask hack`):\n{}",
                    self.manifest,
                    differences.join("\n")
                );
            }
            println!(
                "hack: each of {} resolves like the build {} serves",
                alone.join(", "),
                self.name
            );
            return Ok(());
        }
        let mut wanted = Features::new();
        for _round in 0..8 {
            sh.write_file(self.manifest, self.manifest_text(&wanted))?;
            let mut next = wanted.clone();
            for packages in self.alone {
                for (unit, features) in self.resolved_alone(sh, packages, false)? {
                    if let Some(all) = union.get(&unit)
                        && *all != features
                    {
                        next.insert(unit, all.clone());
                    }
                }
            }
            if next == wanted {
                println!("hack: {} lists {} units", self.manifest, wanted.len());
                return Ok(());
            }
            wanted = next;
        }
        bail!("hack: the features of {} did not settle", self.name)
    }

    /// Every unit that a build of a few crates resolves with other features than `union`.
    fn differences(&self, sh: &Shell, union: &Features, locked: bool) -> Result<Vec<String>> {
        let mut out = Vec::new();
        for packages in self.alone {
            for (unit, features) in self.resolved_alone(sh, packages, locked)? {
                if let Some(all) = union.get(&unit)
                    && *all != features
                {
                    let kind = if unit.host { "host" } else { "target" };
                    out.push(format!(
                        "  {}: {} {} ({kind}): {features:?} instead of {all:?}",
                        packages.join(" + "),
                        unit.name,
                        unit.version
                    ));
                }
            }
        }
        Ok(out)
    }

    /// The units a build of `packages` resolves, but for the hack crate itself and the
    /// packages selected.
    fn resolved_alone(&self, sh: &Shell, packages: &[&str], locked: bool) -> Result<Features> {
        let mut features = tree(sh, packages, false, locked)?;
        features
            .retain(|unit, _| unit.name != self.name && !packages.contains(&unit.name.as_str()));
        Ok(features)
    }
}

/// The resolved features of every unit when `packages` (none: the whole workspace) are
/// built together; with `dev`, as a test build, with the dev-dependencies.
fn tree(sh: &Shell, packages: &[&str], dev: bool, locked: bool) -> Result<Features> {
    let selection: Vec<String> = if packages.is_empty() {
        vec!["--workspace".into()]
    } else {
        packages
            .iter()
            .flat_map(|p| ["-p".into(), p.to_string()])
            .collect()
    };
    let locked = if locked { Some("--locked") } else { None };
    let edges = if dev {
        "normal,build,dev"
    } else {
        "normal,build"
    };
    let format = "{p}|{f}";
    let text = cmd!(
        sh,
        "cargo tree -q {locked...} -e {edges} --target {TRIPLE} -f {format} {selection...}"
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
        if let Some(build) = match content {
            "[build-dependencies]" => Some(true),
            "[dev-dependencies]" => Some(false),
            _ => None,
        } {
            // Printed at its parent's depth; the dependencies follow one deeper.
            build_section[depth + 1] = build;
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
        if depth == 0 {
            continue;
        }
        let set = list
            .trim_end_matches(" (*)")
            .split(',')
            .filter(|f| !f.is_empty())
            .map(str::to_owned)
            .collect();
        // A unit reached twice (in a workspace tree) has one feature set: the last is as good.
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

impl Hack {
    /// The hack crate's `Cargo.toml` asking for `wanted`.
    fn manifest_text(&self, wanted: &Features) -> String {
        let mut text = format!(
            "# Generated by `cargo xtask hack` (xtask/src/hack.rs); checked by `cargo xtask hack --check`.\n\
         # {}\n\
         [package]\nname = \"{}\"\n\
         description = \"{}\"\n\
         version.workspace = true\nedition.workspace = true\nlicense.workspace = true\npublish = false\n",
            self.purpose, self.name, self.description
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
                let features: Vec<String> =
                    wanted[*unit].iter().map(|f| format!("{f:?}")).collect();
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
