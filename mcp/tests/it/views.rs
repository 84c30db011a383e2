//! The MCP Apps views over MCP: `_meta.ui.resourceUri` only for clients that announce the
//! extension, the views as resources (listed and read, with their mime type and CSP), and
//! only the views of tools the caller may call.

use crate::common;

use std::collections::BTreeMap;

use rmcp::model::{
    CacheScope, ClientCapabilities, ClientConfig, Implementation, ReadResourceRequestParams,
    ResourceContents,
};
use rmcp::service::{RoleClient, RunningService};
use serde_json::{Value, json};
use toolpack::views::{self, EXTENSION_ID, MIME_TYPE};

/// A client that announces the MCP Apps extension.
fn host_of_views() -> ClientConfig {
    let mut capabilities = ClientCapabilities::default();
    let ui = json!({ "mimeTypes": [MIME_TYPE] });
    capabilities.extensions =
        Some([(EXTENSION_ID.to_owned(), ui.as_object().unwrap().clone())].into());
    ClientConfig::new(capabilities, Implementation::new("views-test", "1"))
}

fn with_keys() -> BTreeMap<String, String> {
    common::settings(&[("TFL_API_KEY", "k"), ("DIGITRANSIT_API_KEY", "k")])
}

async fn views_of(
    client: &RunningService<RoleClient, impl rmcp::ClientHandler>,
) -> Vec<(String, Option<String>)> {
    client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|tool| {
            let uri = tool
                .meta
                .as_ref()
                .and_then(|m| m.get("ui"))
                .map(|ui| ui["resourceUri"].as_str().unwrap().to_owned());
            if let Some(uri) = &uri {
                let flat = tool.meta.as_ref().unwrap().get("ui/resourceUri");
                assert_eq!(
                    flat,
                    Some(&Value::from(uri.as_str())),
                    "{}: the older key too",
                    tool.name
                );
            }
            (tool.name.to_string(), uri)
        })
        .collect()
}

#[tokio::test]
async fn a_client_that_shows_views_is_told_each_tools_view_and_others_are_not() {
    let host = common::duplex_client(common::server_with(&with_keys()), host_of_views()).await;
    let listed = views_of(&host).await;
    for (tool, uri) in &listed {
        let expected = views::of_tool(tool).map(|v| v.uri.to_owned());
        assert_eq!(uri, &expected, "{tool}");
    }
    let with_views = listed.iter().filter(|(_, uri)| uri.is_some()).count();
    assert_eq!(
        with_views, 12,
        "planJourney, plan_trip, get_departures, query_architecture, query_project, \
         stationToilets, lineStatus, arrivals, get_alerts, timetable, crowding, \
         vehicle_positions"
    );

    let plain = common::duplex_client(common::server_with(&with_keys()), ()).await;
    let listed = views_of(&plain).await;
    assert!(
        listed.iter().all(|(_, uri)| uri.is_none()),
        "no _meta for a client without the extension"
    );
    // Everything else is the same list.
    let names =
        |l: &[(String, Option<String>)]| l.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&listed), names(&views_of(&host).await));
}

#[tokio::test]
async fn the_views_are_resources_with_their_mime_type_csp_and_page() {
    let client = common::duplex_client(common::server_with(&with_keys()), ()).await;
    let listed = client.list_resources(None).await.unwrap();
    // Fixed for the life of the process; who sees which depends on the caller.
    assert_eq!(listed.ttl_ms, Some(3_600_000));
    assert_eq!(listed.cache_scope, Some(CacheScope::Private));
    let resources = listed.resources;
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(uris, views::all().iter().map(|v| v.uri).collect::<Vec<_>>());
    for resource in &resources {
        assert_eq!(resource.mime_type.as_deref(), Some(MIME_TYPE));
        let csp = &resource.meta.as_ref().unwrap()["ui"]["csp"];
        assert_eq!(csp, &json!({ "connectDomains": [], "resourceDomains": [] }));
        let read = client
            .read_resource(ReadResourceRequestParams::new(resource.uri.clone()))
            .await
            .unwrap();
        // A page is the same for every caller.
        assert_eq!(read.ttl_ms, Some(3_600_000));
        assert_eq!(read.cache_scope, Some(CacheScope::Public));
        let [
            ResourceContents::TextResourceContents {
                uri,
                mime_type,
                text,
                meta,
            },
        ] = read.contents.as_slice()
        else {
            panic!("one text item: {:?}", read.contents);
        };
        assert_eq!(uri, &resource.uri);
        assert_eq!(mime_type.as_deref(), Some(MIME_TYPE));
        assert_eq!(
            &meta.as_ref().unwrap()["ui"]["csp"],
            csp,
            "the CSP is on the read item too"
        );
        assert_eq!(text, views::find(uri).unwrap().html());
    }
}

/// The JSON-RPC error `client` gets reading a view that does not exist.
async fn unknown_read<H: rmcp::handler::client::ClientHandler>(
    client: &RunningService<RoleClient, H>,
) -> rmcp::model::ErrorCode {
    let error = client
        .read_resource(ReadResourceRequestParams::new("ui://toolpack/nope"))
        .await
        .unwrap_err();
    let rmcp::ServiceError::McpError(error) = error else {
        panic!("a JSON-RPC error: {error:?}");
    };
    error.code
}

#[tokio::test]
async fn an_unknown_resource_is_resource_not_found() {
    let client = common::duplex_client(common::server_with(&with_keys()), ()).await;
    assert_eq!(
        unknown_read(&client).await,
        rmcp::model::ErrorCode::RESOURCE_NOT_FOUND
    );
    // A client on 2026-07-28 gets that version's invalid-params code (docs/views.md).
    let later = common::duplex_client_on_2026_07_28(
        common::server_with(&with_keys()),
        (),
        ClientCapabilities::default(),
    );
    assert_eq!(
        unknown_read(&later).await,
        rmcp::model::ErrorCode::INVALID_PARAMS
    );
}

#[tokio::test]
async fn only_the_views_of_served_tools_are_resources() {
    // Without keys, planJourney, plan_trip and get_departures are not served: the journey
    // and departures views are not either (the live TfL tools need no key: theirs are).
    let client = common::duplex_client(common::server_with(&BTreeMap::new()), ()).await;
    let uris: Vec<String> = client
        .list_all_resources()
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.uri)
        .collect();
    assert_eq!(
        uris,
        [
            "ui://toolpack/architecture",
            "ui://toolpack/toilets",
            "ui://toolpack/lines",
            "ui://toolpack/arrivals",
            "ui://toolpack/timetable",
            "ui://toolpack/crowding"
        ]
    );
    let refused = client
        .read_resource(ReadResourceRequestParams::new("ui://toolpack/journey"))
        .await;
    assert!(
        refused.is_err(),
        "a view of a tool not served is not read either"
    );
}
