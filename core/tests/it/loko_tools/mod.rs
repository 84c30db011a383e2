//! loko v0.3's tools end to end, in one test binary: its QA script walked in toolpack's
//! terms (`qa`), and the relationship files on disk (`relationships`). Needs the real
//! `d2` on PATH (or `D2_BIN`), as `./scripts/test-all` provides.
#![allow(
    clippy::disallowed_methods,
    reason = "a test, not a server's async path: blocking file work is fine here"
)]

mod qa;
mod relationships;
