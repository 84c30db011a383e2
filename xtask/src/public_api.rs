//! `cargo xtask public-api [--check]`: the public API of the `toolpack` crate, one line
//! per item, in `core/public-api.txt`. Read from rustdoc's JSON output (stable rustdoc,
//! its unstable JSON flag switched on with `RUSTC_BOOTSTRAP=1`), so every public path, field,
//! variant, method signature and trait implementation shows; `--check` fails when the
//! committed file differs, so a change to the API shows in review.
//!
//! Only rustdoc sees `RUSTC_BOOTSTRAP` (through a wrapper, [`rustdoc_with_json`]): in the
//! environment of the whole build, it would make build scripts that watch it (`proc-macro2`'s)
//! run again, and the next ordinary build (the test build) would build every crate that
//! depends on them again: some 140 crates, minutes of a cold run.

use std::collections::BTreeSet;

use anyhow::{Context, Result, bail};
use serde_json::Value;
use xshell::{Shell, cmd};

use crate::shell::section;

/// The committed record.
const RECORD: &str = "core/public-api.txt";

/// Writes the record, or with `check` fails when it differs.
pub fn run(sh: &Shell, check: bool) -> Result<()> {
    section("rust: the public API of the toolpack crate matches core/public-api.txt");
    let lines = read_api(sh)?;
    let text = format!(
        "# The public API of the `toolpack` crate (default features), written by\n\
         # `cargo xtask public-api`; the rust suite fails when it drifts.\n{}",
        lines.into_iter().map(|l| l + "\n").collect::<String>()
    );
    let current = sh.read_file(RECORD).unwrap_or_default();
    if current == text {
        println!("public-api: {RECORD} matches");
        return Ok(());
    }
    if check {
        let (old, new): (BTreeSet<&str>, BTreeSet<&str>) =
            (current.lines().collect(), text.lines().collect());
        for line in old.difference(&new) {
            println!("- {line}");
        }
        for line in new.difference(&old) {
            println!("+ {line}");
        }
        bail!("public-api: the crate's public API changed; run `cargo xtask public-api`");
    }
    sh.write_file(RECORD, text)?;
    println!("public-api: wrote {RECORD}");
    Ok(())
}

/// Every public item of the crate, rendered and sorted.
fn read_api(sh: &Shell) -> Result<BTreeSet<String>> {
    let rustdoc = rustdoc_with_json(sh)?;
    cmd!(
        sh,
        "cargo rustdoc -q --locked -p toolpack --lib -- -Z unstable-options --output-format json"
    )
    .env("RUSTDOC", rustdoc)
    .run()?;
    let target = crate::shell::target_dir();
    let text = sh.read_file(format!("{target}/doc/toolpack.json"))?;
    let json: Value = serde_json::from_str(&text).context("rustdoc JSON")?;
    let krate = Crate {
        index: json.get("index").context("rustdoc JSON: no index")?,
        lines: BTreeSet::new(),
        seen: BTreeSet::new(),
    };
    let root = json.get("root").context("rustdoc JSON: no root")?;
    let mut krate = krate;
    krate.module(root, "toolpack");
    Ok(krate.lines)
}

/// A `rustdoc` that runs the toolchain's with `RUSTC_BOOTSTRAP=1` (its JSON output is
/// unstable), written into the target directory; its path. Cargo runs it for the documented
/// crate alone: the dependencies build as they do for clippy, and reuse its builds.
fn rustdoc_with_json(sh: &Shell) -> Result<String> {
    let sysroot = cmd!(sh, "rustc --print sysroot").read()?;
    let path = format!("{}/tools/rustdoc-json", crate::shell::target_dir());
    sh.write_file(
        &path,
        format!("#!/bin/sh\nRUSTC_BOOTSTRAP=1 exec '{sysroot}/bin/rustdoc' \"$@\"\n"),
    )?;
    cmd!(sh, "chmod +x {path}").run()?;
    Ok(sh.current_dir().join(path).display().to_string())
}

/// The walk over rustdoc's index.
struct Crate<'a> {
    index: &'a Value,
    lines: BTreeSet<String>,
    /// `(item id, path)` pairs already walked (re-exports may reach one item twice).
    seen: BTreeSet<(String, String)>,
}

impl Crate<'_> {
    fn item(&self, id: &Value) -> Option<&Value> {
        let key = match id {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        self.index.get(key)
    }

    fn module(&mut self, id: &Value, path: &str) {
        let Some(module) = self.item(id).cloned() else {
            return;
        };
        for child in items(&module["inner"]["module"]["items"]) {
            self.visit(&child, path, None);
        }
    }

    /// Records the public item `id` (named `rename` when re-exported under another
    /// name) inside `parent`.
    fn visit(&mut self, id: &Value, parent: &str, rename: Option<&str>) {
        let Some(item) = self.item(id).cloned() else {
            return;
        };
        if item["visibility"] != "public" {
            return;
        }
        let inner = &item["inner"];
        let Some((kind, body)) = inner.as_object().and_then(|o| o.iter().next()) else {
            return;
        };
        if kind == "use" {
            self.reexport(body, parent);
            return;
        }
        let name = rename
            .or_else(|| item["name"].as_str())
            .unwrap_or("_")
            .to_owned();
        let path = format!("{parent}::{name}");
        if !self.seen.insert((id.to_string(), path.clone())) {
            return;
        }
        match kind.as_str() {
            "module" => {
                self.lines.insert(format!("pub mod {path}"));
                self.module(id, &path);
            }
            "struct" => {
                self.lines
                    .insert(format!("pub struct {path}{}", generics(&body["generics"])));
                let fields = &body["kind"]["plain"]["fields"];
                for field in items(fields) {
                    self.field(&field, &path);
                }
                for (i, field) in items(&body["kind"]["tuple"]).iter().enumerate() {
                    if let Some(f) = self.item(field)
                        && f["visibility"] == "public"
                    {
                        let ty = ty(&f["inner"]["struct_field"]);
                        self.lines.insert(format!("pub {path}.{i}: {ty}"));
                    }
                }
                self.impls(&body["impls"], &path);
            }
            "enum" => {
                self.lines
                    .insert(format!("pub enum {path}{}", generics(&body["generics"])));
                for variant in items(&body["variants"]) {
                    if let Some(v) = self.item(&variant) {
                        let name = v["name"].as_str().unwrap_or("_");
                        self.lines.insert(format!("pub {path}::{name}"));
                    }
                }
                self.impls(&body["impls"], &path);
            }
            "function" => {
                self.lines.insert(function(&path, body));
            }
            "trait" => {
                self.lines.insert(format!("pub trait {path}"));
                for member in items(&body["items"]) {
                    self.trait_item(&member, &path);
                }
            }
            "constant" => {
                self.lines
                    .insert(format!("pub const {path}: {}", ty(&body["type"])));
            }
            "static" => {
                self.lines
                    .insert(format!("pub static {path}: {}", ty(&body["type"])));
            }
            "type_alias" => {
                self.lines.insert(format!(
                    "pub type {path}{} = {}",
                    generics(&body["generics"]),
                    ty(&body["type"])
                ));
            }
            "macro" => {
                self.lines.insert(format!("macro {name}!"));
            }
            other => {
                self.lines.insert(format!("pub {other} {path}"));
            }
        }
    }

    fn reexport(&mut self, body: &Value, parent: &str) {
        let name = body["name"].as_str().unwrap_or("_");
        let target = &body["id"];
        let local = !target.is_null() && self.item(target).is_some();
        if !local {
            let source = body["source"].as_str().unwrap_or("_");
            self.lines
                .insert(format!("pub use {parent}::{name} = {source}"));
        } else if body["is_glob"] == true {
            self.module(target, parent);
        } else {
            self.visit(target, parent, Some(name));
        }
    }

    fn field(&mut self, id: &Value, owner: &str) {
        if let Some(f) = self.item(id)
            && f["visibility"] == "public"
        {
            let name = f["name"].as_str().unwrap_or("_");
            let line = format!("pub {owner}.{name}: {}", ty(&f["inner"]["struct_field"]));
            self.lines.insert(line);
        }
    }

    fn trait_item(&mut self, id: &Value, owner: &str) {
        let Some(member) = self.item(id).cloned() else {
            return;
        };
        let name = member["name"].as_str().unwrap_or("_");
        let inner = &member["inner"];
        let line = if let Some(f) = inner.get("function") {
            function(&format!("{owner}::{name}"), f)
        } else if let Some(c) = inner.get("assoc_const") {
            format!("const {owner}::{name}: {}", ty(&c["type"]))
        } else {
            format!("type {owner}::{name}")
        };
        self.lines.insert(line);
    }

    fn impls(&mut self, ids: &Value, owner: &str) {
        for id in items(ids) {
            let Some(imp) = self.item(&id).cloned() else {
                continue;
            };
            let imp = &imp["inner"]["impl"];
            if imp["is_synthetic"] == true || !imp["blanket_impl"].is_null() {
                continue;
            }
            match imp["trait"].as_object() {
                Some(t) => {
                    let negative = if imp["is_negative"] == true { "!" } else { "" };
                    self.lines.insert(format!(
                        "impl {negative}{} for {owner}",
                        path_of(&Value::Object(t.clone()))
                    ));
                }
                None => {
                    for member in items(&imp["items"]) {
                        if let Some(m) = self.item(&member).cloned()
                            && m["visibility"] == "public"
                        {
                            let name = m["name"].as_str().unwrap_or("_");
                            if let Some(f) = m["inner"].get("function") {
                                self.lines.insert(function(&format!("{owner}::{name}"), f));
                            } else if let Some(c) = m["inner"].get("assoc_const") {
                                let line = format!("pub const {owner}::{name}: {}", ty(&c["type"]));
                                self.lines.insert(line);
                            }
                        }
                    }
                }
            }
        }
    }
}

fn items(list: &Value) -> Vec<Value> {
    list.as_array().cloned().unwrap_or_default()
}

/// `pub [const] [async] [unsafe] fn path<generics>(inputs) -> output`.
fn function(path: &str, f: &Value) -> String {
    let header = &f["header"];
    let mut out = String::from("pub ");
    for (flag, word) in [
        ("is_const", "const "),
        ("is_async", "async "),
        ("is_unsafe", "unsafe "),
    ] {
        if header[flag] == true {
            out += word;
        }
    }
    let inputs: Vec<String> = items(&f["sig"]["inputs"])
        .iter()
        .map(|pair| {
            let name = pair[0].as_str().unwrap_or("_");
            let t = &pair[1];
            match (name, t.get("borrowed_ref")) {
                ("self", Some(r)) if r["type"]["generic"] == "Self" => {
                    format!("&{}self", if r["is_mutable"] == true { "mut " } else { "" })
                }
                ("self", _) if t["generic"] == "Self" => "self".to_owned(),
                _ => format!("{name}: {}", ty(t)),
            }
        })
        .collect();
    out += &format!(
        "fn {path}{}({})",
        generics(&f["generics"]),
        inputs.join(", ")
    );
    if !f["sig"]["output"].is_null() {
        out += &format!(" -> {}", ty(&f["sig"]["output"]));
    }
    out
}

/// `<T: Bound, …>`, or nothing.
fn generics(g: &Value) -> String {
    let params: Vec<String> = items(&g["params"])
        .iter()
        .filter(|p| {
            // `impl Trait` arguments appear as synthetic parameters: shown in place.
            p["kind"]["type"]["is_synthetic"] != true
        })
        .map(|p| {
            let name = p["name"].as_str().unwrap_or("_").to_owned();
            let bounds = bounds(&p["kind"]["type"]["bounds"]);
            if bounds.is_empty() {
                name
            } else {
                format!("{name}: {bounds}")
            }
        })
        .collect();
    if params.is_empty() {
        String::new()
    } else {
        format!("<{}>", params.join(", "))
    }
}

fn bounds(list: &Value) -> String {
    items(list)
        .iter()
        .map(|b| {
            if let Some(t) = b.get("trait_bound") {
                path_of(&t["trait"])
            } else if let Some(l) = b.get("outlives") {
                l.as_str().unwrap_or("'_").to_owned()
            } else {
                "…".to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

/// A path with its generic arguments, e.g. `Result<T, Failure>`.
fn path_of(p: &Value) -> String {
    let name = p["path"]
        .as_str()
        .or_else(|| p["name"].as_str())
        .unwrap_or("_");
    // Paths written inside `macro_rules!` come as `$crate::…`.
    let name = name.strip_prefix("$crate::").unwrap_or(name);
    format!("{name}{}", args(&p["args"]))
}

fn args(a: &Value) -> String {
    if let Some(angle) = a.get("angle_bracketed") {
        let mut all: Vec<String> = items(&angle["args"])
            .iter()
            .map(|arg| {
                if let Some(t) = arg.get("type") {
                    ty(t)
                } else if let Some(l) = arg.get("lifetime") {
                    l.as_str().unwrap_or("'_").to_owned()
                } else if let Some(c) = arg.get("const") {
                    c["expr"].as_str().unwrap_or("_").to_owned()
                } else {
                    "_".to_owned()
                }
            })
            .collect();
        for c in items(&angle["constraints"]) {
            let name = c["name"].as_str().unwrap_or("_");
            if let Some(t) = c["binding"].get("equality").and_then(|e| e.get("type")) {
                all.push(format!("{name} = {}", ty(t)));
            } else {
                all.push(format!("{name}: {}", bounds(&c["binding"]["constraint"])));
            }
        }
        if all.is_empty() {
            String::new()
        } else {
            format!("<{}>", all.join(", "))
        }
    } else if let Some(p) = a.get("parenthesized") {
        let inputs: Vec<String> = items(&p["inputs"]).iter().map(ty).collect();
        let output = if p["output"].is_null() {
            String::new()
        } else {
            format!(" -> {}", ty(&p["output"]))
        };
        format!("({}){output}", inputs.join(", "))
    } else {
        String::new()
    }
}

/// A type as Rust writes it (paths by their last segments, as rustdoc gives them).
fn ty(t: &Value) -> String {
    let Some((kind, body)) = t.as_object().and_then(|o| o.iter().next()) else {
        return t.as_str().map_or("_", |_| "_").to_owned();
    };
    match kind.as_str() {
        "resolved_path" => path_of(body),
        "generic" | "primitive" => body.as_str().unwrap_or("_").to_owned(),
        "borrowed_ref" => {
            let lifetime = body["lifetime"]
                .as_str()
                .map(|l| format!("{l} "))
                .unwrap_or_default();
            let m = if body["is_mutable"] == true {
                "mut "
            } else {
                ""
            };
            format!("&{lifetime}{m}{}", ty(&body["type"]))
        }
        "raw_pointer" => {
            let m = if body["is_mutable"] == true {
                "mut"
            } else {
                "const"
            };
            format!("*{m} {}", ty(&body["type"]))
        }
        "slice" => format!("[{}]", ty(body)),
        "array" => format!(
            "[{}; {}]",
            ty(&body["type"]),
            body["len"].as_str().unwrap_or("_")
        ),
        "tuple" => {
            let all: Vec<String> = items(body).iter().map(ty).collect();
            format!("({})", all.join(", "))
        }
        "impl_trait" => format!("impl {}", bounds(body)),
        "dyn_trait" => {
            let traits: Vec<String> = items(&body["traits"])
                .iter()
                .map(|t| path_of(&t["trait"]))
                .collect();
            format!("dyn {}", traits.join(" + "))
        }
        "qualified_path" => {
            let (self_type, name) = (ty(&body["self_type"]), body["name"].as_str().unwrap_or("_"));
            let written = path_of(&body["trait"]);
            if body["trait"].is_null() || written.is_empty() {
                format!("{self_type}::{name}")
            } else {
                format!("<{self_type} as {written}>::{name}")
            }
        }
        "function_pointer" => "fn(…)".to_owned(),
        other => other.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    /// No cargo command of the xtask puts `RUSTC_BOOTSTRAP` in its environment (see the
    /// module doc: it costs the next build some 140 crates); rustdoc alone gets it.
    #[test]
    fn no_cargo_command_sets_rustc_bootstrap() {
        let needle = concat!(".env(\"RUSTC_", "BOOTSTRAP\"");
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let sources = crate::cycles::read_tree(&src).unwrap();
        assert!(
            sources.len() > 20,
            "read the xtask's sources: {}",
            sources.len()
        );
        for (module, source) in sources {
            assert!(!source.contains(needle), "{module:?} sets RUSTC_BOOTSTRAP");
        }
    }
}
