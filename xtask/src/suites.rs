//! `cargo xtask test [SUITE...]`: the test suites, one at a time or all of them. Every
//! suite shares one debug build (`target/debug`) and prints its runner's closing line.
//! A suite needs its tools installed first (`cargo xtask tools`); it names the missing
//! ones instead of installing them.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::ValueEnum;
use xshell::{Shell, cmd};

use crate::background::{Background, Priority};
use crate::shell::section;
use crate::tools::ToolName;

/// One test suite.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Suite {
    /// Generated files, import cycles, fmt, clippy (and the probe that it refuses blocking
    /// file work in a tool module), the core without features, the docs, the public API
    /// record
    /// (`cargo doc`, warnings are errors), every Rust test (the MCP server's too, in one
    /// build), the README's main job (the demo) among them.
    Rust,
    /// The MCP server's tests alone: in-process, stdio binary, HTTP, OAuth (a real issuer).
    Mcp,
    /// The official MCP conformance suite against `serve --http`.
    Conformance,
    /// The release artifacts in `target/dist/` (`cargo xtask package`).
    Package,
    /// The instruction-count guard (`cargo xtask bench`): instructions per call under
    /// callgrind against the committed baseline.
    CostGuard,
    /// The release wheel, installed into a fresh venv: pytest, mypy --strict, the examples.
    Python,
    /// The release npm tarballs, installed into a fresh project: node --test, tsc, the examples.
    Node,
    /// The built documentation site in headless Chromium.
    Browser,
    /// The Kotlin bindings on the JVM (`mvn test`, which builds what it needs itself), and
    /// the Swift sources.
    Kotlin,
    /// Every artifact of `target/dist/` installed with no Rust on `PATH`, and one call each.
    Install,
}

impl Suite {
    /// Every suite, in the order of a full run (`mcp` is in `rust`'s one test build).
    /// `package`'s release build runs in the background from the rust suite on, beside the
    /// suites that need no release artifact; the suites [`TOGETHER`] come after it.
    const ALL: &[Suite] = &[
        Self::Rust,
        Self::Conformance,
        Self::Browser,
        Self::Package,
        Self::Kotlin,
        Self::CostGuard,
        Self::Python,
        Self::Node,
        Self::Install,
    ];

    /// The suite's name on the command line.
    fn name(self) -> String {
        self.to_possible_value()
            .map(|v| v.get_name().to_owned())
            .unwrap_or_default()
    }

    /// The tools this suite runs.
    fn needs(self) -> &'static [ToolName] {
        match self {
            Self::Rust | Self::Mcp => &[ToolName::D2, ToolName::Apt, ToolName::Oauth],
            Self::Conformance => &[ToolName::Conformance],
            Self::Package | Self::Install => &[ToolName::Release, ToolName::Hosts],
            Self::CostGuard => &[ToolName::Release, ToolName::Apt],
            Self::Python | Self::Node => &[ToolName::D2, ToolName::Oauth, ToolName::Release],
            Self::Kotlin => &[ToolName::D2, ToolName::Oauth],
            Self::Browser => &[ToolName::D2, ToolName::Apt, ToolName::Browser],
        }
    }
}

/// `tools` and every tool `suites` need, each once, in the order they come.
pub fn with_needs_of(mut tools: Vec<ToolName>, suites: &[Suite]) -> Vec<ToolName> {
    for tool in suites.iter().flat_map(|suite| suite.needs()) {
        if !tools.contains(tool) {
            tools.push(*tool);
        }
    }
    tools
}

/// Runs `suites` (every suite when empty), in order; stops at the first failure. Then, unless
/// it runs in the background of another run, prints the table of where the time went, the
/// costliest step first ([`crate::timings`]), failed or not.
pub fn run(sh: &Shell, suites: &[Suite]) -> Result<()> {
    crate::timings::keep_record(&sh.current_dir());
    let outcome = run_suites(sh, suites);
    if std::env::var_os(crate::timings::IN_BACKGROUND).is_some() {
        crate::timings::save();
    } else {
        println!("\n=== where the time went: each step's processor and wall time (m:ss)");
        print!("{}", crate::timings::table(&crate::timings::run_steps()));
    }
    outcome
}

fn run_suites(sh: &Shell, suites: &[Suite]) -> Result<()> {
    let suites = if suites.is_empty() {
        Suite::ALL
    } else {
        suites
    };
    let missing: Vec<ToolName> = suites
        .iter()
        .flat_map(|s| s.needs())
        .copied()
        .filter(|tool| !tool.present(sh))
        .fold(Vec::new(), |mut all, tool| {
            if !all.contains(&tool) {
                all.push(tool);
            }
            all
        });
    if !missing.is_empty() {
        let names: Vec<&str> = missing.iter().map(|t| t.name()).collect();
        bail!(
            "missing tools: run `cargo xtask tools {}` first",
            names.join(" ")
        );
    }
    set_environment(sh)?;
    crate::background::keep_runner(&sh.current_dir())?;
    // With both asked for, the package suite's release build starts early in the rust
    // suite (once its sources are settled), at low priority, and uses the cores the rust
    // suite leaves idle: a single crate compiling, a link, a test waiting on a process.
    let mut early_package = None;
    let package_early = suites.contains(&Suite::Rust) && suites.contains(&Suite::Package);
    if std::env::var_os(ADOPT_DIST).is_some() {
        crate::package::adopt(sh)?;
    }
    // Whether this run has built the release artifacts: the suites side by side then take
    // them instead of building the wheel and the npm tarballs again.
    let mut packaged = false;
    let mut times = Vec::new();
    let mut next = 0;
    while let Some(suite) = suites.get(next) {
        let together = suites[next..]
            .iter()
            .take_while(|s| TOGETHER.contains(s))
            .count();
        if together > 1 {
            times.extend(run_together(sh, &suites[next..next + together], packaged)?);
            next += together;
            continue;
        }
        next += 1;
        let started = Instant::now();
        match suite {
            Suite::Rust => rust(sh, &mut || {
                if package_early {
                    early_package = Some(Background::start(sh, "package", Priority::Low, &[])?);
                }
                Ok(())
            })?,
            Suite::Mcp => mcp(sh)?,
            Suite::Conformance => conformance(sh)?,
            Suite::Package => {
                match early_package.take() {
                    Some(background) => {
                        // What this wait takes is the run's critical path: the release
                        // build outlasting the suites in the foreground.
                        section("package: the release build in the background, waited for");
                        background.finish()?;
                        crate::package::adopt(sh)?;
                    }
                    None => crate::package::run(sh)?,
                }
                packaged = true;
            }
            Suite::Python => python(sh)?,
            Suite::Node => node(sh)?,
            Suite::Browser => browser(sh)?,
            Suite::Kotlin => kotlin(sh)?,
            Suite::CostGuard => crate::bench::run(sh, false)?,
            Suite::Install => crate::install::run(sh)?,
        }
        times.push((*suite, started.elapsed()));
    }
    section("every suite asked for passed; each one's time");
    for (suite, time) in times {
        println!("{:<12} {:>6.0} s", suite.name(), time.as_secs_f64());
    }
    Ok(())
}

/// The suites that run side by side when several of them come in a row: each keeps its
/// files apart (its own virtual environment, npm project or Maven target), needs nothing
/// another builds, and spends much of its time waiting (retry back-offs, subprocesses,
/// loopback calls), so together they take little longer than the longest of them. The
/// instruction counts of `cost-guard` are counts, not times: other work does not move them.
const TOGETHER: &[Suite] = &[Suite::Kotlin, Suite::CostGuard, Suite::Python, Suite::Node];

/// Set for a suite in a child process when the run that started it has built the release
/// artifacts in `target/dist`: the suite takes them ([`crate::package::adopt`]).
const ADOPT_DIST: &str = "TOOLPACK_XTASK_ADOPT_DIST";

/// Runs `suites` side by side, each in a child process with its own log, and prints each
/// log once every suite before it in the list has finished; stops at the first failure.
/// With `packaged`, they take the release artifacts this run built.
fn run_together(sh: &Shell, suites: &[Suite], packaged: bool) -> Result<Vec<(Suite, Duration)>> {
    let names: Vec<String> = suites.iter().map(|s| s.name()).collect();
    section(&format!("{}: side by side", names.join(", ")));
    let env: &[(&str, &str)] = if packaged { &[(ADOPT_DIST, "1")] } else { &[] };
    let running = suites
        .iter()
        .zip(&names)
        .map(|(suite, name)| Ok((*suite, Background::start(sh, name, Priority::Normal, env)?)))
        .collect::<Result<Vec<_>>>()?;
    running
        .into_iter()
        .map(|(suite, background)| Ok((suite, background.finish()?)))
        .collect()
}

/// What every suite runs with: one-shot builds (incremental data would only cost time and
/// gigabytes), d2 on `PATH`, and where the OAuth issuer and the MCP binary are.
fn set_environment(sh: &Shell) -> Result<()> {
    let root = sh.current_dir();
    sh.set_var("CARGO_INCREMENTAL", "0");
    sh.set_var("PIP_DISABLE_PIP_VERSION_CHECK", "1");
    sh.set_var("npm_config_update_notifier", "false");
    sh.set_var("npm_config_fund", "false");
    sh.set_var("npm_config_audit", "false");
    let path = std::env::var("PATH").unwrap_or_default();
    sh.set_var(
        "PATH",
        format!("{}:{path}", root.join("target/tools/bin").display()),
    );
    sh.set_var("TOOLPACK_OAUTH_ISSUER_DIR", root.join("target/oauth"));
    sh.set_var("TOOLPACK_MCP_BIN", root.join("target/debug/toolpack-mcp"));
    // The PostgreSQL tests start their own throwaway servers; here they must not skip.
    sh.set_var("TOOLPACK_REQUIRE_POSTGRES", "1");
    sh.set_var("TOOLPACK_REQUIRE_MOSQUITTO", "1");
    if sh.path_exists("target/oauth") {
        sh.copy_file("tests/oauth/issuer.mjs", "target/oauth/")?;
    }
    Ok(())
}

/// The rust suite; `sources_settled` runs once no step of it edits a source file any more
/// (after the lint probe), before the first build.
fn rust(sh: &Shell, sources_settled: &mut dyn FnMut() -> Result<()>) -> Result<()> {
    section("rust: generated files match the catalog (cargo xtask codegen --check)");
    crate::codegen::run(sh, true)?;
    section("rust: no import cycles between the modules of any crate");
    crate::cycles::report(sh)?;
    section(
        "rust: the binding crates resolve their dependencies like the release build (cargo xtask hack --check)",
    );
    crate::hack::run(sh, true)?;
    section("rust: format");
    cmd!(sh, "cargo fmt --all --check").run()?;
    // The probe edits tool modules for a moment: it runs before any other build may
    // read the sources (`sources_settled` starts the package suite's release build).
    crate::lint_probe::run(sh)?;
    sources_settled()?;
    section("rust: clippy (all targets, warnings are errors)");
    cmd!(
        sh,
        "cargo clippy --workspace --all-targets --locked -- -D warnings"
    )
    .run()?;
    section("rust: core builds without optional features");
    cmd!(sh, "cargo check -p toolpack --no-default-features --locked").run()?;
    section("rust: docs (cargo doc --no-deps, warnings are errors: missing docs, broken links)");
    cmd!(
        sh,
        "cargo doc --no-deps --locked --all-features -p toolpack -p toolpack-postgres -p toolpack-mcp"
    )
    .env("RUSTDOCFLAGS", "-D warnings")
    .run()?;
    crate::public_api::run(sh, true)?;
    section("rust: tests (every crate, the MCP server's too: in-process, stdio, HTTP, OAuth)");
    cmd!(sh, "cargo test --workspace --locked --no-run").run()?;
    // The README's main job runs among them (`examples/rust/tests/demo.rs` runs the demo
    // binary this build made): `cargo run -p toolpack-examples` alone would resolve the
    // dependencies' features for the demo only, and build many of them a second time.
    cmd!(sh, "cargo test --workspace --locked").run()?;
    Ok(())
}

fn mcp(sh: &Shell) -> Result<()> {
    section("mcp: tests (in-process, stdio binary, HTTP, OAuth with a real issuer)");
    cmd!(sh, "cargo test --locked -p toolpack-mcp").run()?;
    Ok(())
}

fn conformance(sh: &Shell) -> Result<()> {
    section("conformance: the official MCP conformance suite against serve --http (Node 22)");
    crate::shell::helper_binaries(sh)?;
    let port = free_port()?;
    let log = std::fs::File::create(sh.current_dir().join("target/conformance/server.log"))?;
    let server = Command::new(sh.current_dir().join("target/debug/toolpack-mcp"))
        .args(["serve", "--http", &format!("127.0.0.1:{port}")])
        .stderr(log)
        .stdout(Stdio::null())
        .spawn()
        .context("starting toolpack-mcp")?;
    let _server = KillOnDrop(server);
    wait_for_health(port)?;
    let node = "target/conformance/node_modules/.bin/node";
    let suite = "target/conformance/node_modules/.bin/conformance";
    let url = format!("http://127.0.0.1:{port}/mcp");
    let expected = "tests/conformance/expected-failures.yml";
    crate::shell::tail(
        cmd!(
            sh,
            "{node} {suite} server --url {url} --expected-failures {expected}"
        ),
        3,
    )?;
    crate::shell::tail(
        cmd!(
            sh,
            "{node} {suite} server --url {url} --scenario server-sse-polling"
        ),
        2,
    )?;
    Ok(())
}

fn python(sh: &Shell) -> Result<()> {
    let wheel = crate::package::python::wheel(sh)?;
    section("python: the release wheel, installed into a fresh virtual environment");
    let root = sh.current_dir();
    let venv = root.join("target/py-venv");
    sh.remove_path(&venv)?;
    cmd!(sh, "python3 -m venv {venv}").run()?;
    let python = venv.join("bin/python");
    let uv = root.join(crate::tools::RELEASE_UV);
    // The wheel with its framework extras, the frameworks pinned to the tested versions.
    let with_extras = format!("{}[langchain,openai-agents,pydantic-ai]", wheel.display());
    cmd!(sh, "{uv} pip install -q --python {python} {with_extras} pytest>=8,<10 pytest-xdist==3.8.0 mypy>=1.10,<3 mcp==2.3.0 opentelemetry-proto==1.45.2 langchain-core==1.8.3 openai-agents==0.24.0 pydantic-ai-slim==2.68.0").run()?;

    section("python: pytest against the installed package (every vector, async and sync)");
    crate::shell::helper_binaries(sh)?;
    let mypy = venv.join("bin/mypy");
    let tests = root.join("python/tests");
    // From an empty directory outside the checkout, so `import toolpack_agents` can only mean
    // the installed wheel, and no stray file of the temporary directory is taken for a module.
    let empty = crate::shell::temp_dir(sh, "toolpack-python")?;
    let outside = sh.push_dir(&empty);
    // Three workers, each with its own fake upstream: most of a vector's time is spent
    // waiting (retry back-offs, timeouts), so three finish in about half the time of one.
    cmd!(sh, "{python} -m pytest -q -p no:cacheprovider -n 3 {tests}").run()?;

    section("python: mypy --strict on the examples and the package, and the examples run");
    let examples = root.join("examples/python");
    cmd!(sh, "{mypy} --strict --no-incremental {examples}").run()?;
    cmd!(
        sh,
        "{mypy} --strict --no-incremental {root}/python/toolpack_agents"
    )
    .run()?;
    for example in sh.read_dir(&examples)? {
        if example.extension().is_some_and(|e| e == "py") {
            cmd!(sh, "{python} {example}").ignore_stdout().run()?;
        }
    }
    drop(outside);
    sh.remove_path(&empty)?;
    Ok(())
}

fn node(sh: &Shell) -> Result<()> {
    let tarballs = crate::package::node::tarballs(sh)?;
    section("node: the release npm tarballs (main + platform), installed into a fresh project");
    let root = sh.current_dir();
    sh.remove_path("target/node-project")?;
    sh.create_dir("target/node-project")?;
    for dir in ["node/__test__", "examples/node"] {
        for file in sh.read_dir(dir)? {
            sh.copy_file(&file, "target/node-project/")?;
        }
    }
    let (main, platform) = (&tarballs.main, &tarballs.platform);
    let _dir = sh.push_dir("target/node-project");
    sh.write_file(
        "package.json",
        "{\"name\":\"toolpack-node-tests\",\"private\":true,\"type\":\"module\"}\n",
    )?;
    // The adapters' frameworks at the tested versions (ai 6 is the line that runs on Node 20).
    cmd!(sh, "npm install --silent --no-package-lock {main} {platform} @modelcontextprotocol/sdk@^1.32 typescript@^5.9 @types/node@^20 @types/json-schema@7.0.15 ai@6.0.326 @openai/agents@0.20.0 zod@4.6.7 @langchain/core@1.4.0").run()?;

    section("node: node --test against the installed package (every vector, typed and call)");
    let tests: Vec<String> = sh
        .read_dir(".")?
        .into_iter()
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .filter(|n| n.ends_with(".test.mjs"))
        .collect();
    let _env = [
        sh.push_env("TOOLPACK_TESTS_DIR", root.join("tests")),
        sh.push_env(
            "TOOLPACK_FAKE_UPSTREAM_BIN",
            root.join("target/debug/fake-upstream"),
        ),
    ];
    crate::shell::helper_binaries(sh)?;
    crate::shell::tail(cmd!(sh, "node --test --test-reporter=spec {tests...}"), 12)?;

    section("node: tsc --noEmit --strict on the TypeScript examples (the client, the adapters)");
    cmd!(sh, "npx tsc --noEmit --strict --module nodenext --moduleResolution nodenext --target es2022 --types node typed.ts adapters.ts").run()?;
    println!("tsc: typed.ts and adapters.ts type-check");
    Ok(())
}

fn browser(sh: &Shell) -> Result<()> {
    section("browser: the built documentation site in headless Chromium (playwright-core)");
    crate::shell::helper_binaries(sh)?;
    let root = sh.current_dir();
    sh.copy_file("tests/browser/site.test.mjs", "target/browser/")?;
    let site = sh.push_dir("target/browser");
    let _repo = sh.push_env("TOOLPACK_REPO", &root);
    crate::shell::tail(
        cmd!(sh, "node --test --test-reporter=spec site.test.mjs"),
        9,
    )?;
    println!("browser: screenshots in target/artifacts/");
    drop(site);
    crate::views::run(sh, true)?;
    crate::views::test(sh)?;
    println!("browser: the views' screenshots in docs/views/");
    Ok(())
}

fn kotlin(sh: &Shell) -> Result<()> {
    section(
        "kotlin: mvn test (the Maven build builds the library and the fake upstream, and generates the uniffi sources)",
    );
    // After `package` in the same run, the tests load the release library the JAR carries
    // (as the Python and Node suites test the release artifacts), and nothing is built in
    // debug for them.
    let library = if std::env::var_os(ADOPT_DIST).is_some() {
        Some(crate::package::native::natives(sh)?.uniffi())
    } else {
        None
    };
    let release: Vec<String> = library
        .iter()
        .flat_map(|library| {
            let stripped = sh.current_dir().join(crate::package::KOTLIN_JNI);
            [
                format!("-Dtoolpack.native.dir={}", stripped.display()),
                format!("-Dtoolpack.uniffi.library={}", library.display()),
            ]
        })
        .collect();
    // The Swift sources below come from the same library.
    let _library = library.map(|library| sh.push_env("TOOLPACK_UNIFFI_LIBRARY", library));
    // A step of its own in the run's table: the natives above may print a heading.
    section("kotlin: mvn test");
    let output = cmd!(sh, "mvn -B -f bindings/kotlin/pom.xml test {release...}")
        .ignore_status()
        .output()?;
    let text = String::from_utf8_lossy(&output.stdout);
    for line in text.lines().filter(|l| {
        ["Tests run:", "BUILD", "ERROR", "FAIL"]
            .iter()
            .any(|w| l.contains(w))
    }) {
        println!("{line}");
    }
    if !output.status.success() {
        println!("{text}");
        bail!("kotlin: mvn test failed");
    }
    section("swift: the uniffi Swift sources generate (no Swift toolchain here to compile them)");
    crate::bindings::generate(
        sh,
        crate::bindings::Language::Swift,
        Path::new("target/swift/Sources"),
    )?;
    Ok(())
}

fn free_port() -> Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

fn wait_for_health(port: u16) -> Result<()> {
    for _ in 0..200 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    bail!("toolpack-mcp did not listen on port {port}")
}

/// A child process killed when the suite is done with it (or fails).
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The suites a script's `cargo xtask <task> …` line names after `prefix`.
    fn suites_after(script: &str, prefix: &str) -> Vec<String> {
        let line = script
            .lines()
            .find(|line| line.starts_with(prefix))
            .unwrap_or_else(|| panic!("a line starting {prefix:?}"));
        line[prefix.len()..]
            .split_whitespace()
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn the_package_script_installs_what_its_suites_need() {
        let sh = crate::shell::workspace().unwrap();
        let script = sh.read_file("scripts/package").unwrap();
        let tested = suites_after(&script, "cargo xtask test ");
        let installed_for = suites_after(&script, "cargo xtask tools --for ");
        assert_eq!(installed_for, tested, "scripts/package");
        let parsed: Vec<Suite> = tested
            .iter()
            .map(|name| Suite::from_str(name, true).unwrap())
            .collect();
        let needs = with_needs_of(Vec::new(), &parsed);
        assert!(needs.contains(&ToolName::Release) && needs.contains(&ToolName::Hosts));
    }

    #[test]
    fn needs_are_added_once_after_the_tools_named() {
        let tools = with_needs_of(vec![ToolName::D2], &[Suite::Python, Suite::Node]);
        assert!(tools == [ToolName::D2, ToolName::Oauth, ToolName::Release]);
    }
}
