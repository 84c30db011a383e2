//! The file formats of a loko project: D2, TOON, markdown with frontmatter, relationships.

pub(super) mod d2;
pub(super) mod diagram_section;
pub(super) mod frontmatter_edit;
pub(super) mod markdown;
pub(super) mod relationship_file;
pub(super) mod toon;
