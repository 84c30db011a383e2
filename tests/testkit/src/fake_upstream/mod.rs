//! A fake of the upstream APIs (TfL, Digitransit) on loopback only.
//!
//! It replays recorded responses by route (a `routes.json` manifest in the fixtures
//! directory) and takes scenarios that override them: added latency, any status,
//! `Retry-After`, malformed, truncated or oversized bodies, and connections that hang.
//! Scenarios can be set in-process ([`FakeUpstream::push_scenario`]) or over HTTP
//! (`POST /__fake/scenarios`, `DELETE /__fake/scenarios`, `GET /__fake/requests`), so
//! tests in any language can drive it; `POST /__vectors/judge` judges an answer to a
//! shared vector case, so no language judges answers on its own. Its port also takes MQTT:
//! an MQTT client is passed through to a real broker replaying recorded HSL positions
//! (`mqtt_door.rs`, `${HFP}` in a vector).

mod body;
mod judge;
mod mqtt_door;
mod recorded;
mod routes;
mod scenario;
mod server;

pub use recorded::RecordedRequest;
pub use routes::{Route, Routes};
pub use scenario::{BodyMode, Scenario};
pub use server::FakeUpstream;
