//! The bodies of the fuzz targets in `fuzz/` (cargo-fuzz, libFuzzer). Each takes the
//! fuzzer's bytes and checks what a test would: no panic, no call past its time budget, an
//! answer in the tool's contract shape, and round trips that read back what was written.
//! They live beside what they call, so the `fuzz/` targets are one line each and a unit test
//! replays the committed corpus (`fuzz/corpus/<target>/`) in every test run. Compiled for
//! the tests and with the `fuzzing` feature only: not part of the API.
#![allow(
    clippy::disallowed_methods,
    reason = "fuzz bodies run on the fuzzer's thread, outside any server's async path"
)]

mod arguments;
pub(crate) mod harness;
#[cfg(test)]
mod replay;
pub(crate) mod upstream;

pub use upstream::serve;

/// A fuzz target's body.
pub type Body = fn(&[u8]);

/// Every fuzz target of this build: its name (its file in `fuzz/fuzz_targets/`, its corpus
/// folder in `fuzz/corpus/`) and its body.
pub fn targets() -> Vec<(&'static str, Body)> {
    let mut targets: Vec<(&'static str, Body)> = vec![("call_json", arguments::call_json)];
    #[cfg(feature = "tfl")]
    targets.extend([
        ("tfl_journey", upstream::tfl_journey as Body),
        ("station_data", upstream::station_data),
    ]);
    #[cfg(feature = "digitransit")]
    targets.extend([
        ("pelias", upstream::pelias as Body),
        ("otp_plan", upstream::otp_plan),
        ("otp_departures", upstream::otp_departures),
        ("hfp", upstream::hfp),
    ]);
    #[cfg(feature = "loko")]
    {
        use crate::loko::fuzzing as loko;
        targets.extend([
            ("loko_project", loko::project as Body),
            ("d2_arrows", loko::d2_arrows),
            ("markdown_html", loko::markdown_html),
            ("frontmatter_round_trip", loko::frontmatter_round_trip),
            ("relationships_round_trip", loko::relationships_round_trip),
        ]);
    }
    targets
}

/// The body of the target `name`.
pub fn target(name: &str) -> Option<Body> {
    targets()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, body)| body)
}
