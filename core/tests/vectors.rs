//! Runs every shared test vector through the core catalog (`Toolpack::call_json`).

use toolpack::{Config, Toolpack};
use toolpack_testkit::vectors;

#[tokio::test]
async fn every_vector_passes_through_the_catalog() {
    vectors::run_all(|tool_case, settings| async move {
        let config = Config::from_pairs(settings).expect("valid vector config");
        let toolpack = Toolpack::new(config).unwrap();
        let (tool, arguments) = (&tool_case.tool, &tool_case.case.arguments);
        for _ in 0..tool_case.case.calls_before {
            toolpack.call_json(tool, arguments.clone()).await.unwrap();
        }
        let result = toolpack.call_json(tool, arguments.clone()).await.unwrap();
        Some((result.is_error(), result.body))
    })
    .await;
}
