//! The tool catalog: the one list of tools every surface (Rust, MCP, Python, Node,
//! Kotlin) serves. Adding a tool means adding one line to [`with_every_tool!`](crate::with_every_tool).

use std::sync::{Arc, LazyLock};

use futures_util::future::BoxFuture;
use serde_json::Value;

use crate::Toolpack;
use crate::arguments::ArgumentSchema;
use crate::config::Config;
use crate::error_code::{ErrorCode, error_codes};
use crate::schema::gemini::gemini_variant;
use crate::schema::strict::strict_variant;
use crate::schema::{
    JsonObject, compact_input, inline_refs, input_type_schema, output_schema, served_input,
};
use crate::tool::{Tool, ToolOutput, ToolSpec};

/// The one list of tools: calls `$callback!` with one entry per tool, in catalog order,
/// `"feature" method_name: ToolType, RequestType => ResponseType;`. The catalog is built
/// from it, and so is every binding that needs one item per tool at compile time (the
/// uniffi bindings' typed methods, which return the response's
/// [`ToolOutput::Success`](crate::ToolOutput::Success) type named after `=>`). Adding a
/// tool means adding one entry here.
///
/// The feature is checked where the entries are expanded (`#[cfg(feature = "…")]`), so a
/// crate expanding them defines the same feature names (`tfl`, `digitransit`, `loko`).
#[macro_export]
macro_rules! with_every_tool {
    ($callback:ident) => {
        $callback! {
            "tfl" plan_journey: $crate::tfl::PlanJourney,
                $crate::tfl::JourneyPlanRequest => $crate::tfl::JourneyPlanToolResponse;
            "tfl" station_toilets: $crate::tfl::StationToilets,
                $crate::tfl::StationToiletLookupRequest => $crate::tfl::StationToiletToolResponse;
            "tfl" line_status: $crate::tfl::LineStatus,
                $crate::tfl::LineStatusRequest => $crate::tfl::LineStatusResponse;
            "tfl" arrivals: $crate::tfl::Arrivals,
                $crate::tfl::ArrivalsRequest => $crate::tfl::ArrivalsResponse;
            "tfl" stop_search: $crate::tfl::StopSearch,
                $crate::tfl::StopSearchRequest => $crate::tfl::StopSearchResponse;
            "tfl" bike_points: $crate::tfl::BikePoints,
                $crate::tfl::BikePointsRequest => $crate::tfl::BikePointsResponse;
            "tfl" line_route: $crate::tfl::LineRoute,
                $crate::tfl::LineRouteRequest => $crate::tfl::LineRouteResponse;
            "tfl" lift_outages: $crate::tfl::LiftOutages,
                $crate::tfl::LiftOutagesRequest => $crate::tfl::LiftOutagesResponse;
            "tfl" timetable: $crate::tfl::Timetable,
                $crate::tfl::TimetableRequest => $crate::tfl::TimetableResponse;
            "tfl" crowding: $crate::tfl::Crowding,
                $crate::tfl::CrowdingRequest => $crate::tfl::CrowdingResponse;
            "digitransit" geocode_address: $crate::digitransit::GeocodeAddress,
                $crate::digitransit::GeocodeAddressRequest => $crate::digitransit::GeocodeAddressResult;
            "digitransit" reverse_geocode: $crate::digitransit::ReverseGeocode,
                $crate::digitransit::ReverseGeocodeRequest => $crate::digitransit::ReverseGeocodeResult;
            "digitransit" plan_trip: $crate::digitransit::PlanTrip,
                $crate::digitransit::PlanTripRequest => $crate::digitransit::PlanTripResult;
            "digitransit" get_departures: $crate::digitransit::GetDepartures,
                $crate::digitransit::GetDeparturesRequest => $crate::digitransit::GetDeparturesResult;
            "digitransit" find_stops: $crate::digitransit::FindStops,
                $crate::digitransit::FindStopsRequest => $crate::digitransit::FindStopsResult;
            "digitransit" get_alerts: $crate::digitransit::GetAlerts,
                $crate::digitransit::GetAlertsRequest => $crate::digitransit::GetAlertsResult;
            "digitransit" find_rental_vehicles: $crate::digitransit::FindRentalVehicles,
                $crate::digitransit::FindRentalVehiclesRequest => $crate::digitransit::FindRentalVehiclesResult;
            "digitransit" get_stop_info: $crate::digitransit::GetStopInfo,
                $crate::digitransit::GetStopInfoRequest => $crate::digitransit::GetStopInfoResult;
            "digitransit" vehicle_positions: $crate::digitransit::VehiclePositions,
                $crate::digitransit::VehiclePositionsRequest => $crate::digitransit::VehiclePositionsResult;
            "digitransit" save_user_variable: $crate::digitransit::SaveUserVariable,
                $crate::digitransit::SaveUserVariableRequest => $crate::digitransit::SaveUserVariableResult;
            "digitransit" get_user_variables: $crate::digitransit::GetUserVariables,
                $crate::digitransit::GetUserVariablesRequest => $crate::digitransit::GetUserVariablesResult;
            "loko" query_project: $crate::loko::QueryProject,
                $crate::loko::QueryProjectRequest => $crate::loko::QueryProjectResult;
            "loko" query_architecture: $crate::loko::QueryArchitecture,
                $crate::loko::QueryArchitectureRequest => $crate::loko::ArchitectureView;
            "loko" create_system: $crate::loko::CreateSystem,
                $crate::loko::CreateSystemRequest => $crate::loko::CreateSystemResult;
            "loko" create_container: $crate::loko::CreateContainer,
                $crate::loko::CreateContainerRequest => $crate::loko::CreateContainerResult;
            "loko" create_component: $crate::loko::CreateComponent,
                $crate::loko::CreateComponentRequest => $crate::loko::CreateComponentResult;
            "loko" update_diagram: $crate::loko::UpdateDiagram,
                $crate::loko::UpdateDiagramRequest => $crate::loko::UpdateDiagramResult;
            "loko" build_docs: $crate::loko::BuildDocs,
                $crate::loko::BuildDocsRequest => $crate::loko::BuildDocsResult;
            "loko" validate: $crate::loko::Validate,
                $crate::loko::ValidateRequest => $crate::loko::ValidateResult;
            "loko" create_components: $crate::loko::CreateComponents,
                $crate::loko::CreateComponentsRequest => $crate::loko::CreateComponentsResult;
            "loko" update_system: $crate::loko::UpdateSystem,
                $crate::loko::UpdateSystemRequest => $crate::loko::UpdateEntityResult;
            "loko" update_container: $crate::loko::UpdateContainer,
                $crate::loko::UpdateContainerRequest => $crate::loko::UpdateEntityResult;
            "loko" update_component: $crate::loko::UpdateComponent,
                $crate::loko::UpdateComponentRequest => $crate::loko::UpdateEntityResult;
            "loko" create_relationship: $crate::loko::CreateRelationship,
                $crate::loko::CreateRelationshipRequest => $crate::loko::CreateRelationshipResult;
            "loko" delete_relationship: $crate::loko::DeleteRelationship,
                $crate::loko::DeleteRelationshipRequest => $crate::loko::DeleteRelationshipResult;
            "loko" list_relationships: $crate::loko::ListRelationships,
                $crate::loko::ListRelationshipsRequest => $crate::loko::ListRelationshipsResult;
            "loko" find_relationships: $crate::loko::FindRelationships,
                $crate::loko::FindRelationshipsRequest => $crate::loko::FindRelationshipsResult;
            "loko" search_elements: $crate::loko::SearchElements,
                $crate::loko::SearchElementsRequest => $crate::loko::SearchElementsResult;
            "loko" query_dependencies: $crate::loko::QueryDependencies,
                $crate::loko::QueryDependenciesRequest => $crate::loko::QueryDependenciesResult;
            "loko" query_related_components: $crate::loko::QueryRelatedComponents,
                $crate::loko::QueryRelatedComponentsRequest => $crate::loko::QueryRelatedComponentsResult;
            "loko" analyze_coupling: $crate::loko::AnalyzeCoupling,
                $crate::loko::AnalyzeCouplingRequest => $crate::loko::AnalyzeCouplingResult;
            "loko" validate_diagram: $crate::loko::ValidateDiagram,
                $crate::loko::ValidateDiagramRequest => $crate::loko::ValidateDiagramResult;
            "loko" render_diagram: $crate::loko::RenderDiagram,
                $crate::loko::RenderDiagramRequest => $crate::loko::RenderDiagramResult;
        }
    };
}

/// The catalog entries of a [`with_every_tool!`] list, for the enabled features.
macro_rules! catalog_entries {
    ($($feature:literal $method:ident : $tool:ty, $input:ty => $output:ty;)*) => {
        vec![$(
            #[cfg(feature = $feature)]
            ToolEntry::of::<$tool>(),
        )*]
    };
}

/// Every tool of the enabled features, in catalog order.
fn registered_tools() -> Vec<ToolEntry> {
    crate::with_every_tool!(catalog_entries)
}

/// The JSON result of a tool call, exactly as an MCP client should see it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    /// The success body, or the contract's error shape for the tool's family.
    pub body: Value,
    /// The contract error code when the call failed.
    pub error_code: Option<String>,
}

impl ToolResult {
    /// Whether the call failed (MCP `isError`).
    pub fn is_error(&self) -> bool {
        self.error_code.is_some()
    }

    /// The kind of the error when the call failed (what bindings map to exception classes).
    pub fn error_kind(&self) -> Option<crate::ErrorKind> {
        self.error_code.as_deref().map(crate::ErrorKind::of)
    }

    /// The JSON text bindings hand over: the MCP `CallToolResult` JSON when `as_mcp`
    /// (what a generic `call` returns), else the contract body (what typed calls return).
    pub fn json_text(&self, as_mcp: bool) -> String {
        // Through `io::Write` into a buffer: `Display` (`to_string`) writes through a
        // formatter, a call per fragment.
        let body = json_string(&self.body);
        if !as_mcp {
            return body;
        }
        // The text of `to_mcp_json`, with the body serialised once instead of three times.
        let text = json_string(&body);
        let is_error = if self.is_error() { "true" } else { "false" };
        [
            r#"{"content":[{"type":"text","text":"#,
            &text,
            r#"}],"structuredContent":"#,
            &body,
            r#","isError":"#,
            is_error,
            "}",
        ]
        .concat()
    }

    /// The MCP `CallToolResult` JSON of this result, exactly as `toolpack-mcp` sends it:
    /// the body as `structuredContent`, a text copy in `content`, and `isError`.
    pub fn to_mcp_json(&self) -> Value {
        serde_json::json!({
            "content": [{ "type": "text", "text": self.body.to_string() }],
            "structuredContent": self.body,
            "isError": self.is_error(),
        })
    }

    fn from_output<O: ToolOutput>(output: O) -> Self {
        let error_code = output.error_code().map(str::to_owned);
        match serde_json::to_value(&output) {
            Ok(body) => Self { body, error_code },
            // Contract types serialise infallibly; keep the promise of a JSON answer anyway.
            Err(_) => {
                let fallback = O::internal_error("serialisation");
                Self {
                    error_code: fallback.error_code().map(str::to_owned),
                    body: serde_json::to_value(&fallback).unwrap_or_default(),
                }
            }
        }
    }
}

/// `value` as compact JSON.
/// The input schema form a framework adapter gives its model ([`ToolEntry::adapter_bytes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AdapterSchema {
    /// The served (inlined) schema, as MCP hosts get it: LangChain, the Vercel AI SDK,
    /// pydantic-ai on models other than OpenAI's and Gemini.
    Served,
    /// The OpenAI strict form: the OpenAI Agents SDK, pydantic-ai on OpenAI models.
    Strict,
    /// The Gemini form: pydantic-ai on Gemini.
    Gemini,
}

impl AdapterSchema {
    /// Every form, in the order the docs list them.
    pub const ALL: [Self; 3] = [Self::Served, Self::Strict, Self::Gemini];

    /// Its key in the contract JSON (`adapterBytes`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Served => "served",
            Self::Strict => "strict",
            Self::Gemini => "gemini",
        }
    }
}

fn json_string<T: serde::Serialize + ?Sized>(value: &T) -> String {
    let mut text = Vec::with_capacity(256);
    // A `Value` or a `str` always serialises, and into UTF-8.
    let _ = serde_json::to_writer(&mut text, value);
    String::from_utf8(text).unwrap_or_default()
}

/// A name the catalog does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown tool '{0}'")]
pub struct UnknownTool(pub String);

type Dispatch = fn(Toolpack, Arc<ArgumentSchema>, Value) -> BoxFuture<'static, ToolResult>;

/// One tool in the catalog.
#[derive(Clone)]
pub struct ToolEntry {
    /// Name, title, description, toolset and annotations.
    pub spec: ToolSpec,
    /// Input JSON schema (root `type: object`), inlined (no `$ref`/`$defs`), compact
    /// ([`compact_input`]) and lean ([`served_input`]): what every surface serves.
    pub input_schema: Arc<JsonObject>,
    /// The input schema with its named definitions (`$defs`), for code generators.
    pub input_type_schema: Arc<JsonObject>,
    /// The input schema in OpenAI strict mode ([`crate::schema::strict`]), when the
    /// input can be written strictly.
    pub strict_input_schema: Option<Arc<JsonObject>>,
    /// The input schema in Gemini's function-declaration subset ([`crate::schema::gemini`]).
    pub gemini_input_schema: Arc<JsonObject>,
    /// Output JSON schema (success and error bodies).
    pub output_schema: Arc<JsonObject>,
    /// JSON schema of what a successful call returns to typed bindings
    /// ([`ToolOutput::Success`]).
    pub success_schema: Arc<JsonObject>,
    /// JSON schema of a failed call's body ([`ToolOutput::Error`]).
    pub error_schema: Arc<JsonObject>,
    /// The error codes the tool may answer, with their kinds.
    pub error_codes: Arc<[ErrorCode]>,
    missing_prerequisite: fn(&Config) -> Option<String>,
    arguments: Arc<ArgumentSchema>,
    dispatch: Dispatch,
}

impl std::fmt::Debug for ToolEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolEntry")
            .field("spec", &self.spec)
            .finish()
    }
}

impl ToolEntry {
    /// The catalog entry of tool `T`.
    pub fn of<T: Tool>() -> Self {
        let error_schema = output_schema::<<T::Output as ToolOutput>::Error>();
        let error_codes = error_codes(
            &error_schema,
            T::Output::ERROR_CODE_AT,
            T::Output::SUCCESS_CODE,
            T::SPEC.name,
        );
        let input_type_schema = input_type_schema::<T::Input>();
        let compact = compact_input(&inline_refs(input_type_schema.clone()));
        Self {
            spec: T::SPEC,
            strict_input_schema: strict_variant(&compact).map(Arc::new),
            gemini_input_schema: Arc::new(gemini_variant(&compact)),
            input_schema: Arc::new(served_input(&compact)),
            arguments: Arc::new(ArgumentSchema::new(Arc::new(compact))),
            input_type_schema: Arc::new(input_type_schema),
            output_schema: Arc::new(output_schema::<T::Output>()),
            success_schema: Arc::new(output_schema::<<T::Output as ToolOutput>::Success>()),
            error_schema: Arc::new(error_schema),
            error_codes: error_codes.into(),
            missing_prerequisite: T::missing_prerequisite,
            dispatch: dispatch::<T>,
        }
    }

    /// The MCP Apps view that shows this tool's answers, if it has one.
    pub fn view(&self) -> Option<&'static crate::views::View> {
        crate::views::of_tool(self.spec.name)
    }

    /// The MCP annotations a host is sent: the hints that differ from the spec's defaults
    /// (read-only false, destructive true, idempotent false, open world true; the middle
    /// two only for a tool that writes), without the title the tool itself carries.
    pub fn served_annotations(&self) -> JsonObject {
        let hints = self.spec.annotations;
        let mut served = JsonObject::new();
        if hints.read_only {
            served.insert("readOnlyHint".into(), Value::Bool(true));
        } else {
            if !hints.destructive {
                served.insert("destructiveHint".into(), Value::Bool(false));
            }
            if hints.idempotent {
                served.insert("idempotentHint".into(), Value::Bool(true));
            }
        }
        if !hints.open_world {
            served.insert("openWorldHint".into(), Value::Bool(false));
        }
        served
    }

    /// What a model reads of this tool's definition, as a host puts it in its context:
    /// name, title, description, the served input schema and annotations.
    pub fn model_visible(&self) -> Value {
        serde_json::json!({
            "name": self.spec.name,
            "title": self.spec.title,
            "description": self.spec.description,
            "inputSchema": *self.input_schema,
            "annotations": self.served_annotations(),
        })
    }

    /// The compact JSON bytes of [`Self::model_visible`]: what the definition costs on every
    /// turn.
    pub fn model_visible_bytes(&self) -> usize {
        json_string(&self.model_visible()).len()
    }

    /// The compact JSON bytes of what a framework adapter of the Python and Node libraries
    /// gives a model for this tool: its name, description and input schema in `form`
    /// (`{"name", "description", "parameters"}`). The strict form falls back to the served
    /// one for an input that has none, as the OpenAI Agents adapters do.
    pub fn adapter_bytes(&self, form: AdapterSchema) -> usize {
        let parameters = match form {
            AdapterSchema::Served => &self.input_schema,
            AdapterSchema::Strict => self
                .strict_input_schema
                .as_ref()
                .unwrap_or(&self.input_schema),
            AdapterSchema::Gemini => &self.gemini_input_schema,
        };
        json_string(&serde_json::json!({
            "name": self.spec.name,
            "description": self.spec.description,
            "parameters": **parameters,
        }))
        .len()
    }

    /// Why this tool cannot run with `config` (e.g. a missing key), or `None`.
    pub fn missing_prerequisite(&self, config: &Config) -> Option<String> {
        (self.missing_prerequisite)(config)
    }
}

fn dispatch<T: Tool>(
    toolpack: Toolpack,
    schema: Arc<ArgumentSchema>,
    arguments: Value,
) -> BoxFuture<'static, ToolResult> {
    Box::pin(async move {
        let call = toolpack.guarded::<T, _>(async {
            match schema.parse::<T::Input>(arguments) {
                Ok(input) => T::run(&toolpack, input).await,
                Err(message) => T::Output::invalid_arguments(T::SPEC.name, message),
            }
        });
        ToolResult::from_output(call.await)
    })
}

/// The list of every tool compiled into this build.
#[derive(Debug)]
pub struct Catalog {
    entries: Vec<ToolEntry>,
}

static CATALOG: LazyLock<Catalog> = LazyLock::new(|| Catalog {
    entries: registered_tools(),
});

impl Catalog {
    /// The catalog of this build (built once, on first use).
    pub fn get() -> &'static Catalog {
        &CATALOG
    }

    /// Every tool, in catalog order.
    pub fn entries(&self) -> &[ToolEntry] {
        &self.entries
    }

    /// The tool called `name`.
    pub fn find(&self, name: &str) -> Option<&ToolEntry> {
        self.entries.iter().find(|e| e.spec.name == name)
    }

    /// Calls tool `name` with JSON `arguments` on `toolpack`.
    pub async fn call(
        &self,
        toolpack: &Toolpack,
        name: &str,
        arguments: Value,
    ) -> Result<ToolResult, UnknownTool> {
        let entry = self
            .find(name)
            .ok_or_else(|| UnknownTool(name.to_owned()))?;
        Ok((entry.dispatch)(toolpack.clone(), entry.arguments.clone(), arguments).await)
    }

    /// The catalog as JSON: one object per tool with `name`, `title`, `description`,
    /// `toolset`, `inputSchema`, `outputSchema` and `annotations` (MCP field names), plus
    /// the input schema's host forms `strictInputSchema` (OpenAI strict mode; `null` when
    /// the input has none) and `geminiInputSchema` (Gemini function declarations).
    pub fn to_json(&self) -> Value {
        Value::Array(self.entries.iter().map(entry_json).collect())
    }
}

/// One tool's MCP fields, as [`Catalog::to_json`] lists them.
pub(crate) fn entry_json(entry: &ToolEntry) -> Value {
    let a = entry.spec.annotations;
    serde_json::json!({
        "name": entry.spec.name,
        "title": entry.spec.title,
        "description": entry.spec.description,
        "toolset": entry.spec.toolset.as_str(),
        "inputSchema": *entry.input_schema,
        "strictInputSchema": entry.strict_input_schema.as_deref(),
        "geminiInputSchema": *entry.gemini_input_schema,
        "outputSchema": *entry.output_schema,
        "annotations": {
            "title": entry.spec.title,
            "readOnlyHint": a.read_only,
            "destructiveHint": a.destructive,
            "idempotentHint": a.idempotent,
            "openWorldHint": a.open_world,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::ToolResult;
    use serde_json::json;

    #[test]
    fn the_mcp_json_text_is_the_mcp_json() {
        for (body, error_code) in [
            (
                json!({"code": "OK", "text": "quote \" and \\ and é\n"}),
                None,
            ),
            (
                json!({"code": "STATION_NOT_FOUND"}),
                Some("STATION_NOT_FOUND".to_owned()),
            ),
        ] {
            let result = ToolResult { body, error_code };
            let text = result.json_text(true);
            assert_eq!(
                serde_json::from_str::<serde_json::Value>(&text).unwrap(),
                result.to_mcp_json()
            );
            assert_eq!(text, result.to_mcp_json().to_string());
            assert_eq!(result.json_text(false), result.body.to_string());
        }
    }
}
