// Empty: it makes the `[build-dependencies]` of this crate count in cargo's host feature
// resolution (see Cargo.toml).
fn main() {}
