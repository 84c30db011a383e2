//! The MCP server's archive: `toolpack-mcp-<version>-<target>.tar.gz` (the release binary,
//! README and licences) and its `.sha256`.

use std::path::Path;

use anyhow::Result;
use xshell::{Shell, cmd};

use super::{LICENCES, native};
use crate::shell::{section, temp_dir};
use crate::version::VERSION;

/// The archive's name without `.tar.gz`, which is also its top folder.
pub fn archive_name() -> String {
    format!("toolpack-mcp-{VERSION}-{}", native::TRIPLE)
}

/// Writes the archive and its checksum into `dist`.
pub fn archive(sh: &Shell, dist: &Path) -> Result<()> {
    let natives = native::natives(sh)?;
    section("package: the toolpack-mcp archive and its checksum");
    let name = archive_name();
    let staging = temp_dir(sh, "toolpack-stage")?;
    let folder = staging.join(&name);
    sh.create_dir(&folder)?;
    sh.copy_file(natives.mcp(), &folder)?;
    for doc in ["README.md"].into_iter().chain(LICENCES) {
        sh.copy_file(doc, &folder)?;
    }
    let archive = format!("{name}.tar.gz");
    let archive_path = dist.join(&archive);
    cmd!(
        sh,
        "tar -C {staging} --owner=0 --group=0 -czf {archive_path} {name}"
    )
    .run()?;
    sh.remove_path(&staging)?;
    let sum = super::manifest::sha256(sh, &archive_path)?;
    sh.write_file(
        dist.join(format!("{archive}.sha256")),
        format!("{sum}  {archive}\n"),
    )?;
    println!("mcp: {archive}");
    Ok(())
}
