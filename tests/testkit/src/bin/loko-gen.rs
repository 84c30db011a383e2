//! `loko-gen <dir> <systems> <containers> <components>`: writes a synthetic loko
//! project (see `toolpack_testkit::loko_project`) for tests and benchmarks in any language.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage =
        "usage: loko-gen <dir> <systems> <containers-per-system> <components-per-container>";
    let [dir, systems, containers, components] = args.as_slice() else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let number = |s: &str| {
        s.parse::<usize>().unwrap_or_else(|_| {
            eprintln!("{usage}");
            std::process::exit(2)
        })
    };
    let shape = toolpack_testkit::loko_project::Shape {
        systems: number(systems),
        containers: number(containers),
        components: number(components),
    };
    if let Err(e) = toolpack_testkit::loko_project::generate(std::path::Path::new(dir), shape) {
        eprintln!("loko-gen: {e}");
        std::process::exit(1);
    }
    println!(
        "{} entities, {} diagrams in {dir}",
        shape.entities(),
        shape.diagrams()
    );
}
