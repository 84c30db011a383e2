//! What counts as an answer in a counted run.

use serde_json::Value;

/// What `read_view` reads (`resources/read`): the toilets page, ~330 KB.
pub(crate) const VIEW: &str = "ui://toolpack/toilets";

/// Fails unless `answer` is a tool's result that is no error, or the view's page.
pub(crate) fn assert_answered(scenario: &str, answer: &Value) {
    let result = &answer["result"];
    let answered = result["isError"] == false || result["contents"][0]["uri"] == VIEW;
    assert!(answered, "{scenario}: {answer}");
}
