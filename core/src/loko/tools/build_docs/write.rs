//! The write step of a build: the new output is staged next to the current one on the
//! blocking pool (unchanged files linked, not rewritten; nothing at all when nothing
//! changed), the PDF is printed from the staged page, then the staging directory is
//! swapped in (see [`super::output`]).

use std::path::{Path, PathBuf};

use super::output::{self, Manifest, Staging, hash};
use super::{Formats, PDF_FILE, PRINT_PAGE, pdf};
use crate::loko::project::fence;
use crate::loko::response::Failure;
use crate::loko::tools::project_tool::blocking;
use crate::report;

/// What a build wrote.
pub(super) struct Written {
    /// Files written (not linked from the previous output).
    pub generated: u32,
    /// Files in the output.
    pub total: u32,
}

/// The output staged, waiting for its PDF and the swap.
struct Staged {
    staging: Staging,
    manifest: Manifest,
    generated: u32,
    total: u32,
    /// The previous PDF still fits and was linked.
    pdf_kept: bool,
}

/// Writes `files` as the new output of `output`. File work runs on the blocking pool,
/// with the call's progress reports carried along.
pub(super) async fn write_output(
    output: PathBuf,
    files: Vec<(String, Vec<u8>)>,
    formats: Formats,
    incremental: bool,
    chromium: Option<PathBuf>,
    progress: (f64, f64),
) -> Result<Written, Failure> {
    let prints = chromium.is_some();
    let staged = blocking(report::carried(move || {
        stage(&output, &files, formats, incremental, prints, progress)
    }))
    .await?;
    let Ok(mut staged) = staged else {
        return Ok(Written {
            generated: 0,
            total: staged.err().unwrap_or_default(),
        });
    };
    if let Some(chromium) = chromium
        && !staged.pdf_kept
    {
        let dir = &staged.staging.dir;
        if let Err(failure) =
            pdf::print(&chromium, &dir.join(PRINT_PAGE), &dir.join(PDF_FILE)).await
        {
            // The staged output is removed on the blocking pool, not on this thread.
            let _ = blocking(move || {
                drop(staged);
                Ok(())
            })
            .await;
            return Err(failure);
        }
        staged.generated += 1;
    }
    blocking(move || {
        let text = serde_json::to_vec_pretty(&staged.manifest)
            .map_err(|e| Failure::internal(e.to_string()))?;
        staged.staging.put(output::MANIFEST, &text, false)?;
        staged.staging.commit()?;
        Ok(Written {
            generated: staged.generated,
            total: staged.total,
        })
    })
    .await
}

/// Stages the new output; `Err(total)` when every file is up to date and nothing was
/// staged.
fn stage(
    output: &Path,
    files: &[(String, Vec<u8>)],
    formats: Formats,
    incremental: bool,
    prints: bool,
    (mut step, progress_total): (f64, f64),
) -> Result<Result<Staged, u32>, Failure> {
    let previous = Manifest::read(output).unwrap_or_default();
    let mut manifest = Manifest::default();
    for (path, bytes) in files {
        manifest.files.insert(path.clone(), hash(bytes));
    }
    // The PDF is keyed by the page it is printed from.
    if prints && let Some(page) = manifest.files.get(PRINT_PAGE).cloned() {
        manifest.files.insert(PDF_FILE.to_owned(), page);
    }
    let kept: Vec<String> = previous
        .files
        .keys()
        .filter(|p| !formats.makes(p) && !manifest.files.contains_key(*p))
        .filter(|p| fence::is_file(&output.join(p)))
        .cloned()
        .collect();
    for path in &kept {
        manifest
            .files
            .insert(path.clone(), previous.files[path].clone());
    }
    let total = manifest.files.len() as u32;
    let same = |path: &str| {
        incremental
            && previous.files.get(path) == manifest.files.get(path)
            && fence::is_file(&output.join(path))
    };
    if manifest.files.keys().all(|p| same(p)) && previous.files.len() == manifest.files.len() {
        report::progress(
            progress_total,
            Some(progress_total),
            Some("every page is up to date".to_owned()),
        );
        return Ok(Err(total));
    }
    let staging = Staging::new(output)?;
    let mut generated = 0;
    for (path, bytes) in files {
        if staging.put(path, bytes, same(path))? {
            generated += 1;
        }
        if path.ends_with(".html") || path.ends_with(".md") {
            step += 1.0;
            report::progress(step, Some(progress_total), Some(format!("page {path}")));
        }
    }
    for path in &kept {
        staging.keep(path)?;
    }
    let pdf_kept = prints && same(PDF_FILE) && staging.link(&output.join(PDF_FILE), PDF_FILE);
    Ok(Ok(Staged {
        staging,
        manifest,
        generated,
        total,
        pdf_kept,
    }))
}
