//! The real `d2` binary: found through `D2_BIN`, then `PATH`; run with a 30 s timeout
//! for `validate` (its `err: …:line:col: message` lines become `INVALID_SYNTAX`) and
//! for rendering SVG (`--bundle=false`, so no remote icon is ever fetched).

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tracing::Instrument;

use crate::config::Config;
use crate::loko::response::Failure;

/// The longest a single d2 run may take.
pub const D2_TIMEOUT: Duration = Duration::from_secs(30);

/// A located `d2` binary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct D2 {
    path: PathBuf,
}

/// A D2 syntax error at a line and column (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// The line.
    pub line: u32,
    /// The column.
    pub column: u32,
    /// d2's message, without its prefix.
    pub message: String,
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl D2 {
    /// The binary of `D2_BIN`, else `d2` on `PATH`; the error says how to install it.
    /// Blocking (it stats files): call it on the blocking pool.
    pub fn locate(config: &Config) -> Result<D2, Failure> {
        crate::loko::project::binaries::d2(config).map(|path| D2 { path })
    }

    /// The binary's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Checks `source`; `Ok(Err(_))` is the first syntax error d2 reports.
    pub async fn validate(&self, source: &str) -> Result<Result<(), SyntaxError>, Failure> {
        let output = self
            .run_observed("validate", &["validate", "-"], source)
            .await?;
        if output.status.success() {
            return Ok(Ok(()));
        }
        let stderr = String::from_utf8_lossy(&output.stderr);
        Ok(Err(parse_error(&stderr)))
    }

    /// Renders `source` to SVG with `layout` and theme id `theme`.
    pub async fn render(&self, source: &str, layout: &str, theme: u32) -> Result<Vec<u8>, Failure> {
        let theme = theme.to_string();
        let output = self
            .run_observed(
                "render",
                &[
                    "--layout",
                    layout,
                    "--theme",
                    &theme,
                    "--bundle=false",
                    "-",
                    "-",
                ],
                source,
            )
            .await?;
        if output.status.success() && !output.stdout.is_empty() {
            Ok(output.stdout)
        } else {
            let stderr = String::from_utf8_lossy(&output.stderr);
            Err(Failure::internal("Failed to render diagram")
                .details(parse_error(&stderr).to_string()))
        }
    }

    /// `d2 --version`, e.g. `v0.7.1`.
    pub async fn version(&self) -> Result<String, Failure> {
        let output = self.run(&["--version"], "").await?;
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
    }

    /// [`D2::run`] as `command` (`render`, `validate`): in a `d2 <command>` span, and
    /// counted by outcome (`ok`, `rejected` when d2 refuses the source, `failed` when it
    /// could not run).
    async fn run_observed(
        &self,
        command: &'static str,
        args: &[&str],
        stdin: &str,
    ) -> Result<std::process::Output, Failure> {
        let span = tracing::info_span!(
            "d2",
            otel.name = format_args!("d2 {command}"),
            toolpack.d2.command = command,
            process.exit.code = tracing::field::Empty,
        );
        let output = self.run(args, stdin).instrument(span.clone()).await;
        let outcome = match &output {
            Ok(output) => {
                if let Some(code) = output.status.code() {
                    span.record("process.exit.code", code);
                }
                if output.status.success() {
                    "ok"
                } else {
                    "rejected"
                }
            }
            Err(_) => "failed",
        };
        crate::telemetry::d2_run(command, outcome);
        output
    }

    async fn run(&self, args: &[&str], stdin: &str) -> Result<std::process::Output, Failure> {
        let failed = |e: std::io::Error| {
            Failure::internal("Failed to run d2").details(format!("{}: {e}", self.path.display()))
        };
        let mut child = tokio::process::Command::new(&self.path)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(failed)?;
        let mut input = child
            .stdin
            .take()
            .ok_or_else(|| Failure::internal("d2 has no stdin"))?;
        let source = stdin.as_bytes().to_vec();
        let feed = tokio::spawn(async move {
            let _ = input.write_all(&source).await;
        });
        let output = tokio::time::timeout(D2_TIMEOUT, child.wait_with_output())
            .await
            .map_err(|_| {
                Failure::internal("d2 timed out")
                    .details(format!("no answer within {} s", D2_TIMEOUT.as_secs()))
            })?
            .map_err(failed)?;
        let _ = feed.await;
        Ok(output)
    }
}

/// The first `line:col: message` of d2's stderr (`err: <prefix>: 3:4: message`).
pub fn parse_error(stderr: &str) -> SyntaxError {
    for line in stderr.lines() {
        let line = line.trim().strip_prefix("err:").unwrap_or(line).trim();
        if let Some(found) = position(line) {
            return found;
        }
    }
    SyntaxError {
        line: 0,
        column: 0,
        message: stderr
            .trim()
            .lines()
            .last()
            .unwrap_or("d2 failed")
            .to_owned(),
    }
}

/// Finds `<line>:<col>: <message>` in `text` (after any `file:` or Go symbol prefix).
fn position(text: &str) -> Option<SyntaxError> {
    let parts: Vec<&str> = text.split(": ").collect();
    for (i, part) in parts.iter().enumerate() {
        let candidate = part.rsplit(' ').next().unwrap_or(part);
        let mut numbers = candidate.rsplitn(3, ':');
        let column = numbers.next()?.parse::<u32>();
        let line = numbers.next().map(str::parse::<u32>);
        if let (Ok(column), Some(Ok(line))) = (column, line) {
            return Some(SyntaxError {
                line,
                column,
                message: parts[i + 1..].join(": "),
            });
        }
    }
    None
}

/// Escapes `text` for a double-quoted D2 string (`"`, `\` and `$`, which starts a
/// substitution).
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' | '\\' | '$' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' | '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d2_error_lines_give_line_column_and_message() {
        let e = parse_error(
            "err: oss.terrastruct.com/d2/d2cli.validateCmd: 1:16: missing value after colon\n",
        );
        assert_eq!(
            (e.line, e.column, e.message.as_str()),
            (1, 16, "missing value after colon")
        );
        let e = parse_error("err: 3:4: maps must be terminated with }");
        assert_eq!((e.line, e.column), (3, 4));
        let e = parse_error("err: failed to compile -: -:1:10: substitutions must begin on {");
        assert_eq!(
            (e.line, e.column, e.message.as_str()),
            (1, 10, "substitutions must begin on {")
        );
        assert_eq!(parse_error("boom").line, 0);
    }

    #[test]
    fn quoting_escapes_what_d2_would_read() {
        assert_eq!(quote(r#"a "b" \ $c"#), r#""a \"b\" \\ \$c""#);
        assert_eq!(quote("line\nbreak"), "\"line break\"");
    }
}
