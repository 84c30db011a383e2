//! How the MCP server is listed where hosts look for it: the name the MCP Registry knows it
//! by, its one-line description, where it lives, and the environment it reads. What
//! `server.json`, the npm and PyPI server packages and the MCP Bundle say about the server
//! comes from here, and so from the workspace's manifests and the core's settings tables.

use anyhow::{Context, Result};
use toolpack::config::{SettingInfo, env, settings};
use xshell::Shell;

use crate::version::VERSION;

/// The server's name in every package registry (PyPI, npm, crates.io) and its command.
pub const SERVER: &str = "toolpack-mcp";

/// Settings that belong to the platform rather than to toolpack: a host sets them, a user
/// never configures them for the server.
const PLATFORM_SETTINGS: [&str; 3] = [env::HOME, env::XDG_DATA_HOME, env::APPDATA];

/// What the listing files say about the server.
pub struct Listing {
    /// The GitHub owner of the repository (`[workspace.metadata.listing] github-owner`).
    pub owner: String,
    /// `toolpack-mcp`'s one-line description (its `Cargo.toml`), at most 100 characters.
    pub description: String,
    /// The workspace's homepage.
    pub homepage: String,
}

impl Listing {
    /// Reads the listing from the workspace's and the server's `Cargo.toml`.
    pub fn read(sh: &Shell) -> Result<Self> {
        let workspace: toml::Table = sh.read_file("Cargo.toml")?.parse()?;
        let server: toml::Table = sh.read_file("mcp/Cargo.toml")?.parse()?;
        let text = |table: &toml::Table, path: &[&str]| -> Result<String> {
            let mut value = table.get(path[0]);
            for key in &path[1..] {
                value = value.and_then(|v| v.get(key));
            }
            value
                .and_then(toml::Value::as_str)
                .map(str::to_owned)
                .with_context(|| format!("no {} in a Cargo.toml", path.join(".")))
        };
        let listing = Self {
            owner: text(
                &workspace,
                &["workspace", "metadata", "listing", "github-owner"],
            )?,
            description: text(&server, &["package", "description"])?,
            homepage: text(&workspace, &["workspace", "package", "homepage"])?,
        };
        anyhow::ensure!(
            listing.description.chars().count() <= 100,
            "mcp/Cargo.toml's description is over the MCP Registry's 100 characters"
        );
        Ok(listing)
    }

    /// The MCP Registry's name of the server, `io.github.<owner>/toolpack`; the npm
    /// package's `mcpName` and the READMEs' `mcp-name:` line say the same.
    pub fn registry_name(&self) -> String {
        format!("io.github.{}/toolpack", self.owner)
    }

    /// The source repository's address.
    pub fn repository(&self) -> String {
        format!("https://github.com/{}/toolpack", self.owner)
    }

    /// Where a release's downloadable file `file` is published.
    pub fn release_download(&self, file: &str) -> String {
        format!("{}/releases/download/v{VERSION}/{file}", self.repository())
    }

    /// The line a README carries so the registry accepts the package as this server's.
    pub fn ownership_line(&self) -> String {
        format!("mcp-name: {}", self.registry_name())
    }
}

/// The settings the server reads from its environment, in the core's order, without the
/// platform's own variables.
pub fn environment() -> impl Iterator<Item = &'static SettingInfo> {
    settings().filter(|setting| !PLATFORM_SETTINGS.contains(&setting.name))
}
