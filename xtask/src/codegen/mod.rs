//! `cargo xtask codegen [--check]`: every generated file that is committed, from the
//! catalog's contract JSON. `--check` writes nothing and fails on any drift, as the test
//! command runs it.

mod contract;
mod costs;
mod docs;
mod python;
pub mod server_json;
mod types;
mod typescript;

use std::path::PathBuf;

use anyhow::{Result, bail};
use xshell::Shell;

use crate::listing::Listing;
pub use contract::Contract;
use docs::{Column, Section};

/// One generated file: where it goes, and its text.
struct Generated {
    path: PathBuf,
    text: String,
}

/// Every generated file of this build's contract. The READMEs are read from `sh`'s
/// directory, since only their tables are generated (the tool table of the root README,
/// the error-kind tables of the binding READMEs).
fn generate(sh: &Shell) -> Result<Vec<Generated>> {
    let contract = Contract::of_this_build()?;
    let mut files = vec![
        Generated::new(
            "python/toolpack_agents/_generated.py",
            python::generated(&contract)?,
        ),
        Generated::new(
            "python/toolpack_agents/_errors.py",
            python::errors(&contract),
        ),
        Generated::new("node/index.d.ts", typescript::declarations(&contract)?),
        Generated::new("docs/tools.md", docs::tool_reference(&contract)?),
    ];
    for (readme, columns) in [
        ("python/README.md", &[Column::Python, Column::Kind][..]),
        ("node/README.md", &[Column::Kind][..]),
        ("bindings/README.md", &[Column::Kotlin, Column::Swift][..]),
    ] {
        let current = sh.read_file(readme)?;
        let table = docs::error_table(&contract, columns);
        let text = docs::with_section(&current, Section::ErrorKinds, &table)
            .map_err(|e| anyhow::anyhow!("{readme}: {e}"))?;
        files.push(Generated::new(readme, text));
    }
    let readme = sh.read_file("README.md")?;
    let text = docs::with_section(&readme, Section::Tools, &docs::tool_table(&contract))
        .map_err(|e| anyhow::anyhow!("README.md: {e}"))?;
    files.push(Generated::new("README.md", text));
    let deploy = sh.read_file("docs/deploy.md")?;
    let text = docs::with_section(
        &deploy,
        Section::SideEffects,
        &docs::side_effect_tools(&contract),
    )
    .map_err(|e| anyhow::anyhow!("docs/deploy.md: {e}"))?;
    files.push(Generated::new("docs/deploy.md", text));
    let hosts = sh.read_file("docs/hosts.md")?;
    let text = docs::with_section(&hosts, Section::Costs, &costs::table(&contract))
        .map_err(|e| anyhow::anyhow!("docs/hosts.md: {e}"))?;
    files.push(Generated::new("docs/hosts.md", text));
    let listing = Listing::read(sh)?;
    files.push(Generated::new(
        "server.json",
        server_json::server_json(&listing),
    ));
    let server_readme = sh.read_file("mcp/README.md")?;
    let line = format!("{}\n", listing.ownership_line());
    let text = docs::with_section(&server_readme, Section::Listing, &line)
        .map_err(|e| anyhow::anyhow!("mcp/README.md: {e}"))?;
    files.push(Generated::new("mcp/README.md", text));
    Ok(files)
}

impl Generated {
    fn new(path: &str, text: String) -> Self {
        Self {
            path: path.into(),
            text,
        }
    }
}

/// The paths of every generated file (relative to the workspace).
#[cfg(test)]
pub fn generated_paths(sh: &Shell) -> Result<std::collections::BTreeSet<String>> {
    Ok(generate(sh)?
        .into_iter()
        .map(|file| file.path.display().to_string())
        .collect())
}

/// Writes every generated file, or with `check` fails when one differs.
pub fn run(sh: &Shell, check: bool) -> Result<()> {
    let files = generate(sh)?;
    let mut stale = Vec::new();
    for file in &files {
        let current = sh.read_file(&file.path).unwrap_or_default();
        if current == file.text {
            continue;
        }
        if check {
            stale.push(file.path.display().to_string());
        } else {
            sh.write_file(&file.path, &file.text)?;
            println!("codegen: wrote {}", file.path.display());
        }
    }
    if !stale.is_empty() {
        bail!(
            "codegen: out of date with the catalog: {}; run `cargo xtask codegen`",
            stale.join(", ")
        );
    }
    println!("codegen: {} generated files match the catalog", files.len());
    Ok(())
}
