//! A property test over the whole catalog: for every tool, thousands of generated
//! argument values (random JSON of every type and size, deep nesting, huge strings,
//! unicode edge cases, and mutations of the shared vectors' valid arguments) each get a
//! contract-shaped answer that validates against the tool's output schema: never a panic
//! (which would surface as the internal error), never a hang past a deadline.
//! Seeded: a failure prints its seed and the arguments, and reproduces. `PROPERTY_CASES`
//! raises the number of cases per tool for a longer run.

use std::time::Duration;

use serde_json::{Map, Value, json};
use toolpack::{Catalog, Config, Toolpack};
use toolpack_testkit::{FakeUpstream, vectors};

/// Generated arguments over the whole catalog, shared evenly between its tools, unless
/// `PROPERTY_CASES` sets the number per tool (coverage-guided depth is the fuzz targets'
/// job; this is the breadth over every tool, kept to under a minute of the test command
/// however many tools the catalog has). 16,000 was about 430 a tool at 37 tools.
const TOTAL_CASES: usize = 16_000;
/// However large the catalog grows, each tool gets at least this many.
const MIN_CASES_PER_TOOL: usize = 200;
/// The longest any one call may take (the upstream timeout is 1 s).
const DEADLINE: Duration = Duration::from_secs(5);

const WEIRD_STRINGS: &[&str] = &[
    "",
    " ",
    "\u{0}",
    "\u{7}bell",
    "é\u{301}",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    "🚇🚋🚆",
    "\u{202e}reversed",
    "\u{feff}bom",
    "../../etc/passwd",
    "%00%2F%2e%2e",
    "null",
    "1e309",
    "HSL:2434202",
    "Kings Cross",
    "kamppi",
    "line\nbreak",
    "\"quoted\"",
    "<script>",
];

struct Gen(fastrand::Rng);

impl Gen {
    fn string(&mut self) -> String {
        match self.0.u8(0..6) {
            0 => WEIRD_STRINGS[self.0.usize(..WEIRD_STRINGS.len())].to_owned(),
            1 => "x".repeat(self.0.usize(0..70_000)),
            2 => (0..self.0.usize(0..40))
                .map(|_| char::from_u32(self.0.u32(1..0x2_FFFF)).unwrap_or('?'))
                .collect(),
            _ => (0..self.0.usize(0..20))
                .map(|_| self.0.alphanumeric())
                .collect(),
        }
    }

    fn number(&mut self) -> Value {
        match self.0.u8(0..7) {
            0 => json!(0),
            1 => json!(-1),
            2 => json!(i64::MAX),
            3 => json!(i64::MIN),
            4 => json!(self.0.f64() * 400.0 - 200.0),
            5 => json!(1e300),
            _ => json!(self.0.i64(-5..50)),
        }
    }

    fn value(&mut self, depth: u32) -> Value {
        let pick = if depth > 40 {
            self.0.u8(0..4)
        } else {
            self.0.u8(0..7)
        };
        match pick {
            0 => Value::Null,
            1 => Value::Bool(self.0.bool()),
            2 => self.number(),
            3 => Value::String(self.string()),
            4 => Value::Array(
                (0..self.0.usize(0..5))
                    .map(|_| self.value(depth + 1))
                    .collect(),
            ),
            5 => self.nested(depth),
            _ => Value::Object(
                (0..self.0.usize(0..5))
                    .map(|_| (self.string(), self.value(depth + 1)))
                    .collect(),
            ),
        }
    }

    /// Deep nesting: an array or object chain up to 120 levels deep.
    fn nested(&mut self, depth: u32) -> Value {
        let levels = self.0.usize(1..120);
        let mut value = self.value(depth + 5);
        // Each level moves the value inside: `json!` would copy it (through `to_value`)
        // at every level, which made this test spend three quarters of its time copying.
        for i in 0..levels {
            value = if i % 2 == 0 {
                Value::Array(vec![value])
            } else {
                Value::Object(Map::from_iter([("k".to_owned(), value)]))
            };
        }
        value
    }

    /// A mutation of valid `arguments`: a field dropped, retyped, replaced or added.
    fn mutate(&mut self, arguments: &Value) -> Value {
        let Value::Object(map) = arguments else {
            return self.value(0);
        };
        let mut map: Map<String, Value> = map.clone();
        for _ in 0..self.0.usize(1..4) {
            let keys: Vec<String> = map.keys().cloned().collect();
            match (self.0.u8(0..4), keys.is_empty()) {
                (0, false) => {
                    map.remove(&keys[self.0.usize(..keys.len())]);
                }
                (1, false) => {
                    let key = keys[self.0.usize(..keys.len())].clone();
                    let mutated = match &map[&key] {
                        Value::Object(_) => self.mutate(&map[&key]),
                        _ => self.value(0),
                    };
                    map.insert(key, mutated);
                }
                (2, false) => {
                    let key = keys[self.0.usize(..keys.len())].clone();
                    let replacement = Value::String(self.string());
                    map.insert(key, replacement);
                }
                _ => {
                    map.insert(self.string(), self.value(0));
                }
            }
        }
        Value::Object(map)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_tool_answers_every_generated_argument_in_contract_shape() {
    let fake = FakeUpstream::start(&toolpack_testkit::default_fixtures_dir())
        .await
        .unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    // loko tools may only touch projects inside the temporary directory, whatever
    // `project_path` the generator comes up with.
    let loko_root = tempfile::tempdir().unwrap();
    let config = Config::builder()
        .loko_allowed_roots([loko_root.path().to_owned()])
        .tfl_api_base_url(fake.base_url())
        .tfl_api_key("property-key")
        .digitransit_base_url(fake.base_url())
        .digitransit_api_key("property-key")
        .digitransit_router(toolpack::config::DigitransitRouter::Hsl)
        .data_dir(data_dir.path())
        .upstream_timeout(Duration::from_secs(1))
        .default_rate_limit(0)
        .build();
    let toolpack = Toolpack::new(config).unwrap();
    let seeds: Vec<(String, Value)> = vectors::load_all()
        .into_iter()
        .map(|c| (c.tool, c.case.arguments))
        .collect();
    let seed = std::env::var("PROPERTY_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_7001_u64);
    let cases = std::env::var("PROPERTY_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or((TOTAL_CASES / Catalog::get().entries().len()).max(MIN_CASES_PER_TOOL));
    let mut generate = Gen(fastrand::Rng::with_seed(seed));
    let mut calls = 0;
    for entry in Catalog::get().entries() {
        let tool = entry.spec.name;
        let valid: Vec<&Value> = seeds
            .iter()
            .filter(|(t, _)| t == tool)
            .map(|(_, a)| a)
            .collect();
        let schema = Value::Object((*entry.output_schema).clone());
        let validator = jsonschema::validator_for(&schema).unwrap();
        for case in 0..cases {
            let arguments = if case % 2 == 0 && !valid.is_empty() {
                generate.mutate(valid[case % valid.len()])
            } else {
                generate.value(0)
            };
            let shown = || {
                let text = arguments.to_string();
                text.chars().take(300).collect::<String>()
            };
            let answer =
                tokio::time::timeout(DEADLINE, toolpack.call_json(tool, arguments.clone()))
                    .await
                    .unwrap_or_else(|_| {
                        panic!("{tool} hung (seed {seed}, case {case}): {}", shown())
                    })
                    .expect("catalog tool");
            if let Err(error) = validator.validate(&answer.body) {
                panic!(
                    "{tool}: off-contract answer (seed {seed}, case {case}): {error}\n  args: {}\n  answer: {}",
                    shown(),
                    answer.body
                );
            }
            let code = answer.error_code.as_deref().unwrap_or("");
            assert!(
                !code.eq_ignore_ascii_case("INTERNAL_ERROR") && code != "internal-error",
                "{tool} panicked (seed {seed}, case {case}): {}",
                shown()
            );
            calls += 1;
        }
        fake.clear_requests();
    }
    assert_eq!(calls, cases * Catalog::get().entries().len());
}
