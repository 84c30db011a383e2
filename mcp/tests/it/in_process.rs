//! A real rmcp client talking to the server over an in-process duplex transport.

use crate::common;

use std::collections::BTreeMap;

use rmcp::model::{CacheScope, Icon};
use serde_json::json;
use toolpack::{Catalog, Config, Toolpack};

use common::{Client, body_of, call, run_all_vectors};

async fn connect(settings: BTreeMap<String, String>) -> Client {
    common::duplex_client(common::server_with(&settings), ()).await
}

#[tokio::test]
async fn tools_list_carries_schemas_and_annotations_from_the_catalog() {
    let with_keys = [
        ("TFL_API_KEY".to_owned(), "k".to_owned()),
        ("DIGITRANSIT_API_KEY".to_owned(), "k".to_owned()),
    ]
    .into();
    let client = connect(with_keys).await;
    let tools = client.list_all_tools().await.unwrap();
    let catalog = Catalog::get();
    assert_eq!(tools.len(), catalog.entries().len());
    for tool in &tools {
        let entry = catalog
            .find(&tool.name)
            .expect("listed tools come from the catalog");
        assert_eq!(*tool.input_schema, *entry.input_schema);
        assert_eq!(
            tool.output_schema.as_deref(),
            Some(&toolpack::schema::compact_output(&entry.output_schema))
        );
        assert_eq!(tool.description.as_deref(), Some(entry.spec.description));
        // Each hint means what the catalog says, read with the spec's defaults; a hint equal
        // to its default is left out, and so is the title the tool already carries.
        let annotations = tool.annotations.as_ref().expect("annotations");
        let spec = entry.spec.annotations;
        assert_eq!(annotations.title, None);
        assert_eq!(annotations.read_only_hint.unwrap_or(false), spec.read_only);
        assert_ne!(annotations.read_only_hint, Some(false));
        if spec.read_only {
            assert_eq!(annotations.destructive_hint, None);
            assert_eq!(annotations.idempotent_hint, None);
        } else {
            assert_eq!(
                annotations.destructive_hint.unwrap_or(true),
                spec.destructive
            );
            assert_ne!(annotations.destructive_hint, Some(true));
            assert_eq!(
                annotations.idempotent_hint.unwrap_or(false),
                spec.idempotent
            );
            assert_ne!(annotations.idempotent_hint, Some(false));
        }
        assert_eq!(annotations.open_world_hint.unwrap_or(true), spec.open_world);
        assert_ne!(annotations.open_world_hint, Some(true));
        assert_eq!(tool.title.as_deref(), Some(entry.spec.title));
    }
}

/// The SVG of the one `data:` icon in `icons`.
fn svg_of(icons: Option<&[Icon]>) -> String {
    use base64::Engine;
    let [icon] = icons.expect("icons") else {
        panic!("one icon: {icons:?}");
    };
    assert_eq!(icon.mime_type.as_deref(), Some("image/svg+xml"));
    assert_eq!(icon.sizes, Some(vec!["any".to_owned()]));
    let data = icon
        .src
        .strip_prefix("data:image/svg+xml;base64,")
        .expect("a data: URI, nothing to fetch");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data)
        .unwrap();
    String::from_utf8(bytes).unwrap()
}

#[tokio::test]
async fn the_server_and_each_tool_carry_an_icon_and_the_server_its_title_and_site() {
    let client = connect(BTreeMap::new()).await;
    let info = client.peer_info().expect("initialised");
    let server = info
        .server_info
        .as_ref()
        .expect("the server's implementation info");
    assert_eq!(server.title.as_deref(), Some("toolpack"));
    // The instructions say what this server serves: without keys, no planJourney.
    let instructions = info.instructions.as_deref().expect("instructions");
    assert!(
        instructions.contains("toilets: stationToilets"),
        "{instructions}"
    );
    assert!(!instructions.contains("planJourney"), "{instructions}");
    assert!(instructions.len() <= 1_500, "{instructions}");
    assert_eq!(
        server.website_url.as_deref(),
        Some(env!("CARGO_PKG_HOMEPAGE"))
    );
    assert_eq!(
        svg_of(server.icons.as_deref()),
        toolpack::icons::TOOLPACK.trim_end()
    );
    let tools = client.list_all_tools().await.unwrap();
    assert!(!tools.is_empty());
    for tool in &tools {
        let entry = Catalog::get().find(&tool.name).unwrap();
        let family = toolpack::icons::of(entry.spec.toolset);
        assert_eq!(
            svg_of(tool.icons.as_deref()),
            family.trim_end(),
            "{}",
            tool.name
        );
    }
}

#[tokio::test]
async fn tools_list_answers_in_catalog_order_every_time_and_says_how_long_to_keep_it() {
    let client = connect(BTreeMap::new()).await;
    let first = client.list_tools(None).await.unwrap();
    let second = client.list_tools(None).await.unwrap();
    assert_eq!(first.tools, second.tools);
    let names: Vec<&str> = first.tools.iter().map(|t| &*t.name).collect();
    let in_catalog_order: Vec<&str> = Catalog::get()
        .entries()
        .iter()
        .map(|e| e.spec.name)
        .filter(|name| names.contains(name))
        .collect();
    assert_eq!(names, in_catalog_order);
    assert_eq!(first.ttl_ms, Some(3_600_000));
    assert_eq!(first.cache_scope, Some(CacheScope::Private));
}

#[tokio::test]
async fn without_a_key_plan_journey_is_not_served_but_station_toilets_is() {
    let client = connect(BTreeMap::new()).await;
    let names: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.to_string())
        .collect();
    assert!(names.contains(&"stationToilets".to_owned()), "{names:?}");
    assert!(!names.contains(&"planJourney".to_owned()), "{names:?}");
    // Every tool is served exactly when its prerequisites (an API key) are met: the
    // upstream tools need a key, the saved places and loko do not.
    let keyless = toolpack::Config::default();
    for entry in toolpack::Catalog::get().entries() {
        let served = names.iter().any(|name| name == entry.spec.name);
        let needs_a_key = entry.missing_prerequisite(&keyless).is_some();
        assert_eq!(served, !needs_a_key, "{}: {names:?}", entry.spec.name);
    }
    assert!(
        names.contains(&"save_user_variable".to_owned()),
        "{names:?}"
    );
    let err = client
        .call_tool(rmcp::model::CallToolRequestParams::new("planJourney"))
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("unknown tool 'planJourney'"),
        "{err}"
    );
}

#[tokio::test]
async fn every_vector_passes_in_process() {
    run_all_vectors(connect).await;
}

#[tokio::test]
async fn errors_are_tool_results_with_the_contract_json() {
    let client = connect(BTreeMap::new()).await;
    let (is_error, body) =
        body_of(&call(&client, "stationToilets", &json!({"stationName": "xyzzy"})).await);
    assert!(is_error);
    assert_eq!(body["code"], "STATION_NOT_FOUND");
    assert_eq!(body["success"], false);
}

#[tokio::test]
async fn the_cores_mcp_json_is_exactly_what_the_server_sends() {
    // The bindings' `call` returns `ToolResult::to_mcp_json`; it must equal rmcp's result.
    let client = connect(BTreeMap::new()).await;
    let toolpack = Toolpack::new(Config::default()).unwrap();
    for name in ["Abbey Wood", "xyzzy"] {
        let arguments = json!({ "stationName": name });
        let sent = call(&client, "stationToilets", &arguments).await;
        let core = toolpack
            .call_json("stationToilets", arguments)
            .await
            .unwrap();
        assert_eq!(
            serde_json::to_value(&sent).unwrap(),
            core.to_mcp_json(),
            "{name}"
        );
    }
}

#[tokio::test]
async fn missing_arguments_are_a_validation_error_not_a_protocol_error() {
    let client = connect(BTreeMap::new()).await;
    let (is_error, body) = body_of(&call(&client, "stationToilets", &json!(null)).await);
    assert!(is_error);
    assert_eq!(body["code"], "VALIDATION_ERROR");
}

#[tokio::test]
async fn unknown_tools_are_protocol_errors() {
    let client = connect(BTreeMap::new()).await;
    let err = client
        .call_tool(rmcp::model::CallToolRequestParams::new("noSuchTool"))
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("unknown tool 'noSuchTool'"),
        "{err}"
    );
}
