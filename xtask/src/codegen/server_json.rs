//! `server.json`: the server as the official MCP Registry describes it. The committed file
//! lists the packages published under the server's name (PyPI, npm, crates.io); the
//! release's copy in `target/dist/` adds the MCP Bundle with its checksum
//! ([`with_bundle`]), which only a build knows.

use serde_json::{Value, json};

use crate::listing::{Listing, SERVER, environment};
use crate::version::VERSION;

/// The schema the file follows (the registry's current `server.json` format).
pub const SCHEMA: &str =
    "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/// The committed `server.json`.
pub fn server_json(listing: &Listing) -> String {
    pretty(&server(listing))
}

/// The release's `server.json`: the committed one with the MCP Bundle `bundle` (its file
/// name and sha256) added to the packages.
pub fn with_bundle(listing: &Listing, bundle: &str, sha256: &str) -> String {
    let mut server = server(listing);
    if let Value::Array(packages) = &mut server["packages"] {
        packages.push(package(json!({
            "registryType": "mcpb",
            "identifier": listing.release_download(bundle),
            "version": VERSION,
            "fileSha256": sha256,
        })));
    }
    pretty(&server)
}

/// The server's description, as a JSON value.
fn server(listing: &Listing) -> Value {
    let packages: Vec<Value> = [
        ("pypi", "https://pypi.org"),
        ("npm", "https://registry.npmjs.org"),
        ("cargo", "https://crates.io"),
    ]
    .into_iter()
    .map(|(registry, base)| {
        package(json!({
            "registryType": registry,
            "registryBaseUrl": base,
            "identifier": SERVER,
            "version": VERSION,
        }))
    })
    .collect();
    json!({
        "$schema": SCHEMA,
        "name": listing.registry_name(),
        "title": "toolpack",
        "description": listing.description,
        "version": VERSION,
        "websiteUrl": listing.homepage,
        "repository": { "url": listing.repository(), "source": "github" },
        "icons": [{
            "src": format!(
                "https://raw.githubusercontent.com/{}/toolpack/v{VERSION}/core/data/icons/toolpack.svg",
                listing.owner
            ),
            "mimeType": "image/svg+xml",
            "sizes": ["any"],
        }],
        "packages": packages,
    })
}

/// A package entry: `fields`, then the transport and the environment every package reads
/// (the same binary runs in each).
fn package(mut fields: Value) -> Value {
    let variables: Vec<Value> = environment()
        .map(|setting| {
            json!({
                "name": setting.name,
                "description": setting.description(),
                "isRequired": false,
                "isSecret": setting.secret,
            })
        })
        .collect();
    fields["transport"] = json!({ "type": "stdio" });
    fields["environmentVariables"] = Value::Array(variables);
    fields
}

fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("a JSON value serializes");
    text.push('\n');
    text
}
