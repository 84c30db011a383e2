//! The PDF: headless Chromium (`CHROMIUM_BIN`, else `chromium`, `chromium-browser`,
//! `google-chrome` on `PATH`) prints the build's print page, every system from a new page.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use crate::loko::response::Failure;

/// The longest a PDF print may take.
pub const PRINT_TIMEOUT: Duration = Duration::from_secs(120);

/// Prints `page` (an HTML file) to `pdf` with `chromium`.
pub async fn print(chromium: &Path, page: &Path, pdf: &Path) -> Result<(), Failure> {
    let profile = std::env::temp_dir().join(format!(
        "toolpack-chromium-{}-{:016x}",
        std::process::id(),
        fastrand::u64(..)
    ));
    let mut url = String::from("file://");
    url.push_str(&page.to_string_lossy());
    let output = tokio::time::timeout(
        PRINT_TIMEOUT,
        tokio::process::Command::new(chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-pdf-header-footer",
                "--no-first-run",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(format!("--print-to-pdf={}", pdf.display()))
            .arg(url)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .output(),
    )
    .await;
    let _ = tokio::fs::remove_dir_all(&profile).await;
    let output = output
        .map_err(|_| {
            Failure::internal("Failed to print the PDF").details("Chromium did not finish in time")
        })?
        .map_err(|e| Failure::internal("Failed to print the PDF").details(e.to_string()))?;
    let printed = tokio::fs::metadata(pdf).await.is_ok_and(|m| m.is_file());
    if output.status.success() && printed {
        Ok(())
    } else {
        let stderr = String::from_utf8_lossy(&output.stderr);
        Err(Failure::internal("Failed to print the PDF")
            .details(stderr.lines().last().unwrap_or("").to_owned()))
    }
}
