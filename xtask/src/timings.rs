//! Where a run's time goes: every section heading ([`crate::shell::section`]) starts a step,
//! and each step's wall time and processor time (this process's and the children it has
//! waited for, user plus system) are kept. A run's processes share one record: with
//! `TOOLPACK_XTASK_TIMINGS` set to a file (as `scripts/test-all` sets it), each appends its
//! steps there when it ends, and the run's last table reads them all back, so the steps of a
//! suite in the background and of `cargo xtask tools` appear beside the foreground's. The
//! table is sorted by processor time: on a machine whose cores are all busy, that is what a
//! step costs the run.

use std::fmt::Write as _;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The file a run's processes append their steps to.
pub const RECORD: &str = "TOOLPACK_XTASK_TIMINGS";

/// The record this process appends to: `TOOLPACK_XTASK_TIMINGS`, or the one a full run in
/// this process began ([`keep_record`]).
static KEPT: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();

/// The run's record: `TOOLPACK_XTASK_TIMINGS` when a parent set it, or else a fresh
/// `target/timings.tsv` under `root`, which the suites this process starts in the
/// background then append to ([`record`]).
pub fn keep_record(root: &std::path::Path) {
    KEPT.get_or_init(|| match std::env::var_os(RECORD) {
        Some(path) => path.into(),
        None => {
            let path = root.join("target/timings.tsv");
            let _ = std::fs::write(&path, "");
            path
        }
    });
}

/// The run's record, if it keeps one: what a suite started in the background is given as
/// `TOOLPACK_XTASK_TIMINGS`.
pub fn record() -> Option<std::path::PathBuf> {
    KEPT.get()
        .cloned()
        .or_else(|| std::env::var_os(RECORD).map(Into::into))
}

/// One finished step.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// Its section heading.
    pub title: String,
    /// Wall time, in seconds.
    pub wall: f64,
    /// Processor time of this process and its waited-for children, in seconds.
    pub cpu: f64,
}

/// The step under way: its title, and when and at what processor time it began.
struct Open {
    title: String,
    started: Instant,
    cpu_at_start: f64,
}

/// This process's finished steps and the step under way.
type Steps = (Vec<Step>, Option<Open>);

/// This process's [`Steps`].
static STEPS: Mutex<Steps> = Mutex::new((Vec::new(), None));

/// Ends the step under way and begins the one headed `title`.
pub fn begin(title: &str) {
    let (mut steps, (started, cpu_at_start)) = with_step_ended();
    steps.1 = Some(Open {
        title: title.to_owned(),
        started,
        cpu_at_start,
    });
}

/// This process's steps, the one under way ended now, and now (the instant and the
/// processor time).
fn with_step_ended() -> (std::sync::MutexGuard<'static, Steps>, (Instant, f64)) {
    let mut steps = STEPS.lock().unwrap_or_else(|e| e.into_inner());
    let now = (Instant::now(), cpu_seconds().unwrap_or(0.0));
    if let Some(open) = steps.1.take() {
        steps.0.push(close(open, now));
    }
    (steps, now)
}

/// Takes `cpu` seconds out of the step under way: a child whose own steps are recorded
/// (a suite in the background) was waited for in it, and the kernel adds the child's time
/// to this process's children's.
pub fn discount(cpu: f64) {
    let mut steps = STEPS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(open) = &mut steps.1 {
        open.cpu_at_start += cpu;
    }
}

/// Ends the step under way and appends this process's steps to the run's record, when the
/// run keeps one.
pub fn save() {
    let (mut steps, _) = with_step_ended();
    if let Some(path) = record() {
        let lines: String = steps.0.drain(..).map(|step| to_line(&step)).collect();
        let appended = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut file| std::io::Write::write_all(&mut file, lines.as_bytes()));
        if let Err(error) = appended {
            eprintln!("(could not record the steps' times: {error})");
        }
    }
}

/// The run's steps, from its record (every process's, this one's saved first), or this
/// process's alone when the run keeps none.
pub fn run_steps() -> Vec<Step> {
    match record() {
        Some(path) => {
            save();
            parse(&std::fs::read_to_string(path).unwrap_or_default())
        }
        None => with_step_ended().0.0.clone(),
    }
}

/// Set for a suite this process starts in the background: it records its steps and leaves
/// the table to the run.
pub const IN_BACKGROUND: &str = "TOOLPACK_XTASK_IN_BACKGROUND";

/// The table of `steps`, the costliest first (those under half a second of both left
/// out), with the sum of them all.
pub fn table(steps: &[Step]) -> String {
    let mut sorted = steps.to_vec();
    sorted.sort_by(|a, b| b.cpu.total_cmp(&a.cpu));
    let mut text = format!("{:>8} {:>8}  step\n", "cpu", "wall");
    // A heading with nothing under it (a suite's closing line) would only be a row of zeros.
    for step in sorted.iter().filter(|s| s.cpu >= 0.5 || s.wall >= 0.5) {
        let _ = writeln!(
            text,
            "{:>8} {:>8}  {}",
            minutes(step.cpu),
            minutes(step.wall),
            step.title
        );
    }
    let cpu: f64 = sorted.iter().map(|s| s.cpu).sum();
    let _ = writeln!(text, "{:>8} {:>8}  in all", minutes(cpu), "");
    text
}

fn close(open: Open, (now, cpu): (Instant, f64)) -> Step {
    Step {
        title: open.title,
        wall: now.duration_since(open.started).as_secs_f64(),
        cpu: (cpu - open.cpu_at_start).max(0.0),
    }
}

/// `m:ss` of `seconds`.
fn minutes(seconds: f64) -> String {
    let whole = Duration::from_secs_f64(seconds.max(0.0)).as_secs();
    format!("{}:{:02}", whole / 60, whole % 60)
}

/// A step as a line of the record: its title, wall seconds and processor seconds, split by
/// tabs (a tab in the title becomes a space).
fn to_line(step: &Step) -> String {
    format!(
        "{}\t{:.2}\t{:.2}\n",
        step.title.replace('\t', " "),
        step.wall,
        step.cpu
    )
}

/// The steps of a record. A line is a title, its wall seconds, then processor seconds in one
/// field or more (summed: bash's `time` gives user and system apart); others are skipped.
fn parse(record: &str) -> Vec<Step> {
    record
        .lines()
        .filter_map(|line| {
            let mut fields = line.split('\t');
            let title = fields.next()?.to_owned();
            let wall = fields.next()?.trim().parse().ok()?;
            let cpu: Vec<f64> = fields
                .map(|f| f.trim().parse().ok())
                .collect::<Option<_>>()?;
            (!cpu.is_empty()).then(|| Step {
                title,
                wall,
                cpu: cpu.iter().sum(),
            })
        })
        .collect()
}

/// User and system time of this process and its waited-for children, in seconds
/// (`/proc/self/stat`, in the kernel's 100 Hz ticks); `None` off Linux.
pub fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name (which may hold spaces) in parentheses: utime,
    // stime, cutime and cstime are the 12th to the 15th of them.
    let after_name = stat.rsplit_once(')')?.1;
    let ticks: u64 = after_name
        .split_whitespace()
        .skip(11)
        .take(4)
        .map(|field| field.parse::<u64>().ok())
        .sum::<Option<u64>>()?;
    Some(ticks as f64 / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_its_steps_and_sums_bash_times_user_and_system() {
        let step = Step {
            title: "rust: clippy\t(all)".into(),
            wall: 61.5,
            cpu: 118.25,
        };
        let record = format!(
            "{}xtask built\t12.10\t20.00\t1.50\nnot a step\n",
            to_line(&step)
        );
        let steps = parse(&record);
        assert_eq!(steps.len(), 2, "{steps:?}");
        assert_eq!(steps[0].title, "rust: clippy (all)");
        assert_eq!((steps[0].wall, steps[0].cpu), (61.5, 118.25));
        assert_eq!((steps[1].wall, steps[1].cpu), (12.1, 21.5));
    }

    #[test]
    fn the_table_puts_the_costliest_step_first_and_sums_them() {
        let steps = [
            Step {
                title: "cheap".into(),
                wall: 5.0,
                cpu: 4.0,
            },
            Step {
                title: "dear".into(),
                wall: 100.0,
                cpu: 190.0,
            },
        ];
        let with_nothing = [
            &steps[..],
            &[Step {
                title: "a closing line".into(),
                wall: 0.01,
                cpu: 0.0,
            }],
        ]
        .concat();
        let table = table(&with_nothing);
        assert!(!table.contains("a closing line"), "{table}");
        let lines: Vec<&str> = table.lines().collect();
        assert!(
            lines[1].ends_with("dear") && lines[1].contains("3:10"),
            "{table}"
        );
        assert!(lines[2].ends_with("cheap"), "{table}");
        assert!(
            lines[3].contains("3:14") && lines[3].ends_with("in all"),
            "{table}"
        );
    }

    #[test]
    fn a_step_costs_what_was_used_between_its_start_and_end_less_what_was_discounted() {
        // The process-wide clock cannot be read in a test (other tests run beside it), so
        // the step is built from known figures: begun at 10 s of processor time, a child's
        // 0.5 s discounted (as `discount` does), ended at 12 s.
        let started = Instant::now();
        let open = Open {
            title: "first".into(),
            started,
            cpu_at_start: 10.0 + 0.5,
        };
        let step = close(open, (started + Duration::from_millis(1500), 12.0));
        assert_eq!(step.title, "first");
        assert!((step.wall - 1.5).abs() < 1e-9, "{step:?}");
        assert!((step.cpu - 1.5).abs() < 1e-9, "{step:?}");
        // A discount larger than what was used never makes a step cost less than nothing.
        let open = Open {
            title: "second".into(),
            started,
            cpu_at_start: 20.0,
        };
        assert_eq!(close(open, (started, 12.0)).cpu, 0.0);
    }
}
