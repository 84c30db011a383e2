//! A loko project on disk: loading, the model and its graph, the caches, watching, the fence.

pub(super) mod binaries;
pub(super) mod fence;
pub(super) mod file_cache;
pub(super) mod memo;
pub(super) mod model;
pub(super) mod output_paths;
pub(super) mod project_cache;
pub(super) mod project_watch;
pub(super) mod relationships;
pub(super) mod settings;
pub(super) mod slug;
pub(super) mod state;
pub(super) mod syntax_cache;
