#![warn(missing_docs)]
//! Test support shared by every surface: the [`fake_upstream`] server and the
//! [`vectors`] (shared test cases) loader and checker.

pub mod fake_upstream;
pub mod loko_project;
pub mod vectors;

pub use fake_upstream::{BodyMode, FakeUpstream, RecordedRequest, Scenario};

/// The repository's `tests/` directory (absolute).
pub fn tests_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("testkit lives in tests/")
        .to_path_buf()
}

/// The recorded upstream responses (`tests/fixtures`).
pub fn default_fixtures_dir() -> std::path::PathBuf {
    tests_dir().join("fixtures")
}
