//! `cargo xtask bench [--bless]`: the instruction-count guard. Runs every scenario of
//! `tests/cost-guard/` (a fixed call on the core or through the MCP HTTP app) under
//! callgrind, and compares the instructions per call with the committed baseline
//! `tests/cost-guard/baseline.json`: a scenario more than [`ALLOWED_GROWTH_PERCENT`] % above it
//! fails, and the table is printed either way. Instruction counts do not depend on how busy
//! the machine is, so the guard runs in every test run. `--bless` writes the counts as the
//! new baseline, on purpose.
//!
//! The program is built like the release artifacts (zig, `--target`, the workspace-hack's
//! features), so after `cargo xtask package` only its own crate compiles; the fake upstream
//! (`toolpack-testkit`'s `fake-upstream`, a debug build) answers its Digitransit calls from
//! its own process, so its work is not counted.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use anyhow::{Context, Result, bail};
use xshell::{Shell, cmd};

use crate::package::native::release_build;
use crate::shell::section;

/// The committed counts: scenario → instructions per call.
const BASELINE: &str = "tests/cost-guard/baseline.json";
/// How much a scenario may grow over its baseline before the guard fails, in percent.
const ALLOWED_GROWTH_PERCENT: u64 = 10;
/// Calls counted per scenario (the count is their mean).
const CALLS: u64 = 10;

/// Runs the guard; with `bless`, writes the baseline instead of comparing.
pub fn run(sh: &Shell, bless: bool) -> Result<()> {
    let program = build(sh)?;
    let upstream = FakeUpstream::start(sh)?;
    let out_dir = sh.current_dir().join("target/instructions");
    sh.create_dir(&out_dir)?;
    let scenarios = cmd!(sh, "{program} list").read()?;
    let mut counts = BTreeMap::new();
    section("bench: instructions per call under callgrind");
    for scenario in scenarios.lines() {
        let count = count(sh, &program, scenario, &upstream.url, &out_dir)?;
        counts.insert(scenario.to_owned(), count);
    }
    drop(upstream);
    if bless {
        let text = serde_json::to_string_pretty(&counts)? + "\n";
        sh.write_file(BASELINE, text)?;
        for (scenario, count) in &counts {
            println!("{scenario:<32} {count:>10}");
        }
        println!("bench: {BASELINE} written");
        return Ok(());
    }
    let baseline: BTreeMap<String, u64> = serde_json::from_str(&sh.read_file(BASELINE)?)
        .with_context(|| format!("reading {BASELINE}"))?;
    let failures = compare(&baseline, &counts);
    if !failures.is_empty() {
        bail!(
            "bench: {}; if that is intended, run `cargo xtask bench --bless` and commit {BASELINE}",
            failures.join("; ")
        );
    }
    Ok(())
}

/// Prints each scenario beside its baseline; what fails the guard.
fn compare(baseline: &BTreeMap<String, u64>, counts: &BTreeMap<String, u64>) -> Vec<String> {
    println!(
        "{:<32} {:>10} {:>10} {:>8}",
        "scenario", "baseline", "now", "change"
    );
    let mut failures = Vec::new();
    for (scenario, &now) in counts {
        let Some(&before) = baseline.get(scenario) else {
            println!("{scenario:<32} {:>10} {now:>10} {:>8}", "—", "new");
            failures.push(format!("{scenario} has no baseline"));
            continue;
        };
        let change = now as f64 / before as f64 - 1.0;
        println!(
            "{scenario:<32} {before:>10} {now:>10} {:>+7.1}%",
            change * 100.0
        );
        if now * 100 > before * (100 + ALLOWED_GROWTH_PERCENT) {
            failures.push(format!(
                "{scenario} grew {:.1}% (at most {ALLOWED_GROWTH_PERCENT}%)",
                change * 100.0
            ));
        }
    }
    failures.extend(
        baseline
            .keys()
            .filter(|scenario| !counts.contains_key(*scenario))
            .map(|scenario| format!("{scenario} is in the baseline but no longer runs")),
    );
    failures
}

/// Builds the guard's program like the release artifacts, and the fake upstream; the
/// program's path.
fn build(sh: &Shell) -> Result<PathBuf> {
    section("bench: release build of the guard's program (tests/cost-guard)");
    let dir = release_build(sh, &["toolpack-cost-guard"])?;
    crate::shell::helper_binaries(sh)?;
    Ok(dir.join("toolpack-cost-guard"))
}

/// The instructions per call of `scenario`: the program's counted calls under callgrind
/// (instrumented only between its start and stop requests), divided by their number.
fn count(sh: &Shell, program: &Path, scenario: &str, upstream: &str, out: &Path) -> Result<u64> {
    let file = out.join(format!("{}.callgrind", scenario.replace(' ', "-")));
    let calls = CALLS.to_string();
    let out_file = format!("--callgrind-out-file={}", file.display());
    cmd!(
        sh,
        "valgrind -q --tool=callgrind --instr-atstart=no {out_file} {program} {scenario} --upstream {upstream} --calls {calls}"
    )
    .run()
    .with_context(|| format!("{scenario} under callgrind"))?;
    let text = sh.read_file(&file)?;
    let total: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("totals:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .with_context(|| format!("no totals in {}", file.display()))?;
    Ok(total / CALLS)
}

/// The fake upstream in its own process, until dropped (its standard input closes).
struct FakeUpstream {
    child: Child,
    url: String,
}

impl FakeUpstream {
    fn start(sh: &Shell) -> Result<Self> {
        let mut child = Command::new(sh.current_dir().join("target/debug/fake-upstream"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .context("starting the fake upstream")?;
        let stdout = child.stdout.take().context("its stdout")?;
        let mut url = String::new();
        BufReader::new(stdout).read_line(&mut url)?;
        let url = url.trim().to_owned();
        if !url.starts_with("http://") {
            bail!("the fake upstream printed no URL");
        }
        Ok(Self { child, url })
    }
}

impl Drop for FakeUpstream {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(pairs: &[(&str, u64)]) -> BTreeMap<String, u64> {
        pairs.iter().map(|(s, c)| ((*s).to_owned(), *c)).collect()
    }

    #[test]
    fn growth_within_ten_percent_passes_and_beyond_fails() {
        let baseline = counts(&[("mcp stationToilets", 1000), ("core stationToilets", 500)]);
        let within = counts(&[("mcp stationToilets", 1100), ("core stationToilets", 400)]);
        assert!(compare(&baseline, &within).is_empty());
        let beyond = counts(&[("mcp stationToilets", 1101), ("core stationToilets", 500)]);
        let failures = compare(&baseline, &beyond);
        assert_eq!(failures.len(), 1);
        assert!(
            failures[0].starts_with("mcp stationToilets grew 10.1%"),
            "{failures:?}"
        );
    }

    #[test]
    fn a_scenario_without_baseline_or_a_baseline_without_scenario_fails() {
        let baseline = counts(&[("core a", 10)]);
        let failures = compare(&baseline, &counts(&[("core b", 10)]));
        assert_eq!(
            failures,
            [
                "core b has no baseline",
                "core a is in the baseline but no longer runs"
            ]
        );
    }
}
