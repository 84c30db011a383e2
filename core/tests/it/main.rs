//! The core's integration tests, as modules of one test binary: one link of the whole
//! dependency graph instead of one per file. Each module is one subject. Two stay binaries
//! of their own (`xtask/src/test_binaries.rs` says why): `postgres_tls` and `loko_stall`.
#![allow(
    clippy::disallowed_methods,
    reason = "tests, not a server's async path: blocking file work is fine here"
)]

#[path = "../support/on_postgres.rs"]
mod on_postgres;

mod answer_budget;
mod answer_words;
mod asking;
mod callers;
mod catalog;
mod catalog_properties;
mod graphql_queries;
mod host_schemas;
mod http_layer;
mod loko_build;
mod loko_projects;
mod loko_tools;
mod plan_journey;
mod postgres_store;
mod saved_places;
mod timetable;
mod toon_reference;
mod upstream_chaos;
mod upstream_layer;
mod vector_coverage;
mod vectors;
mod vehicle_positions;
