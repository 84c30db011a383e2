//! The one release build of the native code, shared by every artifact: zig (PyPI `ziglang`,
//! through `cargo-zigbuild`'s argument-filtering `zig cc`) compiles the C code and links
//! everything against glibc 2.28, so the artifacts run on every current LTS distribution.
//!
//! Both builders get the same environment from [`zig_env`]: maturin for the Python extension
//! and cargo for the MCP server, the Node addon and the uniffi library together. With the
//! same compilers, linker and target, and the same features (`workspace-hack/`), each build
//! reuses the dependencies built before it and compiles only its own crates. The server's
//! PostgreSQL is a crate of its own (`toolpack-postgres`), so building the server beside
//! the libraries gives them no database, and the core compiles once.

use std::path::PathBuf;
use std::sync::OnceLock;

use anyhow::Result;
use xshell::{PushEnv, Shell, cmd};

use crate::shell::section;
use crate::tools::RELEASE_VENV;

/// The Rust target every artifact is built for.
pub const TRIPLE: &str = "x86_64-unknown-linux-gnu";
/// The glibc every native artifact links against (and so needs at least).
pub const GLIBC: &str = "2.28";

/// The built release files.
pub struct Natives {
    dir: PathBuf,
}

impl Natives {
    /// The `toolpack-mcp` binary.
    pub fn mcp(&self) -> PathBuf {
        self.dir.join("toolpack-mcp")
    }

    /// The Node addon.
    pub fn node_addon(&self) -> PathBuf {
        self.dir.join("libtoolpack_node.so")
    }

    /// The uniffi library (Kotlin/Swift), with its symbols: uniffi-bindgen reads the
    /// bindings' metadata from them.
    pub fn uniffi(&self) -> PathBuf {
        self.dir.join("libtoolpack_uniffi.so")
    }

    /// The Python extension, as maturin built it.
    pub fn python(&self) -> PathBuf {
        self.dir.join("lib_native.so")
    }
}

static BUILT: OnceLock<PathBuf> = OnceLock::new();

/// Builds the release natives (once per run) and says where they are.
pub fn natives(sh: &Shell) -> Result<Natives> {
    if let Some(dir) = BUILT.get() {
        return Ok(Natives { dir: dir.clone() });
    }
    section(&format!(
        "package: release build of toolpack-mcp, the Node addon and the uniffi library (zig, glibc {GLIBC})"
    ));
    let dir = release_build(sh, &["toolpack-mcp", "toolpack-node", "toolpack-uniffi"])?;
    Ok(Natives {
        dir: BUILT.get_or_init(|| dir).clone(),
    })
}

/// Builds `packages` in release for [`TRIPLE`] with zig ([`zig_env`]); the directory of
/// what it built. With the workspace-hack's features, builds of different packages share
/// their dependencies.
pub fn release_build(sh: &Shell, packages: &[&str]) -> Result<PathBuf> {
    let _env = zig_env(sh)?;
    let selection = packages.iter().flat_map(|p| ["-p", p]);
    cmd!(
        sh,
        "cargo build --release --locked --target {TRIPLE} {selection...}"
    )
    .run()?;
    Ok(sh.current_dir().join("target").join(TRIPLE).join("release"))
}

/// The release build's environment until the guards drop: the release toolchain first on
/// `PATH`, and zig as the target's C compilers, archiver and linker (wrapper scripts in
/// `target/tools/release/zig/`, written here). Builds must pass `--target` [`TRIPLE`], so
/// build scripts and proc-macros keep the host's compiler.
pub fn zig_env(sh: &Shell) -> Result<Vec<PushEnv<'_>>> {
    let venv = sh.current_dir().join(RELEASE_VENV);
    let bin = venv.join("bin");
    let zig = venv.join("zig");
    sh.create_dir(&zig)?;
    let zigbuild = bin.join("cargo-zigbuild");
    let python = bin.join("python3");
    let target = format!("-target x86_64-linux-gnu.{GLIBC}");
    for (name, tool, flags) in [
        ("cc", "cc", format!("-g -fno-sanitize=all {target}")),
        ("c++", "c++", format!("-g -fno-sanitize=all {target}")),
        ("ar", "ar", String::new()),
        ("ranlib", "ranlib", String::new()),
    ] {
        let script = format!(
            "#!/bin/sh\n# Written by cargo xtask (xtask/src/package/native.rs): zig {tool} for glibc {GLIBC}.\n\
             export CARGO_ZIGBUILD_ZIG_COMMAND='{}'\nexport CARGO_ZIGBUILD_ZIG_COMMAND_ARGS='-m ziglang'\n\
             exec '{}' zig {tool} -- {flags} \"$@\"\n",
            python.display(),
            zigbuild.display()
        );
        // Rewritten only when it changes: a newer compiler file makes build scripts that
        // watch it run again, and every crate above them rebuild.
        let file = zig.join(name);
        if sh.read_file(&file).ok().as_deref() != Some(script.as_str()) {
            sh.write_file(&file, script)?;
            cmd!(sh, "chmod +x {file}").run()?;
        }
    }
    let path = sh.var("PATH").unwrap_or_default();
    let triple = TRIPLE.replace('-', "_");
    let cc = zig.join("cc");
    Ok(vec![
        sh.push_env("PATH", format!("{}:{path}", bin.display())),
        sh.push_env(format!("CC_{triple}"), &cc),
        sh.push_env(format!("CXX_{triple}"), zig.join("c++")),
        sh.push_env(format!("AR_{triple}"), zig.join("ar")),
        sh.push_env(format!("RANLIB_{triple}"), zig.join("ranlib")),
        sh.push_env(
            format!("CARGO_TARGET_{}_LINKER", triple.to_uppercase()),
            &cc,
        ),
    ])
}
