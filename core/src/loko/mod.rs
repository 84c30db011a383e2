//! loko tools: C4 architecture docs as code, on real project files (`loko.toml`,
//! `src/<system>/system.md`, containers, components, D2 diagrams). The catalog
//! (`with_every_tool!`) lists the tools; this module holds them in three rooms:
//!
//! - `tools`: one module per tool (or per family of tools that share a request shape),
//!   and what only tools use (the `project_path` argument, word choices, lookups, globs);
//! - `project`: a project on disk: loading it into the model, the relationship graph,
//!   the caches of files, projects and d2 answers, watching it for changes, and the fence
//!   that keeps every read and write inside it;
//! - `formats`: the file formats: D2, TOON, markdown with frontmatter (and editing it in
//!   place), the relationship section of a diagram and `relationships.toml`.
//!
//! Every tool answers its success body or `{"error":{"code","message","details"?}}` with
//! the contract's codes ([`LokoErrorCode`]). Nothing is read or written outside the
//! project directory, and `LOKO_ALLOWED_ROOTS` can fence the projects themselves (remote
//! callers get the loko tools only inside it). File work runs on the blocking pool.

mod formats;
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub mod fuzzing;
mod json_value;
mod project;
mod response;
mod tools;

pub use json_value::JsonValue;
pub use response::{LokoErrorBody, LokoErrorCode, LokoErrorEnvelope, LokoResponse};
pub use tools::build_docs::{BuildDocs, BuildDocsRequest, BuildDocsResult, BuildInfo};
pub use tools::create::{
    ComponentOutcome, CreateComponent, CreateComponentRequest, CreateComponentResult,
    CreateComponents, CreateComponentsRequest, CreateComponentsResult, CreateContainer,
    CreateContainerRequest, CreateContainerResult, CreateSystem, CreateSystemRequest,
    CreateSystemResult, CreatedEntity, NewComponent,
};
pub use tools::graph_tools::{
    AnalyzeCoupling, AnalyzeCouplingRequest, AnalyzeCouplingResult, CouplingCount, NodeRef,
    QueryDependencies, QueryDependenciesRequest, QueryDependenciesResult, QueryRelatedComponents,
    QueryRelatedComponentsRequest, QueryRelatedComponentsResult,
};
pub use tools::project_tool::EntityRef;
pub use tools::query_architecture::{
    ArchitectureView, ContainerFull, ContainerOutline, ContainerStructure, ContainerSummary,
    Detail, EntityDetail, ProjectStructure, ProjectSummary, QueryArchitecture,
    QueryArchitectureRequest, RelationshipView, SystemFull, SystemOutline, SystemStructure,
    SystemSummary, ToonView,
};
pub use tools::query_project::{
    QueryProject, QueryProjectRequest, QueryProjectResult, SystemOverview,
};
pub use tools::relationship_tools::{
    CreateRelationship, CreateRelationshipRequest, CreateRelationshipResult, DeleteRelationship,
    DeleteRelationshipRequest, DeleteRelationshipResult, FindRelationships,
    FindRelationshipsRequest, FindRelationshipsResult, FoundRelationship, ListRelationships,
    ListRelationshipsRequest, ListRelationshipsResult, RelationshipEntry,
};
pub use tools::render_diagram::{RenderDiagram, RenderDiagramRequest, RenderDiagramResult};
pub use tools::search_elements::{
    FoundElement, SearchElements, SearchElementsRequest, SearchElementsResult,
};
pub use tools::update_diagram::{
    DiagramLocation, MAX_D2_BYTES, UpdateDiagram, UpdateDiagramRequest, UpdateDiagramResult,
};
pub use tools::update_entity::{
    UpdateComponent, UpdateComponentRequest, UpdateContainer, UpdateContainerRequest,
    UpdateEntityResult, UpdateSystem, UpdateSystemRequest, UpdatedEntity,
};
pub use tools::validate::{
    HIGH_COUPLING, Validate, ValidateRequest, ValidateResult, ValidationIssue, ValidationReport,
};
pub use tools::validate_diagram::{
    DiagramError, ValidateDiagram, ValidateDiagramRequest, ValidateDiagramResult,
};

pub(crate) use project::state::LokoState;
