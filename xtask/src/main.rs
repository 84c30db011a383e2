//! `cargo xtask`: the one entry point for the workspace's development tasks.
//!
//! ```text
//! cargo xtask codegen [--check]          # every language's files from the catalog
//! cargo xtask test [SUITE...]            # rust mcp conformance package cost-guard python node browser kotlin install
//! cargo xtask tools [TOOL...]            # install what the suites need
//! cargo xtask bindings kotlin|swift --out DIR   # uniffi sources (not committed)
//! cargo xtask hack [--check]            # workspace-hack/, dev-hack/: one feature set per build
//! cargo xtask cycles                     # no import cycles between the modules of core/src
//! cargo xtask lint-probe                 # clippy refuses blocking file work in a tool module
//! cargo xtask public-api [--check]       # core/public-api.txt: the crate's public API
//! cargo xtask package                    # release artifacts in target/dist (./scripts/package)
//! cargo xtask views [--check]            # the MCP Apps views' parts in core/data/views/
//! cargo xtask fuzz [TARGET...|seed] [--time S] [--jobs N]   # cargo-fuzz targets of fuzz/
//! cargo xtask cold-start [--runs N]      # spawn to first tools/list of each server package
//! cargo xtask bench [--bless]            # instructions per call under callgrind vs the baseline
//! ```

mod add_a_tool;
mod background;
mod bench;
mod bindings;
mod codegen;
mod cycles;
mod docs_lint;
mod fuzz;
mod hack;
mod install;
mod install_hosts;
mod lint_probe;
mod listing;
mod package;
mod public_api;
mod shell;
mod suites;
#[cfg(test)]
mod test_binaries;
mod timings;
mod tools;
mod version;
mod views;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// Development tasks of the toolpack workspace.
#[derive(Parser)]
#[command(name = "cargo xtask")]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Generate every language's files from the catalog (Python types and exceptions,
    /// TypeScript types, docs/tools.md, the README tool table, the READMEs' error tables).
    Codegen {
        /// Change nothing; fail when a committed file differs from what would be generated.
        #[arg(long)]
        check: bool,
    },
    /// Run test suites (all of them when none is named), in the order given.
    Test {
        /// Suites to run: rust, mcp, conformance, package, python, node, browser, kotlin,
        /// install.
        suites: Vec<suites::Suite>,
    },
    /// Install what the suites need (all tools when none is named).
    Tools {
        /// Tools to install: d2, apt, oauth, conformance, browser, release, hosts (all of
        /// these when none is named, nor any suite), and fuzz (only when named).
        tools: Vec<tools::ToolName>,
        /// Also every tool these suites need (`--for package install`).
        #[arg(long = "for", value_name = "SUITE", num_args = 1..)]
        for_suites: Vec<suites::Suite>,
    },
    /// Generate the uniffi Kotlin or Swift sources from the built library.
    Bindings {
        /// `kotlin` or `swift`.
        language: bindings::Language,
        /// Where to write them (a Kotlin source root, or a Swift package's `Sources`).
        #[arg(long)]
        out: PathBuf,
    },
    /// Check that the modules of each crate (core, server, xtask, bindings, test helpers)
    /// import one another without circles.
    Cycles,
    /// Check that clippy refuses blocking file work in a tool module (`core/clippy.toml`).
    LintProbe,
    /// Write `core/public-api.txt`, the `toolpack` crate's public API (from rustdoc JSON).
    PublicApi {
        /// Change nothing; fail when the crate's public API differs from the file.
        #[arg(long)]
        check: bool,
    },
    /// Regenerate `workspace-hack/Cargo.toml` and `dev-hack/Cargo.toml`, so each binding
    /// crate built alone resolves its dependencies like the release build of all of them,
    /// and xtask and the test helpers like the test build.
    Hack {
        /// Change nothing; fail when a crate built alone would resolve differently.
        #[arg(long)]
        check: bool,
    },
    /// Build the MCP Apps views' parts into `core/data/views/` from `views/`.
    Views {
        /// Change nothing; fail when a committed part differs from what would be built.
        #[arg(long)]
        check: bool,
    },
    /// Build the release artifacts into `target/dist/` and write `target/dist/MANIFEST.txt`
    /// (`cargo xtask test install` then installs each as a user does).
    Package,
    /// Fuzz the targets of `fuzz/` (all when none is named) with cargo-fuzz on nightly, or
    /// `seed` to write the seed corpus `fuzz/corpus/` from the fixtures and test data.
    Fuzz {
        /// Targets (`fuzz/fuzz_targets/`), or `seed`.
        targets: Vec<String>,
        /// Seconds each target runs.
        #[arg(long, default_value_t = 60)]
        time: u64,
        /// Targets run at once.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
    },
    /// Measure how long each way of running the server (the bare binary, the npm command,
    /// `npx`, `uvx`, `pipx run`) takes from spawn to its first `tools/list` answer, from the
    /// artifacts in `target/dist/` with warm caches: medians of interleaved runs.
    ColdStart {
        /// Runs of each launch.
        #[arg(long, default_value_t = 20)]
        runs: u32,
    },
    /// The instruction-count guard: every scenario of `tests/cost-guard/` under callgrind,
    /// against the committed baseline (fails on growth over 5%).
    Bench {
        /// Write the counts as the new baseline (`tests/cost-guard/baseline.json`).
        #[arg(long)]
        bless: bool,
    },
}

/// Whether `name` is one of the variables `cargo run` sets to describe the package it runs.
fn set_by_cargo_run(name: &str) -> bool {
    name.starts_with("CARGO_PKG_")
        || name.starts_with("CARGO_MANIFEST_")
        || matches!(
            name,
            "CARGO_CRATE_NAME" | "CARGO_BIN_NAME" | "CARGO_PRIMARY_PACKAGE"
        )
}

fn main() -> anyhow::Result<()> {
    // `cargo run` describes xtask's package to it (CARGO_MANIFEST_DIR, CARGO_PKG_NAME,
    // CARGO_PKG_VERSION_MAJOR, …), and every cargo started from here would inherit that;
    // build scripts that watch those variables (ring's watches six) would see them change
    // between the build of xtask and the builds it starts, and everything above them would
    // be built again (in a cold run: ring, rustls, reqwest, rmcp, the core, …).
    for (name, _) in std::env::vars_os() {
        if name.to_str().is_some_and(set_by_cargo_run) {
            // SAFETY: before any other thread exists (the start of `main`).
            unsafe { std::env::remove_var(&name) };
        }
    }
    shell::start_clock();
    let cli = Cli::parse();
    let sh = shell::workspace()?;
    let outcome = run_task(&sh, cli.task);
    // A run's record (`scripts/test-all` keeps one) gets this task's steps too.
    timings::save();
    outcome
}

fn run_task(sh: &xshell::Shell, task: Task) -> anyhow::Result<()> {
    match task {
        Task::Codegen { check } => codegen::run(sh, check),
        Task::Test { suites } => suites::run(sh, &suites),
        Task::Tools { tools, for_suites } => {
            tools::install(sh, &suites::with_needs_of(tools, &for_suites))
        }
        Task::Bindings { language, out } => bindings::generate(sh, language, &out),
        Task::Cycles => cycles::report(sh),
        Task::LintProbe => lint_probe::run(sh),
        Task::PublicApi { check } => public_api::run(sh, check),
        Task::Hack { check } => hack::run(sh, check),
        Task::Package => package::run(sh),
        Task::Views { check } => views::run(sh, check),
        Task::Fuzz {
            targets,
            time,
            jobs,
        } => match targets.as_slice() {
            [only] if only == "seed" => fuzz::seed(sh),
            _ => fuzz::run(sh, &targets, time, jobs),
        },
        Task::ColdStart { runs } => install_hosts::cold_start(sh, runs),
        Task::Bench { bless } => bench::run(sh, bless),
    }
}

#[cfg(test)]
mod tests {
    use super::set_by_cargo_run;

    /// What ring's build script watches goes; what configures cargo stays.
    #[test]
    fn the_package_description_goes_and_the_configuration_stays() {
        for gone in [
            "CARGO_MANIFEST_DIR",
            "CARGO_MANIFEST_LINKS",
            "CARGO_PKG_NAME",
            "CARGO_PKG_VERSION_MAJOR",
            "CARGO_PKG_VERSION_MINOR",
            "CARGO_PKG_VERSION_PATCH",
            "CARGO_PKG_VERSION_PRE",
            "CARGO_CRATE_NAME",
        ] {
            assert!(set_by_cargo_run(gone), "{gone}");
        }
        for kept in [
            "CARGO",
            "CARGO_HOME",
            "CARGO_TARGET_DIR",
            "CARGO_INCREMENTAL",
            "CARGO_BUILD_JOBS",
        ] {
            assert!(!set_by_cargo_run(kept), "{kept}");
        }
    }
}
