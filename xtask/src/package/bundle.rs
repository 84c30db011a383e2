//! The MCP Bundle `toolpack-mcp-<version>-linux-x64.mcpb`, the file Claude Desktop and other
//! hosts open to install a server: `manifest.json` (`server.type = "binary"`, the tools, and
//! the keys and directories a user sets in `user_config`), the release binary, the icon, the
//! README and the licences. Built and checked with the official `@anthropic-ai/mcpb` CLI
//! (`validate`, `pack`); then `server.json` with the bundle added goes beside it.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use serde_json::{Map, Value, json};
use xshell::{Shell, cmd};

use super::LICENCES;
use super::native::natives;
use crate::codegen::Contract;
use crate::codegen::server_json;
use crate::listing::{Listing, SERVER};
use crate::shell::{section, temp_dir};
use crate::tools::MCPB;
use crate::version::VERSION;
use toolpack::config::{env, settings};

/// The manifest format (the newest one hosts widely open).
const MANIFEST_VERSION: &str = "0.3";
/// The bundle's icon: toolpack's SVG drawn at 512 × 512 (`mcpb` asks for a PNG).
const ICON: &str = "mcp/bundle/icon.png";

/// What the user sets when installing the bundle: the key in `user_config`, its type, the
/// setting it becomes, its title.
const USER_CONFIG: [(&str, &str, &str, &str); 4] = [
    ("tfl_api_key", "string", env::TFL_API_KEY, "TfL API key"),
    (
        "digitransit_api_key",
        "string",
        env::DIGITRANSIT_API_KEY,
        "Digitransit API key",
    ),
    (
        "data_dir",
        "directory",
        env::TOOLPACK_DATA_DIR,
        "Saved places directory",
    ),
    (
        "station_data_dir",
        "directory",
        env::TFL_STATION_DATA_DETAILED_DIR,
        "TfL station data directory",
    ),
];

/// The bundle's file name.
pub fn file_name() -> String {
    format!("{SERVER}-{VERSION}-linux-x64.mcpb")
}

/// Validates, packs and checks the bundle into `target/dist`, and writes
/// `target/dist/server.json` (the committed one with the bundle added). Returns the bundle.
pub fn bundle(sh: &Shell, listing: &Listing) -> Result<PathBuf> {
    let natives = natives(sh)?;
    section(&format!("package: the MCP Bundle {}", file_name()));
    let dist = super::dist(sh)?;
    let staging = temp_dir(sh, "toolpack-bundle")?;
    sh.create_dir(staging.join("server"))?;
    sh.copy_file(natives.mcp(), staging.join("server"))?;
    sh.copy_file(ICON, staging.join("icon.png"))?;
    for file in ["mcp/README.md"].into_iter().chain(LICENCES) {
        sh.copy_file(file, &staging)?;
    }
    let manifest = serde_json::to_string_pretty(&manifest(listing)?)? + "\n";
    sh.write_file(staging.join("manifest.json"), manifest)?;
    let mcpb = sh.current_dir().join(MCPB);
    let validation = cmd!(sh, "{mcpb} validate {staging}/manifest.json").read()?;
    println!("{validation}");
    let bundle = dist.join(file_name());
    cmd!(sh, "{mcpb} pack {staging} {bundle}")
        .ignore_stdout()
        .run()?;
    sh.remove_path(&staging)?;
    let size = std::fs::metadata(&bundle)?.len();
    println!("mcpb: {} ({size} bytes)", file_name());
    write_release_server_json(sh, listing, &dist, &bundle)?;
    Ok(bundle)
}

/// The bundle's `manifest.json`.
fn manifest(listing: &Listing) -> Result<Value> {
    let contract = Contract::of_this_build()?;
    let tools: Vec<Value> = contract
        .tools
        .iter()
        .map(|tool| json!({ "name": tool.name, "description": tool.summary }))
        .collect();
    let mut user_config = Map::new();
    let mut environment = Map::new();
    for (key, kind, setting, title) in USER_CONFIG {
        let Some(info) = settings().find(|s| s.name == setting) else {
            bail!("no setting {setting}");
        };
        let mut entry = json!({
            "type": kind,
            "title": title,
            "description": info.description(),
            "required": false,
        });
        if info.secret {
            entry["sensitive"] = json!(true);
        }
        user_config.insert(key.to_owned(), entry);
        environment.insert(setting.to_owned(), json!(format!("${{user_config.{key}}}")));
    }
    Ok(json!({
        "manifest_version": MANIFEST_VERSION,
        "name": SERVER,
        "display_name": "toolpack",
        "version": VERSION,
        "description": listing.description,
        "author": { "name": "toolpack contributors", "url": listing.homepage },
        "repository": { "type": "git", "url": listing.repository() },
        "homepage": listing.homepage,
        "icon": "icon.png",
        "server": {
            "type": "binary",
            "entry_point": format!("server/{SERVER}"),
            "mcp_config": {
                "command": format!("${{__dirname}}/server/{SERVER}"),
                "args": [],
                "env": environment,
            },
        },
        "tools": tools,
        "keywords": ["tfl", "digitransit", "transit", "c4", "architecture"],
        "license": "MIT OR Apache-2.0",
        "compatibility": { "platforms": ["linux"] },
        "user_config": user_config,
    }))
}

/// `target/dist/server.json`: the committed `server.json` with the bundle and its sha256,
/// ready to publish with the release.
fn write_release_server_json(
    sh: &Shell,
    listing: &Listing,
    dist: &Path,
    bundle: &Path,
) -> Result<()> {
    let sha256 = super::manifest::sha256(sh, bundle)?;
    let text = server_json::with_bundle(listing, &file_name(), &sha256);
    sh.write_file(dist.join("server.json"), text)?;
    println!("server.json: the bundle's sha256 {sha256}");
    Ok(())
}
