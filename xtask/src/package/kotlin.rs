//! The Kotlin artifact `dev.toolpack:toolpack`: the JAR (generated bindings, and the release
//! library in JNA's resource layout `linux-x86-64/`) and its POM, built by Maven over the
//! release library (no cargo build inside Maven).

use std::path::Path;

use anyhow::{Result, bail};
use xshell::{Shell, cmd};

use super::native;
use crate::shell::section;
use crate::version::VERSION;

/// Where JNA looks for the library inside a JAR on Linux x86-64.
pub const RESOURCE: &str = "linux-x86-64/libtoolpack_uniffi.so";

/// Builds the JAR and copies it, with its POM, into `dist`.
pub fn jar(sh: &Shell, dist: &Path) -> Result<()> {
    let natives = native::natives(sh)?;
    section("package: the Kotlin JAR (dev.toolpack:toolpack) with the release library inside");
    // The JAR's copy is stripped; the sources are generated from the library with symbols.
    let jni = sh.current_dir().join(super::KOTLIN_JNI);
    sh.remove_path(&jni)?;
    sh.create_dir(&jni)?;
    let unstripped = natives.uniffi();
    let stripped = jni.join("libtoolpack_uniffi.so");
    cmd!(sh, "strip --strip-all -o {stripped} {unstripped}").run()?;
    let dir = jni.display().to_string();
    let library = unstripped.display().to_string();
    cmd!(sh, "mvn -B -q -f bindings/kotlin/pom.xml clean package -Dmaven.test.skip=true -Dtoolpack.native.dir={dir} -Dtoolpack.uniffi.library={library}").run()?;
    let built = format!("bindings/kotlin/target/toolpack-{VERSION}.jar");
    let jar = dist.join(format!("toolpack-{VERSION}.jar"));
    sh.copy_file(&built, &jar)?;
    sh.copy_file(
        "bindings/kotlin/pom.xml",
        dist.join(format!("toolpack-{VERSION}.pom")),
    )?;
    let listing = cmd!(sh, "python3 -m zipfile -l {jar}").read()?;
    if !listing.contains(RESOURCE) {
        bail!("the JAR has no {RESOURCE}");
    }
    println!("kotlin: {} carries {RESOURCE}", jar.display());
    Ok(())
}
