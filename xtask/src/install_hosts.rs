//! The server as MCP hosts find and run it: `server.json` against the MCP Registry's
//! published schema, and `tests/hosts/hosts.py`, which runs the PyPI, npm, bundle and archive
//! forms of the server and every configuration of `docs/hosts.md` through the official MCP
//! client. Part of `cargo xtask test install`; `cargo xtask cold-start` measures the same
//! launches' start-up.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde_json::Value;
use xshell::{Shell, cmd};

use crate::listing::Listing;
use crate::package::bundle;
use crate::tools::{HOSTS_VENV, MCPB};

/// The registry's Go module, which ships the schema (`go mod download` from the module
/// proxy; nothing of it is copied into this repository).
const REGISTRY_MODULE: &str = "github.com/modelcontextprotocol/registry@v1.8.9";
/// The schema's place in that module.
const SCHEMA_PATH: &str = "docs/reference/server-json/draft/server.schema.json";

/// The committed `server.json` and the release's (`target/dist/server.json`, with the
/// bundle) are valid by the registry's schema; the release's names the bundle's sha256.
pub fn server_json_valid(sh: &Shell, dist: &Path) -> Result<()> {
    let schema: Value = serde_json::from_str(&sh.read_file(registry_schema(sh)?)?)?;
    let validator = jsonschema::validator_for(&schema)
        .map_err(|e| anyhow::anyhow!("the registry's schema does not load: {e}"))?;
    let listing = Listing::read(sh)?;
    for (what, path) in [
        ("server.json", PathBuf::from("server.json")),
        ("target/dist/server.json", dist.join("server.json")),
    ] {
        let server: Value = serde_json::from_str(&sh.read_file(&path)?)
            .with_context(|| format!("{what} is not JSON"))?;
        let errors: Vec<String> = validator
            .iter_errors(&server)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        if !errors.is_empty() {
            bail!("{what} fails the registry's schema:\n{}", errors.join("\n"));
        }
        if server["name"] != listing.registry_name().as_str() {
            bail!("{what} names {}", server["name"]);
        }
        println!(
            "{what}: valid by the registry's schema ({} packages)",
            server["packages"].as_array().map_or(0, Vec::len)
        );
    }
    let release: Value = serde_json::from_str(&sh.read_file(dist.join("server.json"))?)?;
    let sha = crate::package::sha256(sh, &dist.join(bundle::file_name()))?;
    let listed = release["packages"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["registryType"] == "mcpb"))
        .context("the release's server.json lists no bundle")?;
    if listed["fileSha256"] != sha.as_str() {
        bail!(
            "the release's server.json gives the bundle's sha256 as {}, it is {sha}",
            listed["fileSha256"]
        );
    }
    Ok(())
}

/// Every way to run the server, and every host configuration of `docs/hosts.md`.
pub fn hosts_run_it(sh: &Shell, dist: &Path) -> Result<()> {
    let python = sh.current_dir().join(HOSTS_VENV).join("bin/python");
    let mcpb = sh.current_dir().join(MCPB);
    cmd!(
        sh,
        "{python} tests/hosts/hosts.py check {dist} docs/hosts.md {mcpb}"
    )
    .run()?;
    Ok(())
}

/// `cargo xtask cold-start`: spawn to the first `tools/list` answer of each launch, medians
/// of `runs` interleaved runs with warm caches.
pub fn cold_start(sh: &Shell, runs: u32) -> Result<()> {
    let dist = crate::package::dist(sh)?;
    let python = sh.current_dir().join(HOSTS_VENV).join("bin/python");
    let runs = runs.to_string();
    cmd!(sh, "{python} tests/hosts/hosts.py cold-start {dist} {runs}").run()?;
    Ok(())
}

/// The registry's schema file, from the Go module cache (downloaded when missing).
fn registry_schema(sh: &Shell) -> Result<PathBuf> {
    let download = cmd!(sh, "go mod download -json {REGISTRY_MODULE}")
        .env("GOFLAGS", "-mod=mod")
        .read()?;
    let module: Value = serde_json::from_str(&download)?;
    let dir = module["Dir"]
        .as_str()
        .with_context(|| format!("go mod download: {download}"))?;
    Ok(Path::new(dir).join(SCHEMA_PATH))
}
