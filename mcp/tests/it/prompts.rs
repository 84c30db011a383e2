//! The catalog's prompts over MCP with rmcp's client: listed where their tools are
//! served, rendered with their arguments, refused without a required one, and completed
//! from the station data (offline), the geocoder (through the fake upstream) and a loko
//! project; the server declares prompts, completions and logging.

use crate::common;

use std::collections::HashMap;

use rmcp::model::{
    ArgumentInfo, CompleteRequestParams, CompletionContext, GetPromptRequestParams, Reference,
};
use serde_json::json;
use toolpack_testkit::FakeUpstream;

async fn everything(fake: &FakeUpstream) -> common::Client {
    let base = fake.base_url();
    let settings = common::settings(&[
        ("TFL_API_KEY", "k"),
        ("TFL_API_BASE_URL", &base),
        ("DIGITRANSIT_API_KEY", "k"),
        ("DIGITRANSIT_BASE_URL", &base),
        ("DIGITRANSIT_ROUTER", "hsl"),
    ]);
    common::duplex_client(common::server_with(&settings), ()).await
}

async fn fake() -> FakeUpstream {
    FakeUpstream::start(&toolpack_testkit::default_fixtures_dir())
        .await
        .unwrap()
}

async fn complete(
    client: &common::Client,
    prompt: &str,
    argument: &str,
    typed: &str,
    context: &[(&str, &str)],
) -> Result<Vec<String>, String> {
    let mut request = CompleteRequestParams::new(
        Reference::for_prompt(prompt),
        ArgumentInfo::new(argument, typed),
    );
    if !context.is_empty() {
        let arguments: HashMap<String, String> = context
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        request.context = Some(CompletionContext::with_arguments(arguments));
    }
    client
        .complete(request)
        .await
        .map(|answer| answer.completion.values)
        .map_err(|e| e.to_string())
}

#[tokio::test]
async fn prompts_are_listed_where_their_tools_are_served() {
    let fake = fake().await;
    let client = everything(&fake).await;
    let capabilities = client.peer_info().unwrap().capabilities.clone();
    assert!(capabilities.prompts.is_some() && capabilities.completions.is_some());
    assert!(
        capabilities.logging.is_some(),
        "the server sends log messages"
    );
    let page = client.list_prompts(None).await.unwrap();
    assert_eq!(
        page.ttl_ms,
        Some(3_600_000),
        "a cache hint, as tools and resources have"
    );
    assert_eq!(page.cache_scope, Some(rmcp::model::CacheScope::Private));
    let listed = client.list_all_prompts().await.unwrap();
    let names: Vec<&str> = listed.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "london_journey",
            "station_facilities",
            "next_trains",
            "departures",
            "explain_loko_project"
        ]
    );
    let journey = &listed[0];
    let arguments = journey.arguments.as_ref().unwrap();
    assert_eq!(arguments[0].name, "from");
    assert_eq!(arguments[0].required, Some(true));
    assert_eq!(arguments[2].required, Some(false));

    // Without keys: only the prompts whose tools need none (stationToilets, liftOutages,
    // arrivals, lineStatus, the loko tools).
    let keyless = common::duplex_client(common::server_with(&common::settings(&[])), ()).await;
    let names: Vec<String> = keyless
        .list_all_prompts()
        .await
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(
        names,
        ["station_facilities", "next_trains", "explain_loko_project"]
    );
}

#[tokio::test]
async fn a_prompt_renders_its_arguments_and_refuses_without_a_required_one() {
    let fake = fake().await;
    let client = everything(&fake).await;
    let arguments = json!({"from": "Bank", "to": "Edgware Road", "step_free": "yes"});
    let prompt = client
        .get_prompt(
            GetPromptRequestParams::new("london_journey")
                .with_arguments(arguments.as_object().unwrap().clone()),
        )
        .await
        .unwrap();
    let message = serde_json::to_value(&prompt.messages[0]).unwrap();
    assert_eq!(message["role"], "user");
    let text = message["content"]["text"].as_str().unwrap();
    assert!(
        text.starts_with("Plan a journey in London from Bank to Edgware Road, step-free"),
        "{text}"
    );
    let missing = client
        .get_prompt(
            GetPromptRequestParams::new("london_journey")
                .with_arguments(json!({"from": "Bank"}).as_object().unwrap().clone()),
        )
        .await
        .unwrap_err()
        .to_string();
    assert!(missing.contains("needs the argument 'to'"), "{missing}");
    let unknown = client
        .get_prompt(GetPromptRequestParams::new("nope"))
        .await
        .unwrap_err()
        .to_string();
    assert!(unknown.contains("unknown prompt 'nope'"), "{unknown}");
}

#[tokio::test]
async fn arguments_complete_from_stations_stops_and_a_loko_project() {
    let fake = fake().await;
    let client = everything(&fake).await;
    assert_eq!(
        complete(&client, "london_journey", "from", "edgw", &[])
            .await
            .unwrap(),
        ["Edgware", "Edgware Road"]
    );
    assert!(
        complete(&client, "london_journey", "step_free", "y", &[])
            .await
            .unwrap()
            .is_empty(),
        "an argument with no source completes to nothing"
    );
    // Stops through the geocoder: names with the stop id get_departures takes.
    let stops = complete(&client, "departures", "stop", "airport", &[])
        .await
        .unwrap();
    assert!(
        !stops.is_empty()
            && stops
                .iter()
                .all(|s| s.ends_with(')') && s.contains(" (HSL:")),
        "{stops:?}"
    );
    let geocoded = fake
        .requests()
        .iter()
        .filter(|r| r.path.starts_with("/geocoding"))
        .count();
    assert_eq!(geocoded, 1);
    // The same text again is served from the upstream layer's cache.
    complete(&client, "departures", "stop", "airport", &[])
        .await
        .unwrap();
    let again = fake
        .requests()
        .iter()
        .filter(|r| r.path.starts_with("/geocoding"))
        .count();
    assert_eq!(again, 1, "one upstream request serves both");
    assert!(
        complete(&client, "departures", "stop", "a", &[])
            .await
            .unwrap()
            .is_empty()
    );

    // loko element ids need the project first.
    let project = toolpack_testkit::tests_dir().join("data/loko/v03-graph");
    let project = project.to_str().unwrap();
    let elements = complete(
        &client,
        "explain_loko_project",
        "element",
        "car",
        &[("project_path", project)],
    )
    .await
    .unwrap();
    assert_eq!(elements, ["shop/api/cart"]);
    let needs = complete(&client, "explain_loko_project", "element", "car", &[])
        .await
        .unwrap_err();
    assert!(needs.contains("complete 'project_path' first"), "{needs}");
    for (prompt, argument) in [
        ("london_journey", "via"),
        ("test_prompt_with_arguments", "arg1"),
    ] {
        let nothing = complete(&client, prompt, argument, "x", &[]).await.unwrap();
        assert!(
            nothing.is_empty(),
            "an argument nobody has completes to nothing"
        );
    }
}
