//! What every fuzz body shares: one runtime, the time budget of a call, a scratch directory,
//! and the contract check of an answer.

use std::collections::HashMap;
use std::future::Future;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::Value;

use crate::catalog::{Catalog, ToolResult};

/// How long one input may take: past it, the input hangs us and the target fails.
pub(crate) const BUDGET: Duration = Duration::from_secs(10);

/// Runs `future` to completion on the fuzz bodies' runtime.
pub(crate) fn block_on<F: Future>(future: F) -> F::Output {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
                .expect("a tokio runtime")
        })
        .block_on(future)
}

/// Runs `future` within [`BUDGET`]; a longer one is a hang, reported as `what`.
pub(crate) fn within_budget<F: Future>(what: &str, future: F) -> F::Output {
    block_on(async {
        tokio::time::timeout(BUDGET, future)
            .await
            .unwrap_or_else(|_| panic!("{what}: no answer within {BUDGET:?}"))
    })
}

/// A directory of this process's own for what the bodies write (loko projects, saved
/// places), created once.
pub(crate) fn scratch() -> &'static PathBuf {
    static SCRATCH: OnceLock<PathBuf> = OnceLock::new();
    SCRATCH.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("toolpack-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        dir
    })
}

/// Fails unless `answer` is in `tool`'s contract shape (its output schema) and is not the
/// answer to a panic caught inside the call.
pub(crate) fn check_answer(tool: &str, arguments: &Value, answer: &ToolResult) {
    static VALIDATORS: OnceLock<HashMap<&'static str, jsonschema::Validator>> = OnceLock::new();
    let validators = VALIDATORS.get_or_init(|| {
        Catalog::get()
            .entries()
            .iter()
            .map(|entry| {
                let schema = Value::Object((*entry.output_schema).clone());
                let validator = jsonschema::validator_for(&schema).expect("an output schema");
                (entry.spec.name, validator)
            })
            .collect()
    });
    // A panic caught inside the call is answered as the family's internal error with an
    // "Unexpected error …" message (`Output::internal_error`); an internal error the tool
    // chose (loko's "d2 not found") says what it is. Under libFuzzer a panic aborts anyway.
    let code = answer.error_code.as_deref().unwrap_or_default();
    let internal = code.eq_ignore_ascii_case("INTERNAL_ERROR") || code == "internal-error";
    assert!(
        !(internal && answer.body.to_string().contains("\"Unexpected error")),
        "{tool} panicked on {arguments}: {}",
        answer.body
    );
    if let Some(validator) = validators.get(tool)
        && let Err(error) = validator.validate(&answer.body)
    {
        panic!(
            "{tool}: off-contract answer to {arguments}: {error}\n{}",
            answer.body
        );
    }
}
