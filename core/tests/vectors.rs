//! Runs every shared test vector through the core catalog (`Toolpack::call_json`).

use toolpack::{Config, Toolpack};
use toolpack_testkit::{FakeUpstream, default_fixtures_dir, vectors};

#[tokio::test]
async fn every_vector_passes_through_the_catalog() {
    let fake = FakeUpstream::start(&default_fixtures_dir()).await.unwrap();
    let cases = vectors::load_all();
    let mut failures = Vec::new();
    for tool_case in &cases {
        let case = &tool_case.case;
        fake.clear_scenarios();
        case.upstream.iter().cloned().for_each(|s| fake.push_scenario(s));
        let config = Config::from_pairs(case.settings(&fake.base_url())).expect("valid vector config");
        let toolpack = Toolpack::new(config).unwrap();
        for _ in 0..case.calls_before {
            toolpack.call_json(&tool_case.tool, case.arguments.clone()).await.unwrap();
        }
        let result = toolpack.call_json(&tool_case.tool, case.arguments.clone()).await.unwrap();
        if let Err(problem) = case.expect.check(result.is_error(), &result.body) {
            failures.push(format!("{}\n  {problem}", tool_case.label()));
        }
    }
    assert!(failures.is_empty(), "{} of {} vectors failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
    println!("{} vectors passed", cases.len());
}
