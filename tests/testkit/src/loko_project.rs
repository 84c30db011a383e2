//! A generator of synthetic loko projects: `systems` × `containers` × `components`,
//! laid out as real projects are (`loko.toml`, `system.md`, `container.md`,
//! `component.md` with frontmatter, a D2 diagram beside each), with component
//! relationships (each component calls the next one in its container, and the first
//! component of each container calls the first of the next container): no cycles.

use std::path::Path;

/// The shape of a generated project.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Systems.
    pub systems: usize,
    /// Containers per system.
    pub containers: usize,
    /// Components per container.
    pub components: usize,
}

impl Shape {
    /// How many entities (systems, containers and components) the project has.
    pub fn entities(&self) -> usize {
        self.systems * (1 + self.containers * (1 + self.components))
    }

    /// How many diagrams (one per entity).
    pub fn diagrams(&self) -> usize {
        self.entities()
    }
}

fn write(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, text)
}

/// Writes a project of `shape` into `dir` (which should be empty).
pub fn generate(dir: &Path, shape: Shape) -> std::io::Result<()> {
    generate_with(dir, shape, true)
}

/// Writes a project of `shape` into `dir` whose relationships are all in each system's
/// `relationships.toml`, as loko v0.3 writes them (qualified paths, so loko reads the same
/// graph): component `k` of container `c` of system `s` calls component `k+1` of its
/// container, component `k` of container `c+1`, and component `k` of container `c` of
/// system `s+1` (each wrapping around): 3 per component. Answers how many it wrote.
pub fn generate_graph(dir: &Path, shape: Shape) -> std::io::Result<usize> {
    generate_with(dir, shape, false)?;
    let mut total = 0;
    for s in 0..shape.systems {
        let mut toml = String::new();
        for c in 0..shape.containers {
            for k in 0..shape.components {
                let source = format!("system-{s}/container-{c}/component-{k}");
                let targets = [
                    (s, c, (k + 1) % shape.components, "calls"),
                    (s, (c + 1) % shape.containers, k, "hands over to"),
                    ((s + 1) % shape.systems, c, k, "reports to"),
                ];
                for (ts, tc, tk, label) in targets {
                    let target = format!("system-{ts}/container-{tc}/component-{tk}");
                    if target == source {
                        continue;
                    }
                    toml.push_str(&format!(
                        "[[relationships]]\nid = \"g{total:07}\"\nsource = \"{source}\"\ntarget = \"{target}\"\nlabel = \"{label}\"\ntype = \"sync\"\ndirection = \"forward\"\n\n"
                    ));
                    total += 1;
                }
            }
        }
        write(
            &dir.join(format!("src/system-{s}/relationships.toml")),
            &toml,
        )?;
    }
    Ok(total)
}

fn generate_with(dir: &Path, shape: Shape, frontmatter_relationships: bool) -> std::io::Result<()> {
    write(
        &dir.join("loko.toml"),
        "[project]\nname = \"generated\"\ndescription = \"A generated project\"\nversion = \"1.0.0\"\n\n[d2]\ntheme = \"neutral-default\"\nlayout = \"elk\"\n",
    )?;
    for s in 0..shape.systems {
        let sys = format!("system-{s}");
        let sdir = dir.join("src").join(&sys);
        let container_ids: Vec<String> = (0..shape.containers)
            .map(|c| format!("container-{c}"))
            .collect();
        write(
            &sdir.join("system.md"),
            &format!(
                "---\nname: System {s}\ndescription: Generated system {s}\ntags: [generated]\n---\n\n# System {s}\n\nContainers: {}\n",
                container_ids.join(", ")
            ),
        )?;
        let shapes: String = container_ids
            .iter()
            .map(|c| format!("{c}: \"{c}\"\n"))
            .collect();
        write(
            &sdir.join("system.d2"),
            &format!("# {sys}\ndirection: right\n{shapes}"),
        )?;
        for (c, cont) in container_ids.iter().enumerate() {
            let cdir = sdir.join(cont);
            write(
                &cdir.join("container.md"),
                &format!(
                    "---\nname: Container {c}\ndescription: Generated container {c} of system {s}\ntechnology: Rust\n---\n\n# Container {c}\n"
                ),
            )?;
            write(
                &cdir.join("container.d2"),
                &format!("{cont}: \"Container {c} of {sys}\" {{\n  style.fill: \"#E1F5FE\"\n}}\n"),
            )?;
            for k in 0..shape.components {
                let comp = format!("component-{k}");
                let mut relationships = String::new();
                if k + 1 < shape.components {
                    relationships.push_str(&format!("  component-{}: \"calls\"\n", k + 1));
                }
                if k == 0 && c + 1 < shape.containers {
                    relationships.push_str(&format!(
                        "  \"{sys}/container-{}/component-0\": \"hands over to\"\n",
                        c + 1
                    ));
                }
                let relationships = if relationships.is_empty() || !frontmatter_relationships {
                    String::new()
                } else {
                    format!("relationships:\n{relationships}")
                };
                write(
                    &cdir.join(&comp).join("component.md"),
                    &format!(
                        "---\nid: {comp}\nname: Component {k}\ndescription: Generated component {k}\ntechnology: Rust\ntags: [generated, level-3]\n{relationships}---\n\n# Component {k}\n"
                    ),
                )?;
                write(
                    &cdir.join(&comp).join("component.d2"),
                    &format!("{comp}: \"Component {k} of {sys}/{cont}\"\n"),
                )?;
            }
        }
    }
    Ok(())
}

/// Reads every file under `dir` (what loading a project must at least do); the byte count.
pub fn read_all(dir: &Path) -> u64 {
    let mut bytes = 0;
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(data) = std::fs::read(&path) {
                bytes += data.len() as u64;
            }
        }
    }
    bytes
}

/// Every file under `dir`: its path relative to `dir` (with `/`) and its full path, sorted.
pub fn files(dir: &Path) -> Vec<(String, std::path::PathBuf)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(rel) = path.strip_prefix(dir) {
                let rel = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/");
                out.push((rel, path));
            }
        }
    }
    out.sort();
    out
}

/// Copies the directory `from` (a fixture project) into `to`, recursively.
pub fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)?.flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}

/// Every file under `dir` with its bytes (to show that nothing changed).
pub fn snapshot(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    files(dir)
        .into_iter()
        .map(|(rel, path)| (rel, std::fs::read(path).unwrap_or_default()))
        .collect()
}
