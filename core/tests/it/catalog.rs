//! The catalog: schemas, annotations, dispatch, and the guarantees every tool gets
//! (rate limit first, panics become the contract's internal error).

use serde_json::{Value, json};
use toolpack::tfl::{StationToiletLookupRequest, StationToiletToolResponse, StationToiletsCode};
use toolpack::{Annotations, Catalog, Config, Tool, ToolOutput, ToolSpec, Toolpack, Toolset};

fn toolpack() -> Toolpack {
    Toolpack::new(Config::default()).unwrap()
}

#[test]
fn every_tool_has_a_name_description_and_object_schemas() {
    let catalog = Catalog::get();
    assert!(!catalog.entries().is_empty());
    for entry in catalog.entries() {
        let name = entry.spec.name;
        assert!(
            entry.spec.description.len() > 80,
            "{name}: description too thin for an LLM"
        );
        assert_eq!(
            entry.input_schema.get("type"),
            Some(&json!("object")),
            "{name}"
        );
        assert_eq!(
            entry.output_schema.get("type"),
            Some(&json!("object")),
            "{name}"
        );
        assert!(
            !entry.input_schema.contains_key("$schema"),
            "{name}: $schema breaks some clients"
        );
        assert_eq!(catalog.find(name).map(|e| e.spec.name), Some(name));
    }
}

/// Every `description` in `schema`, with its JSON pointer.
fn descriptions(schema: &Value, at: String, out: &mut Vec<(String, String)>) {
    match schema {
        Value::Object(map) => {
            for (key, value) in map {
                if let (true, Some(text)) = (key == "description", value.as_str()) {
                    out.push((at.clone(), text.to_owned()));
                }
                descriptions(value, format!("{at}/{key}"), out);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                descriptions(item, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn no_doc_comment_opens_or_closes_a_block_comment() {
    // The doc comments of the contract types become KDoc and Swift doc comments in the
    // uniffi bindings, where `/*` opens a nested comment and `*/` ends one early.
    for entry in Catalog::get().entries() {
        let mut found = Vec::new();
        for schema in [&entry.input_schema, &entry.output_schema] {
            descriptions(
                &Value::Object((**schema).clone()),
                String::new(),
                &mut found,
            );
        }
        for (at, text) in found {
            assert!(
                !text.contains("/*") && !text.contains("*/"),
                "{} {at}: {text:?} would break the Kotlin and Swift sources",
                entry.spec.name
            );
        }
    }
}

#[test]
fn station_toilets_schemas_match_the_contract() {
    let entry = Catalog::get().find("stationToilets").unwrap();
    let input = Value::Object((*entry.input_schema).clone());
    assert_eq!(input["required"], json!(["stationName"]));
    assert_eq!(input["properties"]["stationName"]["type"], json!("string"));
    // Closed in the contract type; the served form leaves unknown fields to the core.
    assert_eq!(
        entry.input_type_schema["additionalProperties"],
        json!(false)
    );
    assert_eq!(input.get("additionalProperties"), None);
    let output = Value::Object((*entry.output_schema).clone());
    for field in [
        "success",
        "code",
        "message",
        "stationName",
        "stationUniqueId",
        "toilets",
        "stationDisambiguation",
    ] {
        assert!(
            output["properties"].get(field).is_some(),
            "output lacks {field}"
        );
    }
    let text = output.to_string();
    for code in [
        "OK",
        "VALIDATION_ERROR",
        "STATION_NOT_FOUND",
        "DISAMBIGUATION_REQUIRED",
        "RATE_LIMIT_EXCEEDED",
        "DATA_NOT_AVAILABLE",
        "INTERNAL_ERROR",
    ] {
        assert!(
            text.contains(&format!("\"{code}\"")),
            "output schema lacks code {code}"
        );
    }
    assert_eq!(entry.spec.toolset, Toolset::Tfl);
    assert!(entry.spec.annotations.read_only && entry.spec.annotations.idempotent);
    assert!(
        entry.missing_prerequisite(&Config::default()).is_none(),
        "needs no key"
    );
}

#[test]
fn catalog_json_carries_mcp_field_names() {
    let listed = Catalog::get().to_json();
    let tool = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "stationToilets")
        .unwrap();
    assert_eq!(tool["annotations"]["readOnlyHint"], json!(true));
    assert_eq!(tool["annotations"]["openWorldHint"], json!(false));
    assert_eq!(tool["inputSchema"]["type"], json!("object"));
    assert!(tool["outputSchema"]["properties"].is_object());
}

#[test]
fn the_contract_lists_every_tools_error_codes_each_of_a_known_kind() {
    let contract = Catalog::get().contract_json();
    let tools = contract["tools"].as_array().unwrap();
    assert_eq!(tools.len(), Catalog::get().entries().len());
    for tool in tools {
        let codes = tool["errorCodes"].as_array().unwrap();
        assert!(!codes.is_empty(), "{} lists no error code", tool["name"]);
        for code in codes {
            // A new code must be given a kind in `ErrorKind::of`, not fall into `other`.
            assert_ne!(
                code["kind"],
                json!("other"),
                "{}: {}",
                tool["name"],
                code["code"]
            );
        }
        assert!(tool["successSchema"].is_object() && tool["errorSchema"].is_object());
    }
    let names = |name: &str| -> Vec<String> {
        let tool = tools.iter().find(|t| t["name"] == name).unwrap();
        let codes = tool["errorCodes"].as_array().unwrap();
        codes
            .iter()
            .map(|c| c["code"].as_str().unwrap().to_owned())
            .collect()
    };
    // The success code of TfL's one shape is no error; a code named for one tool is
    // that tool's only.
    assert!(!names("planJourney").contains(&"OK".to_owned()));
    assert!(names("stationToilets").contains(&"STATION_NOT_FOUND".to_owned()));
    assert!(names("plan_trip").contains(&"no-itinerary-found".to_owned()));
    assert!(!names("find_stops").contains(&"no-itinerary-found".to_owned()));
    assert!(names("create_system").contains(&"ALREADY_EXISTS".to_owned()));
    let kinds = contract["errorKinds"].as_array().unwrap();
    assert_eq!(kinds.len(), toolpack::ErrorKind::ALL.len());
    let not_found = kinds.iter().find(|k| k["name"] == "not_found").unwrap();
    assert_eq!(not_found["python"], json!("NotFoundError"));
    assert_eq!(not_found["kotlin"], json!("ToolpackException.NotFound"));
    assert_eq!(not_found["swift"], json!("ToolpackError.notFound"));
}

#[tokio::test]
async fn unknown_tools_are_named() {
    let err = toolpack()
        .call_json("noSuchTool", json!({}))
        .await
        .unwrap_err();
    assert_eq!(err.to_string(), "unknown tool 'noSuchTool'");
}

#[tokio::test]
async fn non_object_arguments_are_validation_errors() {
    for arguments in [json!([]), json!("Abbey Wood"), json!(3)] {
        let result = toolpack()
            .call_json("stationToilets", arguments)
            .await
            .unwrap();
        assert_eq!(result.error_code.as_deref(), Some("VALIDATION_ERROR"));
        assert!(
            result.body["message"]
                .as_str()
                .unwrap()
                .starts_with("Arguments must be a JSON object")
        );
    }
}

#[tokio::test]
async fn typed_and_json_calls_agree() {
    let toolpack = toolpack();
    let typed = toolpack
        .station_toilets(StationToiletLookupRequest::new("Victoria"))
        .await;
    let json = toolpack
        .call_json("stationToilets", json!({"stationName": "Victoria"}))
        .await
        .unwrap();
    assert_eq!(serde_json::to_value(&typed).unwrap(), json.body);
    assert_eq!(typed.station_unique_id.as_deref(), Some("HUBVIC"));
}

/// A tool with the answer shape `O` (any family's) that always panics, to show the guard
/// every tool runs under.
struct Panics<O>(std::marker::PhantomData<fn() -> O>);

impl<O: ToolOutput> Tool for Panics<O> {
    type Input = StationToiletLookupRequest;
    type Output = O;
    const SPEC: ToolSpec = ToolSpec {
        name: "panicsForTest",
        title: "Panics",
        description: "Always panics.",
        summary: "t",
        needs: "",
        toolset: Toolset::Tfl,
        annotations: Annotations::READ_ONLY_LOCAL,
    };
    async fn run(_: &Toolpack, _: Self::Input) -> Self::Output {
        panic!("boom")
    }
}

#[tokio::test]
async fn a_panicking_tool_answers_internal_error_and_the_toolpack_lives_on() {
    let toolpack = toolpack();
    let answer = toolpack
        .call::<Panics<StationToiletToolResponse>>(StationToiletLookupRequest::new("x"))
        .await;
    assert_eq!(answer.code, StationToiletsCode::InternalError);
    assert!(!answer.success);
    assert_eq!(
        answer.message,
        "Unexpected error while looking up station toilets."
    );
    let after = toolpack
        .station_toilets(StationToiletLookupRequest::new("Abbey Wood"))
        .await;
    assert!(after.success);
}

/// The code a panicking tool of answer shape `O` answers.
async fn panic_code<O: ToolOutput>(toolpack: &Toolpack) -> Option<String> {
    let answer = toolpack
        .call::<Panics<O>>(StationToiletLookupRequest::new("x"))
        .await;
    answer.error_code().map(str::to_owned)
}

/// Every family's internal error is reachable only through a panic (no input makes one),
/// so `tests/unexercised-error-codes.json` lists them; this is where each is shown.
#[tokio::test]
async fn a_panic_answers_each_familys_internal_error() {
    let toolpack = toolpack();
    assert_eq!(
        panic_code::<StationToiletToolResponse>(&toolpack)
            .await
            .as_deref(),
        Some("INTERNAL_ERROR")
    );
    assert_eq!(
        panic_code::<
            toolpack::digitransit::DigitransitResponse<toolpack::digitransit::GeocodeAddressResult>,
        >(&toolpack)
        .await
        .as_deref(),
        Some("internal-error")
    );
    assert_eq!(
        panic_code::<toolpack::loko::LokoResponse<toolpack::loko::ValidateResult>>(&toolpack)
            .await
            .as_deref(),
        Some("INTERNAL_ERROR")
    );
}

#[tokio::test]
async fn station_data_loads_once_and_is_shared_by_clones() {
    let toolpack = toolpack();
    let clone = toolpack.clone();
    let (a, b) = tokio::join!(
        toolpack.station_toilets(StationToiletLookupRequest::new("Abbey Wood")),
        clone.station_toilets(StationToiletLookupRequest::new("Kings Cross")),
    );
    assert!(a.success && b.success);
}

#[test]
fn toolsets_parse_by_name() {
    assert_eq!(Toolset::parse(" TfL "), Some(Toolset::Tfl));
    assert_eq!(Toolset::parse("loko"), Some(Toolset::Loko));
    assert_eq!(Toolset::parse("weather"), None);
}

#[tokio::test]
async fn typed_calls_are_rate_limited_too() {
    let toolpack =
        Toolpack::new(Config::builder().rate_limit("stationToilets", 2).build()).unwrap();
    let request = || StationToiletLookupRequest::new("Abbey Wood");
    assert!(toolpack.station_toilets(request()).await.success);
    assert!(toolpack.station_toilets(request()).await.success);
    let refused = toolpack.station_toilets(request()).await;
    assert_eq!(refused.code, StationToiletsCode::RateLimitExceeded);
    assert_eq!(refused.message, "Rate limit exceeded for stationToilets.");
    assert!(refused.toilets.is_none() && refused.station_name.is_none());
}

#[test]
fn every_tool_a_view_names_is_a_catalog_tool_whose_view_it_is() {
    let mut with_views = 0;
    for view in toolpack::views::all() {
        assert!(view.uri.ends_with(view.name), "{}", view.uri);
        assert_eq!(
            toolpack::views::find(view.uri).map(|v| v.name),
            Some(view.name)
        );
        for tool in view.tools {
            let entry = Catalog::get().find(tool);
            let entry = entry.unwrap_or_else(|| panic!("{}: no tool {tool}", view.name));
            assert_eq!(entry.view().map(|v| v.uri), Some(view.uri), "{tool}");
            with_views += 1;
        }
    }
    let counted = Catalog::get()
        .entries()
        .iter()
        .filter(|e| e.view().is_some())
        .count();
    assert_eq!(counted, with_views, "no tool is in two views");
}

/// What the adapters' definitions cost is computed from the very schemas the libraries
/// hand their adapters (`Catalog::to_json`, which the Python and Node bindings return), and
/// the strict form falls back to the served one only where an input has no strict form.
#[test]
fn adapter_bytes_measure_what_the_bindings_hand_the_adapters() {
    use toolpack::AdapterSchema;
    let listed = Catalog::get().to_json();
    let listed = listed.as_array().expect("a list of tools");
    let mut strict_differs = 0;
    for (entry, tool) in Catalog::get().entries().iter().zip(listed) {
        let strict = match &tool["strictInputSchema"] {
            Value::Null => &tool["inputSchema"],
            given => {
                strict_differs += 1;
                given
            }
        };
        for (form, parameters) in [
            (AdapterSchema::Served, &tool["inputSchema"]),
            (AdapterSchema::Strict, strict),
            (AdapterSchema::Gemini, &tool["geminiInputSchema"]),
        ] {
            let definition = json!({
                "name": tool["name"],
                "description": tool["description"],
                "parameters": parameters,
            });
            assert_eq!(
                entry.adapter_bytes(form),
                serde_json::to_string(&definition).unwrap().len(),
                "{} {form:?}",
                entry.spec.name
            );
        }
    }
    assert!(strict_differs > 0, "some inputs have a strict form");
}
