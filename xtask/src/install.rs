//! `cargo xtask test install`: each artifact of `target/dist` installed as a user without a
//! Rust toolchain gets it (`cargo` and `rustc` off `PATH`), into a clean place, then one
//! tool call whose answer is checked. Prints how long each install took.

use std::path::Path;
use std::time::Instant;

use anyhow::{Result, bail};
use xshell::{Shell, cmd};

use crate::install_hosts;
use crate::package;
use crate::shell::{find_file, path_without_rust, section, temp_dir};
use crate::version::VERSION;

/// What every check asks for, and the station id its answer must carry.
const STATION: &str = "Abbey Wood";
const STATION_ID: &str = "HUBABW";

/// Installs and calls every artifact.
pub fn run(sh: &Shell) -> Result<()> {
    let dist = package::dist(sh)?;
    let place = temp_dir(sh, "toolpack-install")?;
    let _path = sh.push_env("PATH", path_without_rust());
    if cmd!(sh, "sh -c 'command -v cargo || command -v rustc'")
        .quiet()
        .ignore_status()
        .read()?
        .trim()
        .is_empty()
    {
        println!("install: no cargo or rustc on PATH");
    } else {
        bail!("install: cargo or rustc is still on PATH");
    }
    let mut took = Vec::new();
    for (what, step) in [
        ("MCP binary from its archive", binary as Step),
        ("Python wheel into a fresh venv", wheel),
        ("npm tarballs into a fresh project", npm),
        (
            "JAR into the local Maven repository, used by coordinates",
            jar,
        ),
        ("server.json by the MCP Registry's schema", |sh, dist, _| {
            install_hosts::server_json_valid(sh, dist)
        }),
        (
            "the server by uvx, pipx, npx, its bundle and every host configuration",
            |sh, dist, _| install_hosts::hosts_run_it(sh, dist),
        ),
    ] {
        section(&format!("install: {what}"));
        let start = Instant::now();
        step(sh, &dist, &place)?;
        took.push((what, start.elapsed().as_secs_f64()));
    }
    sh.remove_path(&place)?;
    section("install: every artifact installed and answered");
    for (what, seconds) in took {
        println!("{seconds:>6.1} s  {what}");
    }
    Ok(())
}

type Step = fn(&Shell, &Path, &Path) -> Result<()>;

/// Fails unless `answer` is the checked station's.
fn expect_station(what: &str, answer: &str) -> Result<()> {
    if !answer.contains(STATION_ID) {
        bail!("{what} answered without {STATION_ID}: {answer}");
    }
    println!("{what}: stationToilets {STATION} -> {STATION_ID}");
    Ok(())
}

fn binary(sh: &Shell, dist: &Path, place: &Path) -> Result<()> {
    let name = package::mcp::archive_name();
    {
        let _dir = sh.push_dir(dist);
        cmd!(sh, "sha256sum -c {name}.tar.gz.sha256").run()?;
    }
    let archive = dist.join(format!("{name}.tar.gz"));
    cmd!(sh, "tar -C {place} -xzf {archive}").run()?;
    let binary = place.join(&name).join("toolpack-mcp");
    let arguments = format!("{{\"stationName\":\"{STATION}\"}}");
    let answer = cmd!(sh, "{binary} call stationToilets {arguments}").read()?;
    expect_station("toolpack-mcp", &answer)
}

fn wheel(sh: &Shell, dist: &Path, place: &Path) -> Result<()> {
    let wheel = find_file(sh, dist, package::python::STEM, ".whl")?;
    let venv = place.join("venv");
    cmd!(sh, "python3 -m venv {venv}").run()?;
    let pip = venv.join("bin/pip");
    cmd!(sh, "{pip} install -q --disable-pip-version-check {wheel}").run()?;
    let python = venv.join("bin/python");
    let script = format!(
        "from toolpack_agents import Toolpack\nprint(Toolpack().station_toilets(station_name={STATION:?}))"
    );
    let answer = cmd!(sh, "{python} -c {script}").read()?;
    expect_station("toolpack_agents", &answer)
}

fn npm(sh: &Shell, dist: &Path, place: &Path) -> Result<()> {
    let main = dist.join(format!("toolpack-{VERSION}.tgz"));
    let platform = find_file(sh, dist, "toolpack-linux-x64-gnu-", ".tgz")?;
    let project = place.join("node-project");
    sh.create_dir(&project)?;
    let _dir = sh.push_dir(&project);
    sh.write_file("package.json", "{\"name\":\"consumer\",\"private\":true}\n")?;
    cmd!(
        sh,
        "npm install --silent --no-package-lock --no-fund --no-audit {main} {platform}"
    )
    .run()?;
    let script = format!(
        "const {{ Toolpack }} = require('toolpack'); new Toolpack().stationToilets({{ stationName: {STATION:?} }}).then((a) => console.log(JSON.stringify(a)))"
    );
    let answer = cmd!(sh, "node -e {script}").read()?;
    expect_station("toolpack (npm)", &answer)
}

fn jar(sh: &Shell, dist: &Path, _place: &Path) -> Result<()> {
    let jar = dist.join(format!("toolpack-{VERSION}.jar"));
    let pom = dist.join(format!("toolpack-{VERSION}.pom"));
    cmd!(
        sh,
        "mvn -B -q install:install-file -Dfile={jar} -DpomFile={pom}"
    )
    .run()?;
    // The consumer is the Kotlin example: it names only dev.toolpack:toolpack's coordinates.
    let answer = cmd!(
        sh,
        "mvn -B -q -f examples/kotlin/pom.xml clean compile exec:java"
    )
    .read()?;
    if !answer.contains("HUBKGX") {
        bail!("the Kotlin example answered: {answer}");
    }
    println!("dev.toolpack:toolpack (Kotlin example): stationToilets King's Cross -> HUBKGX");
    Ok(())
}
