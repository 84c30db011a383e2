//! `cargo xtask fuzz`: the cargo-fuzz targets of `fuzz/` (nightly, libFuzzer), whose bodies
//! are `toolpack::fuzzing`'s.
//!
//! - `cargo xtask fuzz seed` writes the seed corpus `fuzz/corpus/<target>/` from the
//!   fixtures, the test data and the example project (committed; every test run replays it).
//! - `cargo xtask fuzz [TARGET...] [--time S] [--jobs N]` fuzzes each target (all when none
//!   is named) for S seconds, N at a time, from the seeds and what earlier runs found
//!   (`target/fuzz-corpus/<target>/`, not committed), and prints each one's executions per
//!   second, corpus size and coverage. A crash or hang leaves its input in
//!   `fuzz/artifacts/<target>/`: fix it, and commit the input under
//!   `fuzz/regressions/<target>/`, named after what it was.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use anyhow::{Context, Result, bail};
use xshell::{Shell, cmd};

use crate::shell::section;
use crate::tools::CARGO_FUZZ;

/// The statuses the upstream bodies' first byte picks from (`core/src/fuzzing/upstream.rs`).
const STATUSES: [u16; 6] = [200, 200, 300, 400, 403, 404];

/// Every target of `fuzz/`.
fn all_targets(sh: &Shell) -> Result<Vec<String>> {
    let mut names: Vec<String> = sh
        .read_dir("fuzz/fuzz_targets")?
        .iter()
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    names.sort();
    Ok(names)
}

/// Fuzzes `targets` (all when empty) for `seconds` each, `jobs` at a time.
pub fn run(sh: &Shell, targets: &[String], seconds: u64, jobs: usize) -> Result<()> {
    let targets = if targets.is_empty() {
        all_targets(sh)?
    } else {
        targets.to_vec()
    };
    // `cargo +nightly fuzz` finds cargo-fuzz on PATH.
    let bin = sh.current_dir().join(CARGO_FUZZ);
    let bin = bin.parent().context("cargo-fuzz's directory")?;
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let _path = sh.push_env("PATH", &path);
    section("fuzz: build every target (nightly, address sanitizer)");
    cmd!(sh, "cargo +nightly fuzz build --fuzz-dir fuzz -O").run()?;
    let logs = sh.current_dir().join("target/fuzz-logs");
    sh.create_dir(&logs)?;
    let mut waiting = targets.iter();
    let mut running: Vec<(String, Child)> = Vec::new();
    let mut reports = Vec::new();
    loop {
        while running.len() < jobs.max(1)
            && let Some(target) = waiting.next()
        {
            section(&format!("fuzz: {target} for {seconds} s"));
            running.push((target.clone(), start(sh, &path, target, seconds, &logs)?));
        }
        if running.is_empty() {
            break;
        }
        // The first of the running targets to end, whichever it is.
        let mut ended = None;
        while ended.is_none() {
            for (at, (_, child)) in running.iter_mut().enumerate() {
                if let Some(status) = child.try_wait()? {
                    ended = Some((at, status));
                    break;
                }
            }
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
        let Some((at, status)) = ended else { break };
        let (target, _) = running.remove(at);
        let log = std::fs::read_to_string(logs.join(format!("{target}.log")))?;
        reports.push(report(&target, &log, status.success()));
    }
    section("fuzz: every target's run");
    println!(
        "{:<26} {:>10} {:>9} {:>8} {:>8}  found",
        "target", "execs", "execs/s", "cov", "corpus"
    );
    let mut failed = Vec::new();
    for line in &reports {
        println!("{}", line.text);
        if !line.clean {
            failed.push(line.target.clone());
        }
    }
    if !failed.is_empty() {
        bail!(
            "fuzz: {} found a crash or a hang (fuzz/artifacts/)",
            failed.join(", ")
        );
    }
    Ok(())
}

fn start(sh: &Shell, path: &str, target: &str, seconds: u64, logs: &Path) -> Result<Child> {
    let found = sh.current_dir().join("target/fuzz-corpus").join(target);
    sh.create_dir(&found)?;
    let seeds = sh.current_dir().join("fuzz/corpus").join(target);
    let log = std::fs::File::create(logs.join(format!("{target}.log")))?;
    Command::new("cargo")
        .env("PATH", path)
        .args([
            "+nightly",
            "fuzz",
            "run",
            "--fuzz-dir",
            "fuzz",
            "-O",
            target,
        ])
        .arg(&found)
        .arg(&seeds)
        .arg("--")
        .args([
            &format!("-max_total_time={seconds}"),
            "-timeout=20",
            "-rss_limit_mb=2048",
            "-malloc_limit_mb=1024",
            "-print_final_stats=1",
        ])
        .current_dir(sh.current_dir())
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(log)
        .spawn()
        .with_context(|| format!("starting cargo fuzz run {target}"))
}

/// One target's line of the summary.
struct Report {
    target: String,
    clean: bool,
    text: String,
}

/// Reads libFuzzer's final statistics and last status line from `log`.
fn report(target: &str, log: &str, clean: bool) -> Report {
    let stat = |name: &str| {
        log.lines()
            .find_map(|l| l.strip_prefix(&format!("stat::{name}:")))
            .map(|v| v.trim().to_owned())
            .unwrap_or_else(|| "?".into())
    };
    let last = log
        .lines()
        .rev()
        .find(|l| l.contains(" cov: "))
        .unwrap_or_default();
    let field = |name: &str| {
        last.split_whitespace()
            .skip_while(|w| *w != name)
            .nth(1)
            .unwrap_or("?")
            .to_owned()
    };
    let found = if clean {
        "nothing".to_owned()
    } else {
        log.lines()
            .find(|l| l.contains("ERROR: libFuzzer") || l.contains("panicked at"))
            .unwrap_or("a failure (see target/fuzz-logs/)")
            .trim()
            .to_owned()
    };
    Report {
        target: target.to_owned(),
        clean,
        text: format!(
            "{target:<26} {:>10} {:>9} {:>8} {:>8}  {found}",
            stat("number_of_executed_units"),
            stat("average_exec_per_sec"),
            field("cov:"),
            field("corp:"),
        ),
    }
}

/// Writes `fuzz/corpus/<target>/` from the fixtures, the test data and the example project.
pub fn seed(sh: &Shell) -> Result<()> {
    let root = sh.current_dir();
    let corpus = root.join("fuzz/corpus");
    sh.remove_path(&corpus)?;
    let mut written = 0;
    let mut put = |target: &str, name: &str, data: &[u8]| -> Result<()> {
        let dir = corpus.join(target);
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join(name), data)?;
        written += 1;
        Ok(())
    };
    let fixtures = root.join("tests/fixtures");
    for (target, dir, pick) in [
        ("tfl_journey", "tfl/journey", "" as &str),
        ("pelias", "digitransit/pelias", ""),
        ("otp_plan", "digitransit/otp", "plan"),
        ("otp_plan", "digitransit/otp", "graphql"),
        ("otp_departures", "digitransit/otp", "stop"),
        ("otp_departures", "digitransit/otp", "graphql"),
    ] {
        for file in json_files(&fixtures.join(dir))? {
            let name = file_name(&file);
            if !name.starts_with(pick) {
                continue;
            }
            let mut data = vec![status_of(&name)];
            data.extend(std::fs::read(&file)?);
            put(target, &name, &data)?;
        }
    }
    for file in sh.read_dir(fixtures.join("digitransit/hfp"))? {
        let name = file_name(&file);
        let Some(stem) = name.strip_suffix(".jsonl") else {
            continue;
        };
        for (i, line) in std::fs::read_to_string(&file)?.lines().enumerate() {
            let message: serde_json::Value = serde_json::from_str(line)?;
            let mut data = message["topic"]
                .as_str()
                .unwrap_or_default()
                .as_bytes()
                .to_vec();
            data.push(b'\n');
            data.extend(serde_json::to_vec(&message["payload"])?);
            put("hfp", &format!("{stem}-{i:02}"), &data)?;
        }
    }
    for (name, dir) in [
        ("bundled", "core/data/tfl-station-data"),
        ("quirks", "tests/data/station-data-quirks"),
    ] {
        let head = |file: &str| -> Result<Vec<u8>> {
            let text = std::fs::read_to_string(root.join(dir).join(file))?;
            Ok(text
                .lines()
                .take(40)
                .collect::<Vec<_>>()
                .join("\n")
                .into_bytes())
        };
        let mut data = head("Stations.csv")?;
        data.push(0);
        data.extend(head("Toilets.csv")?);
        put("station_data", name, &data)?;
    }
    let mut projects: Vec<PathBuf> = sh.read_dir(root.join("tests/data/loko"))?;
    projects.retain(|p| p.is_dir());
    projects.push(root.join("examples/loko/shop"));
    for project in &projects {
        let name = file_name(project);
        let mut packed = Vec::new();
        for file in project_files(project)? {
            let relative = file.strip_prefix(project)?.to_string_lossy().into_owned();
            let content = std::fs::read(&file)?;
            match file.extension().and_then(|e| e.to_str()) {
                Some("d2") => put(
                    "d2_arrows",
                    &format!("{name}-{}", relative.replace('/', "_")),
                    &content,
                )?,
                Some("md") => {
                    let flat = format!("{name}-{}", relative.replace('/', "_"));
                    put("markdown_html", &flat, &content)?;
                    put("frontmatter_round_trip", &flat, &content)?;
                }
                Some("toml") if relative.ends_with("relationships.toml") => put(
                    "relationships_round_trip",
                    &format!("{name}-{}", relative.replace('/', "_")),
                    &content,
                )?,
                _ => {}
            }
            if !packed.is_empty() {
                packed.push(0);
            }
            packed.extend(relative.as_bytes());
            packed.push(1);
            packed.extend(&content);
        }
        put("loko_project", &name, &packed)?;
    }
    put(
        "loko_project",
        "escaping-link",
        b"loko.toml\x01[project]\nname = \"x\"\n\0@src\x01/etc",
    )?;
    for tool in 0..32u8 {
        let data: Vec<u8> = (0..96u8)
            .map(|i| i.wrapping_mul(31).wrapping_add(tool))
            .collect();
        let mut seed = vec![tool];
        seed.extend(data);
        put("call_json", &format!("tool-{tool:02}"), &seed)?;
    }
    // The server's `bearer` (mcp/src/fuzzing.rs): the first byte picks a raw header (even)
    // or a token from header JSON, claims JSON and signature, one per line (odd; bit 1
    // clear: signed with the fixture key).
    for (name, text) in [
        ("static", "Bearer fuzz-static-token-0123456789"),
        ("basic", "Basic YWxhZGRpbjpvcGVuc2VzYW1l"),
        ("no-scheme", "fuzz-static-token-0123456789"),
        ("bare-jwt", "Bearer e30.e30.AAAA"),
    ] {
        put("bearer", name, &[b"\0", text.as_bytes()].concat())?;
    }
    let ed = r#"{"alg":"EdDSA","kid":"bench-ed","typ":"JWT"}"#;
    let claims = |more: &str| {
        format!(
            r#"{{"iss":"https://issuer.fuzz.invalid","aud":"https://mcp.fuzz.invalid/mcp","sub":"ann","exp":4102444800{more}}}"#
        )
    };
    for (name, form, header, claims, signature) in [
        ("signed", 1u8, ed, claims(""), ""),
        (
            "signed-scope",
            1,
            ed,
            claims(r#","scope":"toolpack:read","nbf":0"#),
            "",
        ),
        (
            "signed-audiences",
            1,
            ed,
            claims(r#","aud":["x","https://mcp.fuzz.invalid/mcp"]"#),
            "",
        ),
        (
            "expired",
            1,
            ed,
            claims("").replace("4102444800", "1000000000"),
            "",
        ),
        (
            "rs256-header",
            1,
            r#"{"alg":"RS256","kid":"bench-rs"}"#,
            claims(""),
            "",
        ),
        (
            "unknown-kid",
            1,
            r#"{"alg":"EdDSA","kid":"nobody"}"#,
            claims(""),
            "",
        ),
        ("alg-none", 3, r#"{"alg":"none"}"#, claims(""), ""),
        (
            "hmac",
            3,
            r#"{"alg":"HS256","kid":"bench-ed"}"#,
            claims(""),
            "sig",
        ),
    ] {
        let text = format!("{header}\n{claims}\n{signature}");
        put("bearer", name, &[&[form], text.as_bytes()].concat())?;
    }
    println!("fuzz: {written} seeds in fuzz/corpus/");
    Ok(())
}

/// A fixture's status byte: the index of the status its name gives (`…-404-…`), 300 for a
/// disambiguation, else 200.
fn status_of(name: &str) -> u8 {
    let index = STATUSES
        .iter()
        .position(|status| name.contains(&format!("-{status}-")))
        .or(name.contains("disambiguation").then_some(2))
        .unwrap_or(0);
    u8::try_from(index).unwrap_or(0)
}

fn json_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    Ok(files)
}

/// The files of a project, without dot-folders (`.loko/` caches), sorted.
fn project_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)?.flatten() {
        let path = entry.path();
        if file_name(&path).starts_with('.') {
            continue;
        }
        if path.is_dir() {
            files.extend(project_files(&path)?);
        } else {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
