//! A test suite in a child process (`cargo xtask test SUITE`), its output in a log file:
//! how a full run overlaps the package suite's release build with the other suites, and
//! runs the suites that mostly wait side by side.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use xshell::Shell;

/// A copy of this xtask, made before any suite runs: a suite may rebuild
/// `target/debug/xtask` (`cargo run -p xtask` under other settings), which deletes the
/// running file, and a suite started later must still find its program.
static RUNNER: OnceLock<PathBuf> = OnceLock::new();

/// Copies this xtask to `target/xtask-runner` (once); later suites in the background run
/// that copy.
pub fn keep_runner(root: &Path) -> Result<()> {
    if RUNNER.get().is_some() {
        return Ok(());
    }
    let copy = root.join("target/xtask-runner");
    let this = std::env::current_exe()?;
    // A suite in the background is that copy already: it keeps it. Otherwise a fresh copy
    // replaces the old one by a rename, never by writing into a program that may be running.
    if this != copy {
        let fresh = root.join(format!("target/xtask-runner.{}", std::process::id()));
        std::fs::copy(&this, &fresh)
            .and_then(|_| std::fs::rename(&fresh, &copy))
            .with_context(|| format!("copying this xtask to {}", copy.display()))?;
    }
    let _ = RUNNER.set(copy);
    Ok(())
}

/// How much of the machine a suite in the background may take.
#[derive(Clone, Copy)]
pub enum Priority {
    /// `nice -n 15`: only the cores the suites in the foreground leave idle.
    Low,
    /// As much as any other process.
    Normal,
}

/// A suite running in a child `cargo xtask test SUITE`, its output in
/// `target/<suite>-suite.log`; [`Background::finish`] waits for it.
pub struct Background {
    suite: String,
    child: Child,
    log: PathBuf,
    started: Instant,
    /// Waited for: nothing left to stop.
    done: bool,
}

impl Drop for Background {
    /// A run that fails before waiting for the suite stops it, and everything it started.
    fn drop(&mut self) {
        if !self.done {
            let group = format!("-{}", self.child.id());
            let _ = Command::new("kill").args(["-TERM", "--", &group]).status();
            let _ = self.child.wait();
        }
    }
}

impl Background {
    /// Starts `cargo xtask test {suite}` in its own process group, with `env` added to its
    /// environment.
    pub fn start(
        sh: &Shell,
        suite: &str,
        priority: Priority,
        env: &[(&str, &str)],
    ) -> Result<Self> {
        let log = sh.current_dir().join(format!("target/{suite}-suite.log"));
        let out = std::fs::File::create(&log)?;
        let niceness = match priority {
            Priority::Low => "15",
            Priority::Normal => "0",
        };
        // Its own process group, so a failed run stops it with every cargo under it.
        let child = Command::new("nice")
            .process_group(0)
            .args(["-n", niceness])
            .arg(match RUNNER.get() {
                Some(copy) => copy.clone(),
                None => std::env::current_exe()?,
            })
            .args(["test", suite])
            .envs(env.iter().copied())
            .envs(crate::timings::record().map(|path| (crate::timings::RECORD, path)))
            .env(crate::timings::IN_BACKGROUND, "1")
            .current_dir(sh.current_dir())
            .stdin(Stdio::null())
            .stdout(out.try_clone()?)
            .stderr(out)
            .spawn()
            .with_context(|| format!("starting the {suite} suite in the background"))?;
        println!(
            "(the {suite} suite runs in the background from here: {})",
            log.display()
        );
        Ok(Self {
            suite: suite.to_owned(),
            child,
            log,
            started: Instant::now(),
            done: false,
        })
    }

    /// Waits for the suite, prints its output, and fails as it failed; on success, how long
    /// it ran.
    pub fn finish(mut self) -> Result<Duration> {
        let before = crate::timings::cpu_seconds();
        let status = self.child.wait()?;
        self.done = true;
        // The suite's own steps are in the run's record; what the kernel now adds to this
        // process's children's time is theirs, not the step this wait happens in.
        if let (Some(before), Some(after), Some(_)) = (
            before,
            crate::timings::cpu_seconds(),
            crate::timings::record(),
        ) {
            crate::timings::discount(after - before);
        }
        let elapsed = self.started.elapsed();
        print!("{}", std::fs::read_to_string(&self.log).unwrap_or_default());
        println!(
            "(the {} suite ran in the background for {:.0} s)",
            self.suite,
            elapsed.as_secs_f64()
        );
        if !status.success() {
            bail!(
                "the {} suite in the background failed ({status})",
                self.suite
            );
        }
        Ok(elapsed)
    }
}
