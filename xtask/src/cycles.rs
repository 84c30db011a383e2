//! `cargo xtask cycles`: the import graph of each crate's modules, and its circles.
//!
//! The crates are [`CRATES`]: the core, the server, xtask, the bindings and the test
//! helpers. Each file is a module (`a/b.rs` and `a/b/mod.rs` are `a::b`). A module imports
//! another when its code names a path into it (`use crate::x::y`, `super::z::f()`,
//! `$crate::w`, …). A module naming its own descendants is containment, not an import,
//! so only paths to non-descendants are edges. A circle is a strongly connected set of
//! two or more modules; the rule is that there are none.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{Result, bail};
use xshell::Shell;

/// A module path, e.g. `["loko", "build_docs"]` (the crate root is `[]`).
type Module = Vec<String>;

/// The source directory of every crate whose modules are checked. A binary target beside
/// a library (`main.rs` next to `lib.rs`) is a crate of its own that reaches the library
/// by name, so only the library's tree is read there.
pub const CRATES: &[&str] = &[
    "core/src",
    "mcp/src",
    "xtask/src",
    "python/src",
    "node/src",
    "bindings/src",
    "bindings/uniffi-bindgen/src",
    "tests/testkit/src",
    "tests/cost-guard/src",
    "examples/rust/src",
    "core/tests/it",
    "mcp/tests/it",
];

/// Prints the circles of every crate of [`CRATES`] and fails when there is one.
pub fn report(sh: &Shell) -> Result<()> {
    let mut found = 0;
    for dir in CRATES {
        let sources = read_tree(&sh.current_dir().join(dir))?;
        let graph = import_graph(&sources)?;
        let circles = circles(&graph);
        let edges: usize = graph.values().map(BTreeSet::len).sum();
        println!(
            "cycles: {dir}: {} modules, {edges} imports, {} circles",
            graph.len(),
            circles.len()
        );
        for circle in &circles {
            let names: Vec<String> = circle.iter().map(display).collect();
            println!("cycles: {dir}: circle between {}", names.join(", "));
        }
        found += circles.len();
    }
    if found > 0 {
        bail!("cycles: {found} circles between modules");
    }
    Ok(())
}

/// Every `.rs` file under `dir`, as (module, source); a `main.rs` or `bin/` beside a
/// `lib.rs` holds other crates' roots and is left out.
pub(crate) fn read_tree(dir: &Path) -> Result<BTreeMap<Module, String>> {
    let mut out = BTreeMap::new();
    let has_lib = dir.join("lib.rs").is_file();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        for entry in std::fs::read_dir(&current)? {
            let path = entry?.path();
            if path.is_dir() {
                // `src/bin/*.rs` beside a library are binaries, crates of their own.
                if !(has_lib && path == dir.join("bin")) {
                    pending.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                if has_lib && path == dir.join("main.rs") {
                    continue;
                }
                let relative = path.strip_prefix(dir)?.with_extension("");
                let mut module: Module = relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if matches!(
                    module.last().map(String::as_str),
                    Some("mod" | "lib" | "main")
                ) {
                    module.pop();
                }
                out.insert(module, std::fs::read_to_string(&path)?);
            }
        }
    }
    Ok(out)
}

/// The edges from each module to the non-descendant modules it names.
fn import_graph(sources: &BTreeMap<Module, String>) -> Result<BTreeMap<Module, BTreeSet<Module>>> {
    let code = sources
        .iter()
        .map(|(module, source)| {
            Ok((
                module,
                tokens(source).map_err(|e| anyhow::anyhow!("{module:?}: {e}"))?,
            ))
        })
        .collect::<Result<BTreeMap<&Module, Vec<String>>>>()?;
    let modules: Modules = code
        .iter()
        .map(|(m, c)| ((*m).clone(), reexports(c)))
        .collect();
    let mut graph = BTreeMap::new();
    for (module, code) in &code {
        let module = *module;
        let mut targets = BTreeSet::new();
        for written in paths(code) {
            let written_in = [module.as_slice(), &written.inline].concat();
            let Some(target) = resolve(&written.path, &written_in, &modules, 0) else {
                continue;
            };
            if !target.starts_with(module) {
                targets.insert(target);
            }
        }
        graph.insert(module.clone(), targets);
    }
    Ok(graph)
}

/// Every module, with the names it re-exports.
type Modules = BTreeMap<Module, BTreeMap<String, Vec<String>>>;

/// The deepest known module that `path`, written in `module`, leads into; a name that
/// a module re-exports leads where its `pub use` points.
fn resolve(path: &[String], module: &Module, modules: &Modules, depth: usize) -> Option<Module> {
    let mut segments = path.iter().peekable();
    let mut at: Module = match segments.peek().map(|s| s.as_str()) {
        Some("crate" | "$crate") => {
            segments.next();
            Vec::new()
        }
        Some("self" | "super") => module.clone(),
        // `child::x` names a child module of this one (2018 paths).
        Some(first) if modules.contains_key(&[module.as_slice(), &[first.to_owned()]].concat()) => {
            module.clone()
        }
        _ => return None,
    };
    while segments
        .peek()
        .is_some_and(|s| *s == "self" || *s == "super")
    {
        if segments.next().is_some_and(|s| s == "super") {
            at.pop()?;
        }
    }
    for segment in segments {
        let mut deeper = at.clone();
        deeper.push(segment.clone());
        if modules.contains_key(&deeper) {
            at = deeper;
            continue;
        }
        let reexported = modules.get(&at).and_then(|names| names.get(segment));
        if let Some(target) = reexported.filter(|_| depth < 8) {
            return resolve(target, &at, modules, depth + 1).or(Some(at));
        }
        break;
    }
    Some(at)
}

/// A path written in a file.
struct Written {
    /// The inline modules (`mod name { … }`) it is written in, outermost first.
    inline: Vec<String>,
    path: Vec<String>,
    /// The name it binds, when it is a leaf of a `pub use`.
    reexported_as: Option<String>,
}

/// Every path written in `code`: each `a::b::c` run, and each leaf of a `use` tree
/// (`use crate::{x::y, z}` gives `crate::x::y` and `crate::z`).
fn paths(tokens: &[String]) -> Vec<Written> {
    let mut out = Vec::new();
    // The open inline modules, each with the brace depth inside it.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i].as_str() {
            "use" => {
                let public = i > 0 && (tokens[i - 1] == "pub" || tokens[i - 1] == "·");
                i += 1;
                let mut leaves = Vec::new();
                use_tree(tokens, &mut i, Vec::new(), &mut leaves);
                out.extend(leaves.into_iter().map(|leaf| Written {
                    inline: names(&inline),
                    path: leaf.path,
                    reexported_as: public.then_some(leaf.name),
                }));
                continue;
            }
            "mod" if tokens.get(i + 2).is_some_and(|t| t == "{") => {
                depth += 1;
                inline.push((tokens[i + 1].clone(), depth));
                i += 3;
                continue;
            }
            "{" => depth += 1,
            "}" => {
                if inline.last().is_some_and(|(_, open)| *open == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
        if is_word(&tokens[i]) {
            let mut path = vec![tokens[i].clone()];
            while tokens.get(i + 1).is_some_and(|t| t == "::")
                && tokens.get(i + 2).is_some_and(|t| is_word(t))
            {
                path.push(tokens[i + 2].clone());
                i += 2;
            }
            if path.len() > 1 {
                out.push(Written {
                    inline: names(&inline),
                    path,
                    reexported_as: None,
                });
            }
        }
        i += 1;
    }
    out
}

/// The names of the open inline modules, outermost first.
fn names(inline: &[(String, usize)]) -> Vec<String> {
    inline.iter().map(|(name, _)| name.clone()).collect()
}

/// One leaf of a `use` tree: the path, and the name it binds (its alias or last segment).
struct UseLeaf {
    path: Vec<String>,
    name: String,
}

/// The names a module re-exports (`pub use a::B;`, `pub(crate) use c::D as E;`), each
/// with the path it stands for. Globs and re-exports inside inline modules bind no name
/// of the file's module, so they are left out.
fn reexports(tokens: &[String]) -> BTreeMap<String, Vec<String>> {
    paths(tokens)
        .into_iter()
        .filter(|written| written.inline.is_empty())
        .filter_map(|written| Some((written.reexported_as?, written.path)))
        .filter(|(name, _)| is_word(name))
        .collect()
}

/// Reads one use tree at `tokens[*i]`, adding its leaves (prefixed by `prefix`) to `out`.
fn use_tree(tokens: &[String], i: &mut usize, mut prefix: Vec<String>, out: &mut Vec<UseLeaf>) {
    while *i < tokens.len() {
        let token = &tokens[*i];
        *i += 1;
        match token.as_str() {
            "{" => {
                loop {
                    use_tree(tokens, i, prefix.clone(), out);
                    match tokens.get(*i).map(String::as_str) {
                        Some(",") => *i += 1,
                        Some("}") => {
                            *i += 1;
                            break;
                        }
                        _ => break,
                    }
                    if tokens.get(*i).is_some_and(|t| t == "}") {
                        *i += 1;
                        break;
                    }
                }
                return;
            }
            "::" => {}
            "as" => {
                let alias = tokens.get(*i).cloned().unwrap_or_default();
                *i += 1;
                out.push(UseLeaf {
                    path: prefix,
                    name: alias,
                });
                return;
            }
            "," | "}" | ";" => {
                *i -= 1;
                if token == ";" {
                    *i += 1;
                }
                let name = prefix.last().cloned().unwrap_or_default();
                out.push(UseLeaf { path: prefix, name });
                return;
            }
            word => prefix.push(word.to_owned()),
        }
    }
}

fn is_word(token: &str) -> bool {
    token
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        && !token.is_empty()
}

/// Words (identifiers, `$crate`) and the punctuation paths use: `::`, `{`, `}`, `,`, `;`;
/// any other token is `·`, which ends a path. proc-macro2 lexes the code as rustc does, so
/// comments, strings and char literals hold no words.
fn tokens(code: &str) -> Result<Vec<String>, proc_macro2::LexError> {
    let mut out = Vec::new();
    flatten(code.parse()?, &mut out);
    Ok(out)
}

fn flatten(stream: proc_macro2::TokenStream, out: &mut Vec<String>) {
    use proc_macro2::{Delimiter, Spacing, TokenTree};
    let mut trees = stream.into_iter().peekable();
    while let Some(tree) = trees.next() {
        match tree {
            TokenTree::Ident(ident) => match out.last_mut() {
                // `$crate`, in a macro's body: `$` then `crate`.
                Some(dollar) if dollar == "$" => dollar.push_str(&ident.to_string()),
                _ => out.push(ident.to_string()),
            },
            TokenTree::Punct(punct) => {
                let colons = punct.as_char() == ':'
                    && punct.spacing() == Spacing::Joint
                    && matches!(trees.peek(), Some(TokenTree::Punct(next)) if next.as_char() == ':');
                if colons {
                    trees.next();
                    out.push("::".to_owned());
                } else if matches!(punct.as_char(), ',' | ';' | '$') {
                    out.push(punct.as_char().to_string());
                } else {
                    out.push("·".to_owned());
                }
            }
            TokenTree::Group(group) => {
                let (open, close) = match group.delimiter() {
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::None => ("", ""),
                    _ => ("·", "·"),
                };
                if !open.is_empty() {
                    out.push(open.to_owned());
                }
                flatten(group.stream(), out);
                if !close.is_empty() {
                    out.push(close.to_owned());
                }
            }
            TokenTree::Literal(_) => out.push("·".to_owned()),
        }
    }
}

/// The strongly connected sets of two or more modules (Tarjan).
fn circles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct State<'a> {
        graph: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on_stack: BTreeSet<&'a Module>,
        out: Vec<Vec<Module>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a Module) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.graph.get(v).into_iter().flatten() {
            let Some((w, _)) = s.graph.get_key_value(w) else {
                continue;
            };
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.clone());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !state.index.contains_key(v) {
            visit(&mut state, v);
        }
    }
    state.out
}

fn display(module: &Module) -> String {
    if module.is_empty() {
        "crate".to_owned()
    } else {
        module.join("::")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> BTreeMap<Module, String> {
        files
            .iter()
            .map(|(module, source)| {
                let module = module
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect();
                (module, (*source).to_owned())
            })
            .collect()
    }

    #[test]
    fn a_sideways_import_each_way_is_a_circle() {
        let sources = tree(&[
            ("", "mod a; mod b;"),
            ("a", "use crate::b::{Thing, other::X};"),
            ("b", "pub mod other; fn f() { super::a::g() }"),
            (
                "b::other",
                "// use crate::a; in a comment is no import\nconst S: &str = \"crate::a::x\";",
            ),
        ]);
        let graph = import_graph(&sources).unwrap();
        assert_eq!(
            circles(&graph),
            vec![vec![vec!["a".to_owned()], vec!["b".to_owned()]]]
        );
    }

    #[test]
    fn naming_a_descendant_is_no_import_and_a_chain_is_no_circle() {
        let sources = tree(&[
            ("", "pub use a::Thing; mod a;"),
            (
                "a",
                "mod inner; pub use self::inner::Thing; use crate::b::B;",
            ),
            ("a::inner", "use super::super::b::B; use $crate::c;"),
            ("b", "use crate::c::C as D;"),
            ("c", ""),
        ]);
        let graph = import_graph(&sources).unwrap();
        assert!(circles(&graph).is_empty(), "{graph:?}");
        assert!(graph[&vec!["a".to_owned(), "inner".to_owned()]].contains(&vec!["b".to_owned()]));
        assert!(graph[&vec!["b".to_owned()]].contains(&vec!["c".to_owned()]));
        assert!(graph[&Vec::new()].is_empty());
    }

    #[test]
    fn super_inside_an_inline_module_means_the_file_module() {
        let sources = tree(&[
            ("", "mod config; mod tfl;"),
            (
                "config",
                "mod tfl; pub mod env { pub use super::tfl::env::*; }\n\
                 #[cfg(test)] mod tests { use super::*; }",
            ),
            ("config::tfl", "pub mod env {}"),
            ("tfl", "use crate::config::Config;"),
        ]);
        let graph = import_graph(&sources).unwrap();
        assert!(circles(&graph).is_empty(), "{graph:?}");
        assert!(graph[&vec!["config".to_owned()]].is_empty(), "{graph:?}");
    }

    #[test]
    fn no_crate_has_a_circle() {
        let sh = crate::shell::workspace().unwrap();
        report(&sh).unwrap();
    }
}
