//! The loko tools, one module per tool or per family of tools, and what only tools use.

pub(super) mod build_docs;
pub(super) mod choice;
pub(super) mod create;
pub(super) mod glob;
pub(super) mod graph_tools;
pub(super) mod lookup;
pub(super) mod project_tool;
pub(super) mod query_architecture;
pub(super) mod query_project;
pub(super) mod relationship_tools;
pub(super) mod render_diagram;
pub(super) mod search_elements;
pub(super) mod update_diagram;
pub(super) mod update_entity;
pub(super) mod validate;
pub(super) mod validate_diagram;
