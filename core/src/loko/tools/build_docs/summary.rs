//! The last step of a build: what it made, in the contract's answer.

use std::time::Duration;

use super::diagrams::Rendered;
use super::plan::Plan;
use super::write::Written;
use super::{BuildDocsResult, BuildInfo};

/// The answer of a build that planned `plan`, rendered `rendered` and wrote `written`
/// in `took`.
pub(super) fn summarise(
    plan: &Plan,
    rendered: &Rendered,
    written: &Written,
    took: Duration,
) -> BuildDocsResult {
    let formats = plan.formats;
    let printed = plan.chromium.is_some();
    let made: Vec<&str> = [
        (formats.html, "HTML"),
        (formats.markdown, "Markdown"),
        (formats.pdf && printed, "PDF"),
    ]
    .into_iter()
    .filter_map(|(made, name)| made.then_some(name))
    .collect();
    let mut message = if made.is_empty() {
        "Build complete".to_owned()
    } else {
        format!("Build complete: {} generated", made.join(", "))
    };
    if formats.pdf && !printed {
        message
            .push_str(" (PDF skipped - chromium not found; install Chromium or set CHROMIUM_BIN)");
    }
    if written.generated == 0 {
        message.push_str("; nothing changed since the last build");
    }
    BuildDocsResult {
        success: true,
        build: BuildInfo {
            output_dir: format!("{}/", plan.output_rel),
            duration_ms: took.as_millis() as u64,
            files_generated: written.generated,
            diagrams_rendered: rendered.rendered,
            cache_hits: rendered.cache_hits,
            files_total: written.total,
        },
        message,
    }
}
