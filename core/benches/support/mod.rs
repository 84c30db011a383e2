//! The interleaved benchmark harness shared by the end-to-end benches: each round times
//! every step back to back (a bare HTTP request of the same recorded response first), so
//! machine noise hits all steps alike; the report gives each step's median and the median
//! of its paired differences with the bare request.

#![allow(dead_code)]

pub mod stdio;

use std::time::Instant;

/// Rounds warmed up before recording.
pub const WARM_UP: usize = 500;
/// Rounds recorded under `cargo bench`.
pub const ROUNDS: usize = 5_000;

/// Recorded rounds: 10 under `cargo test --benches` (no `--bench` flag), else [`ROUNDS`].
pub fn rounds() -> usize {
    if std::env::args().any(|a| a == "--bench") {
        ROUNDS
    } else {
        10
    }
}

/// A two-worker tokio runtime (the machine has two cores).
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// The fake upstream on loopback, replaying the recorded responses of `tests/fixtures`.
pub fn fake_upstream(runtime: &tokio::runtime::Runtime) -> toolpack_testkit::FakeUpstream {
    runtime
        .block_on(toolpack_testkit::FakeUpstream::start(
            &toolpack_testkit::default_fixtures_dir(),
        ))
        .unwrap()
}

/// The median of `samples`.
pub fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// Step timings of every recorded round, in microseconds.
pub struct Laps {
    labels: Vec<&'static str>,
    samples: Vec<Vec<f64>>,
    warm_up: usize,
}

impl Laps {
    /// Laps for steps `labels` (the first is the bare request), warming up for
    /// `min(WARM_UP, rounds)` rounds.
    pub fn new(labels: &[&'static str], rounds: usize) -> Self {
        Self {
            labels: labels.to_vec(),
            samples: vec![Vec::new(); labels.len()],
            warm_up: WARM_UP.min(rounds),
        }
    }

    /// Every round to run, warm-up included.
    pub fn total_rounds(&self, rounds: usize) -> usize {
        self.warm_up + rounds
    }

    /// Records round `round` from `marks`: the instants before the first step and after
    /// each step.
    pub fn record(&mut self, round: usize, marks: &[Instant]) {
        if round < self.warm_up {
            return;
        }
        for (step, pair) in marks.windows(2).enumerate() {
            self.samples[step].push((pair[1] - pair[0]).as_secs_f64() * 1e6);
        }
    }

    /// Each step's label and median, in microseconds.
    pub fn medians(&self) -> Vec<(&'static str, f64)> {
        self.labels
            .iter()
            .zip(&self.samples)
            .map(|(label, samples)| (*label, median(samples.clone())))
            .collect()
    }

    /// The median of step `step`'s paired differences to the bare request (its own added
    /// cost), in microseconds.
    pub fn added(&self, step: usize) -> f64 {
        let bare = &self.samples[0];
        median(
            self.samples[step]
                .iter()
                .zip(bare)
                .map(|(t, b)| t - b)
                .collect(),
        )
    }

    /// Prints each step's median, its ratio to the bare request, and the median of the
    /// paired differences (the tool's own added cost).
    pub fn report(&self, title: &str) {
        let bare = &self.samples[0];
        let bare_p50 = median(bare.clone());
        println!("{title}, {} interleaved rounds:", bare.len());
        println!("  {:28} median {bare_p50:9.1} µs", self.labels[0]);
        for (step, (label, samples)) in self.labels.iter().zip(&self.samples).enumerate().skip(1) {
            let p50 = median(samples.clone());
            let added = self.added(step);
            println!(
                "  {label:28} median {p50:9.1} µs  ratio {:.2}x  added (median of paired differences) {added:7.1} µs",
                p50 / bare_p50
            );
        }
    }
}
