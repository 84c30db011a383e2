//! The version every artifact and listing carries.

/// The workspace's version (`workspace.package.version`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
