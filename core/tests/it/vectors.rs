//! Runs every shared test vector through the core catalog (`Toolpack::call_json`),
//! and checks every answer, success or error, against the tool's output schema.

use serde_json::Value;
use toolpack::{Caller, Catalog, Config, Scopes, Toolpack};
use toolpack_testkit::vectors;

fn assert_matches_output_schema(tool: &str, body: &Value) {
    let entry = Catalog::get()
        .find(tool)
        .expect("vector names a catalog tool");
    let schema = Value::Object((*entry.output_schema).clone());
    let validator = jsonschema::validator_for(&schema).expect("output schema compiles");
    if let Err(error) = validator.validate(body) {
        panic!("{tool}: answer does not match its output schema: {error}\n  {body}");
    }
}

/// Runs one vector case through the catalog on a toolpack built from `settings`, with
/// PostgreSQL to open a database URL (as the server has).
async fn run_case(
    tool_case: vectors::ToolCase,
    settings: std::collections::BTreeMap<String, String>,
) -> Option<(bool, Value)> {
    let config = Config::from_pairs(settings)
        .expect("valid vector config")
        .to_builder()
        .database(toolpack_postgres::engine())
        .build();
    let local = Toolpack::new(config).unwrap();
    let acting_for = |caller: &Option<String>| match caller {
        Some(id) => local.for_caller(Caller::new(id, Scopes::ALL).unwrap()),
        None => local.clone(),
    };
    let (tool, arguments) = (&tool_case.tool, &tool_case.case.arguments);
    for setup in &tool_case.case.before {
        let result = acting_for(&setup.caller)
            .call_json(&setup.tool, setup.arguments.clone())
            .await
            .unwrap();
        assert!(!result.is_error(), "setup call {setup:?}: {result:?}");
    }
    let toolpack = acting_for(&tool_case.case.caller);
    for _ in 0..tool_case.case.calls_before {
        toolpack.call_json(tool, arguments.clone()).await.unwrap();
    }
    let result = toolpack.call_json(tool, arguments.clone()).await.unwrap();
    assert_matches_output_schema(tool, &result.body);
    if !result.is_error() {
        crate::answer_budget::note(tool, &tool_case.case.name, arguments, &result.body);
        crate::answer_words::note(tool, &tool_case.case.name, &result.body);
    }
    Some((result.is_error(), result.body))
}

/// Every vector, every transit tool's default answer within its budget (`answer_budget`),
/// and its message saying what it answers (`answer_words`).
#[tokio::test]
async fn every_vector_passes_through_the_catalog() {
    vectors::run_all(run_case).await;
    crate::answer_budget::check();
    crate::answer_words::check();
}

/// The saved-place vectors again, on the PostgreSQL store (a fresh database per case of
/// a real throwaway server): both stores behave the same.
#[tokio::test]
async fn every_saved_place_vector_passes_on_postgresql() {
    let Some(cluster) = toolpack_testkit::postgres::PgCluster::start() else {
        return;
    };
    vectors::run_store_cases_on(|| cluster.create_database(), run_case).await;
}

#[test]
fn the_schema_check_rejects_an_off_contract_answer() {
    let off_contract = serde_json::json!({"success": true, "code": "FINE", "message": "x"});
    let caught =
        std::panic::catch_unwind(|| assert_matches_output_schema("stationToilets", &off_contract));
    assert!(caught.is_err());
}
