//! loko speed on a generated 1,001-entity project (1 system × 20 containers × 49
//! components, one diagram each): `query_architecture` full detail on the system (JSON
//! and TOON) and `validate` (d2 answers cached, as on every call after the first), each
//! beside just reading the project's files, interleaved in the same run. Also prints the
//! cold `validate` (every diagram checked by d2) once, and the TOON token saving.
//! Run: `cargo bench -p toolpack --bench loko` (d2 on PATH or D2_BIN).

mod support;

use std::time::Instant;

use serde_json::json;
use toolpack::{Config, Toolpack};
use toolpack_testkit::loko_project::{Shape, generate, read_all};

fn main() {
    let rounds = if support::rounds() == support::ROUNDS {
        300
    } else {
        5
    };
    let runtime = support::runtime();
    let dir = tempfile::tempdir().unwrap();
    let shape = Shape {
        systems: 1,
        containers: 20,
        components: 49,
    };
    generate(dir.path(), shape).unwrap();
    let p = dir.path().to_str().unwrap().to_owned();
    let toolpack = Toolpack::new(Config::builder().build()).unwrap();
    let call = |tool: &str, arguments: serde_json::Value| {
        let result = runtime
            .block_on(toolpack.call_json(tool, arguments))
            .unwrap();
        assert!(!result.is_error(), "{tool}: {}", result.body);
        result.body
    };
    let full =
        json!({"project_path": p, "scope": "system", "target": "system-0", "detail": "full"});
    let full_toon = json!({"project_path": p, "scope": "system", "target": "system-0", "detail": "full", "format": "toon"});
    let validate = json!({"project_path": p});

    let started = Instant::now();
    let report = call("validate", validate.clone());
    let cold = started.elapsed();
    assert_eq!(report["validation"]["errors"], json!([]), "{report}");
    println!(
        "validate, cold (all {} diagrams checked by d2, {} in parallel): {:.0} ms",
        shape.diagrams(),
        std::thread::available_parallelism().map_or(2, |n| n.get()),
        cold.as_secs_f64() * 1e3
    );

    let mut laps = support::Laps::new(
        &[
            "read every file",
            "query_architecture full",
            "query_architecture full toon",
            "validate (d2 cached)",
        ],
        rounds,
    );
    for round in 0..laps.total_rounds(rounds) {
        let mut marks = vec![Instant::now()];
        std::hint::black_box(read_all(dir.path()));
        marks.push(Instant::now());
        std::hint::black_box(call("query_architecture", full.clone()));
        marks.push(Instant::now());
        std::hint::black_box(call("query_architecture", full_toon.clone()));
        marks.push(Instant::now());
        std::hint::black_box(call("validate", validate.clone()));
        marks.push(Instant::now());
        laps.record(round, &marks);
    }
    laps.report(&format!(
        "loko on a generated {}-entity project",
        shape.entities()
    ));

    let bpe = tiktoken_rs::o200k_base().unwrap();
    let tokens = |t: &str| bpe.encode_with_special_tokens(t).len();
    // Compact JSON of the answer against its TOON text, in o200k tokens.
    let compare = |args: serde_json::Value| {
        let mut toon_args = args.clone();
        toon_args["format"] = json!("toon");
        let json_tokens =
            tokens(&serde_json::to_string(&call("query_architecture", args)).unwrap());
        let toon = call("query_architecture", toon_args);
        (json_tokens, tokens(toon["toon"].as_str().unwrap()))
    };
    let change = |(j, t): (usize, usize)| 100.0 * (t as f64 / j as f64 - 1.0);
    let saving = |pair: (usize, usize)| {
        format!(
            "JSON {} tokens, TOON {} tokens: {:+.0}%",
            pair.0,
            pair.1,
            change(pair)
        )
    };
    // What the TOON layout holds to (docs/loko.md): on the generated system at least 25 %
    // fewer tokens in full detail and 22 % in structure (its `id, name` rows are at TOON's
    // floor), and never more than JSON on the example project.
    for (detail, at_most) in [("summary", 5.0), ("structure", -22.0), ("full", -25.0)] {
        let pair = compare(
            json!({"project_path": p, "scope": "system", "target": "system-0", "detail": detail}),
        );
        println!("generated system, {detail}: {}", saving(pair));
        assert!(change(pair) <= at_most, "TOON {detail}: {}", saving(pair));
    }
    let example = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/loko/shop");
    let example = example.to_str().unwrap();
    let mut total = (0, 0);
    for detail in ["summary", "structure", "full"] {
        let mut sum = (0, 0);
        for (scope, target) in [
            ("project", None),
            ("system", Some("online-shop")),
            ("system", Some("payments")),
            ("container", Some("online-shop/api")),
        ] {
            if target.is_none() && detail == "full" {
                continue;
            }
            let (j, t) = compare(
                json!({"project_path": example, "scope": scope, "target": target, "detail": detail}),
            );
            sum = (sum.0 + j, sum.1 + t);
        }
        println!("examples/loko/shop, every {detail} query: {}", saving(sum));
        total = (total.0 + sum.0, total.1 + sum.1);
    }
    println!("examples/loko/shop, all 11 queries: {}", saving(total));
    assert!(total.1 <= total.0, "TOON on the example: {}", saving(total));
}
