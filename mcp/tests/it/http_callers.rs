//! Many callers on one HTTP server, with static tokens: each token is its own caller
//! (saved places, plan_trip by label, rate limits), scopes answer 403 with the step-up
//! challenge, the protected-resource metadata, per-request tool narrowing, and loko
//! fenced to its allowed roots.

use crate::common;

use serde_json::{Value, json};
use toolpack_mcp::http::{HttpOptions, parse_tokens, router};
use toolpack_mcp::{ToolpackServer, select_tools};
use toolpack_testkit::fake_upstream::FakeUpstream;

const TOKENS: &str = "alice:tok-alice, bob:tok-bob, reader:tok-reader toolpack:read";

/// A stateless server for `settings`, with the remote-caller selection, behind `TOKENS`.
async fn serve(settings: &[(&str, &str)]) -> String {
    let settings = common::settings(settings);
    let config = toolpack::Config::from_pairs(&settings).unwrap();
    let selection = select_tools(&config, None)
        .unwrap()
        .for_remote_callers(&config, false)
        .unwrap();
    let server = ToolpackServer::new(toolpack::Toolpack::new(config).unwrap(), selection.tools);
    let options = HttpOptions {
        tokens: parse_tokens(TOKENS).unwrap(),
        stateless: true,
        ..HttpOptions::default()
    };
    let (app, _end) = router(server, &options);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    base
}

/// What one JSON-RPC POST got back.
struct Answer {
    status: u16,
    challenge: Option<String>,
    body: Value,
}

async fn rpc(base: &str, token: &str, headers: &[(&str, &str)], message: Value) -> Answer {
    let mut request = common::http_client()
        .post(format!("{base}/mcp"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .bearer_auth(token)
        .body(message.to_string());
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let challenge = response
        .headers()
        .get("www-authenticate")
        .map(|v| v.to_str().unwrap().to_owned());
    let text = response.text().await.unwrap();
    let body = serde_json::from_str(text.trim()).unwrap_or(Value::String(text));
    Answer {
        status,
        challenge,
        body,
    }
}

/// A `tools/call` of `tool` as the holder of `token`, with request `headers`.
async fn tool_call(
    base: &str,
    token: &str,
    headers: &[(&str, &str)],
    tool: &str,
    arguments: Value,
) -> Answer {
    let message = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                         "params": {"name": tool, "arguments": arguments}});
    rpc(base, token, headers, message).await
}

/// Calls `tool` as the holder of `token`; the tool's structured answer.
async fn call(base: &str, token: &str, tool: &str, arguments: Value) -> Value {
    let answer = tool_call(base, token, &[], tool, arguments).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    answer.body["result"]["structuredContent"].clone()
}

async fn listed(base: &str, token: &str, headers: &[(&str, &str)]) -> Vec<String> {
    let answer = rpc(
        base,
        token,
        headers,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    )
    .await;
    answer.body["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

fn place(name: &str, lat: f64) -> Value {
    json!({"key": "home", "type": "location", "value": {"lat": lat, "lon": 24.94, "name": name}})
}

#[tokio::test(flavor = "multi_thread")]
async fn each_token_has_its_own_saved_places_and_labels_resolve_to_them() {
    let fake = FakeUpstream::start(&toolpack_testkit::default_fixtures_dir())
        .await
        .unwrap();
    let data = tempfile::tempdir().unwrap();
    let base = serve(&[
        ("TOOLPACK_DATA_DIR", data.path().to_str().unwrap()),
        ("DIGITRANSIT_API_KEY", "k"),
        ("DIGITRANSIT_BASE_URL", &fake.base_url()),
        ("DIGITRANSIT_ROUTER", "hsl"),
    ])
    .await;
    let saved = call(
        &base,
        "tok-alice",
        "save_user_variable",
        place("Alice's", 60.170384),
    )
    .await;
    assert_eq!(saved["variable"]["value"]["name"], "Alice's");
    // Bob lists nothing, and his save of the same key is a first save, not an overwrite.
    let bobs = call(&base, "tok-bob", "get_user_variables", json!({})).await;
    assert_eq!(bobs["variables"], json!([]));
    let saved = call(
        &base,
        "tok-bob",
        "save_user_variable",
        place("Bob's", 60.194445),
    )
    .await;
    assert!(saved.get("previous").is_none(), "{saved}");
    // Alice overwriting her own key sees her own previous value.
    let again = call(
        &base,
        "tok-alice",
        "save_user_variable",
        place("Alice's", 60.170384),
    )
    .await;
    assert_eq!(again["previous"]["key"], "home");
    let alices = call(&base, "tok-alice", "get_user_variables", json!({})).await;
    assert_eq!(alices["variables"].as_array().unwrap().len(), 1);
    assert_eq!(alices["variables"][0]["value"]["name"], "Alice's");
    // plan_trip from "home" starts at each caller's own home.
    for (token, lat) in [("tok-alice", 60.170384), ("tok-bob", 60.194445)] {
        fake.clear_requests();
        let trip = call(
            &base,
            token,
            "plan_trip",
            json!({"origin": {"type": "label", "value": "home"},
                   "destination": {"type": "coords", "value": {"lat": 60.194445, "lon": 24.904976}},
                   "when": {"type": "depart", "time": "2021-06-29T17:05:00+03:00"}}),
        )
        .await;
        assert_eq!(trip["origin"]["coordinate"]["lat"], lat, "{trip}");
        let sent: Value = serde_json::from_str(&fake.requests()[0].body).unwrap();
        assert_eq!(
            sent.pointer("/variables/origin/location/coordinate/latitude"),
            Some(&json!(lat))
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_call_beyond_the_callers_scopes_is_403_with_the_step_up_challenge() {
    let data = tempfile::tempdir().unwrap();
    let base = serve(&[("TOOLPACK_DATA_DIR", data.path().to_str().unwrap())]).await;
    // A read-only caller calls read-only tools and still lists every tool.
    let toilets = call(
        &base,
        "tok-reader",
        "stationToilets",
        json!({"stationName": "Victoria"}),
    )
    .await;
    assert_eq!(toilets["code"], "OK");
    assert!(
        listed(&base, "tok-reader", &[])
            .await
            .contains(&"save_user_variable".to_owned())
    );
    let refused = tool_call(
        &base,
        "tok-reader",
        &[],
        "save_user_variable",
        place("x", 60.0),
    )
    .await;
    assert_eq!(refused.status, 403);
    let host = base.trim_start_matches("http://");
    assert_eq!(
        refused.challenge.unwrap(),
        format!(
            "Bearer error=\"insufficient_scope\", scope=\"toolpack:write\", \
resource_metadata=\"http://{host}/.well-known/oauth-protected-resource/mcp\""
        )
    );
    // Nothing was saved.
    let everything = call(&base, "tok-alice", "get_user_variables", json!({})).await;
    assert_eq!(everything["variables"], json!([]));
}

#[tokio::test(flavor = "multi_thread")]
async fn unauthenticated_requests_get_the_resource_metadata_challenge() {
    let base = serve(&[]).await;
    let host = base.trim_start_matches("http://");
    let metadata_url = format!("http://{host}/.well-known/oauth-protected-resource/mcp");
    for token in ["", "tok-nobody"] {
        let answer = rpc(
            &base,
            token,
            &[],
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        )
        .await;
        assert_eq!(answer.status, 401);
        let challenge = answer.challenge.unwrap();
        assert!(challenge.starts_with("Bearer "), "{challenge}");
        assert!(
            challenge.contains(&format!("resource_metadata=\"{metadata_url}\"")),
            "{challenge}"
        );
        assert_eq!(
            challenge.contains("invalid_token"),
            !token.is_empty(),
            "{challenge}"
        );
    }
    for path in [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp",
    ] {
        let metadata: Value = common::http_client()
            .get(format!("{base}{path}"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(metadata["resource"], format!("http://{host}/mcp"));
        assert_eq!(
            metadata["scopes_supported"],
            json!(["toolpack:read", "toolpack:write"])
        );
        assert_eq!(metadata["bearer_methods_supported"], json!(["header"]));
        assert_eq!(metadata["authorization_servers"], json!([]));
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn one_callers_burst_leaves_the_others_budget_and_local_calls_are_unlimited() {
    let base = serve(&[("TOOLPACK_RATE_LIMIT_STATION_TOILETS", "2")]).await;
    let victoria = json!({"stationName": "Victoria"});
    // The burst at once: a limit of 2 per second refills a call every 500 ms, which calls
    // made one after the other on a busy machine can take.
    let burst = futures_util::future::join_all((0..4).map(|_| {
        let (base, victoria) = (base.clone(), victoria.clone());
        async move { call(&base, "tok-alice", "stationToilets", victoria).await["code"].clone() }
    }))
    .await;
    let mut codes: Vec<String> = burst
        .iter()
        .map(|code| code.as_str().unwrap_or_default().to_owned())
        .collect();
    codes.sort();
    assert_eq!(
        codes,
        ["OK", "OK", "RATE_LIMIT_EXCEEDED", "RATE_LIMIT_EXCEEDED"]
    );
    assert_eq!(
        call(&base, "tok-bob", "stationToilets", victoria.clone()).await["code"],
        "OK"
    );
    // With default settings, 200 concurrent local lookups from one caller are all answered.
    let open = serve(&[]).await;
    let answers = futures_util::future::join_all((0..200).map(|_| {
        let open = open.clone();
        let victoria = victoria.clone();
        async move { call(&open, "tok-alice", "stationToilets", victoria).await["code"].clone() }
    }))
    .await;
    assert!(answers.iter().all(|c| c == "OK"), "{answers:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn request_headers_narrow_the_tools_but_never_widen_them() {
    let base = serve(&[]).await;
    let all = listed(&base, "tok-alice", &[]).await;
    assert!(
        !all.contains(&"create_system".to_owned()),
        "loko needs allowed roots over HTTP"
    );
    let picked = listed(
        &base,
        "tok-alice",
        &[("x-mcp-tools", "stationToilets, create_system")],
    )
    .await;
    assert_eq!(picked, ["stationToilets"]);
    let read_only = listed(&base, "tok-alice", &[("x-mcp-readonly", "true")]).await;
    assert!(read_only.contains(&"get_user_variables".to_owned()));
    assert!(!read_only.contains(&"save_user_variable".to_owned()));
    let read_only = [("x-mcp-readonly", "1")];
    let refused = tool_call(
        &base,
        "tok-alice",
        &read_only,
        "save_user_variable",
        place("x", 60.0),
    )
    .await;
    assert!(
        refused.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("unknown tool"),
        "{}",
        refused.body
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn toolset_and_exclude_headers_choose_and_unknown_names_are_refused_with_the_valid_ones() {
    let base = serve(&[("TFL_API_KEY", "k"), ("DIGITRANSIT_API_KEY", "k")]).await;
    let tfl: Vec<String> = toolpack::Catalog::get()
        .entries()
        .iter()
        .filter(|e| e.spec.toolset == toolpack::Toolset::Tfl)
        .map(|e| e.spec.name.to_owned())
        .collect();
    assert_eq!(
        listed(&base, "tok-alice", &[("x-mcp-toolsets", "tfl")]).await,
        tfl
    );
    let without = listed(
        &base,
        "tok-alice",
        &[("x-mcp-exclude-tools", "planJourney")],
    )
    .await;
    assert!(!without.contains(&"planJourney".to_owned()));
    assert!(without.contains(&"stationToilets".to_owned()));
    assert!(without.contains(&"plan_trip".to_owned()));
    let both = listed(
        &base,
        "tok-alice",
        &[
            ("x-mcp-toolsets", "TfL, digitransit"),
            ("x-mcp-exclude-tools", "planJourney"),
        ],
    )
    .await;
    assert_eq!(both.len(), without.len());

    for (header, value, says) in [
        (
            "x-mcp-toolsets",
            "tfl,weather",
            "X-MCP-Toolsets: unknown toolset 'weather'; the toolsets are tfl, digitransit, loko",
        ),
        (
            "x-mcp-exclude-tools",
            "planjourney",
            "X-MCP-Exclude-Tools: unknown tool 'planjourney'; the tools are planJourney, ",
        ),
        (
            "x-mcp-tools",
            "stationToilet",
            "X-MCP-Tools: unknown tool 'stationToilet'",
        ),
    ] {
        let refused = rpc(
            &base,
            "tok-alice",
            &[(header, value)],
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        )
        .await;
        assert_eq!(refused.status, 400, "{}", refused.body);
        assert_eq!(refused.body["error"]["code"], -32602);
        let message = refused.body["error"]["message"].as_str().unwrap();
        assert!(message.starts_with(says), "{message}");
        // A call is refused the same way, before any tool runs.
        let call = tool_call(
            &base,
            "tok-alice",
            &[(header, value)],
            "lineStatus",
            json!({}),
        )
        .await;
        assert_eq!(call.status, 400);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn loko_over_http_stays_inside_its_allowed_roots() {
    let (root, elsewhere) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let base = serve(&[("LOKO_ALLOWED_ROOTS", root.path().to_str().unwrap())]).await;
    assert!(
        listed(&base, "tok-alice", &[])
            .await
            .contains(&"create_system".to_owned())
    );
    let outside = call(
        &base,
        "tok-alice",
        "create_system",
        json!({"project_path": elsewhere.path(), "name": "Shop"}),
    )
    .await;
    assert_eq!(outside["error"]["code"], "PERMISSION_DENIED", "{outside}");
    assert_eq!(
        std::fs::read_dir(elsewhere.path()).unwrap().count(),
        0,
        "nothing written"
    );
    let inside = call(
        &base,
        "tok-alice",
        "create_system",
        json!({"project_path": root.path(), "name": "Shop"}),
    )
    .await;
    assert!(inside.get("error").is_none(), "{inside}");
}

/// The URIs `resources/list` gives the holder of `token` with request `headers`.
async fn views_listed(base: &str, token: &str, headers: &[(&str, &str)]) -> Vec<String> {
    let message = json!({"jsonrpc": "2.0", "id": 1, "method": "resources/list"});
    let answer = rpc(base, token, headers, message).await;
    answer.body["result"]["resources"]
        .as_array()
        .unwrap_or_else(|| panic!("{}", answer.body))
        .iter()
        .map(|r| r["uri"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_caller_sees_only_the_views_of_the_tools_it_may_call() {
    // No keys and no loko roots: of the view tools, stationToilets and the live TfL tools
    // (which need no key) are served.
    let base = serve(&[]).await;
    assert_eq!(
        views_listed(&base, "tok-reader", &[]).await,
        [
            "ui://toolpack/toilets",
            "ui://toolpack/lines",
            "ui://toolpack/arrivals",
            "ui://toolpack/timetable",
            "ui://toolpack/crowding"
        ]
    );
    let narrowed = [("x-mcp-tools", "get_user_variables")];
    assert!(views_listed(&base, "tok-alice", &narrowed).await.is_empty());
    let read = |uri: &str| json!({"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {"uri": uri}});
    let refused = rpc(&base, "tok-alice", &[], read("ui://toolpack/architecture")).await;
    assert_eq!(refused.body["error"]["code"], -32002, "{}", refused.body);
    let refused = rpc(&base, "tok-alice", &narrowed, read("ui://toolpack/toilets")).await;
    assert_eq!(refused.body["error"]["code"], -32002, "{}", refused.body);
    let page = rpc(&base, "tok-alice", &[], read("ui://toolpack/toilets")).await;
    let item = &page.body["result"]["contents"][0];
    assert_eq!(item["mimeType"], "text/html;profile=mcp-app");
    assert!(
        item["text"]
            .as_str()
            .unwrap()
            .starts_with("<!doctype html>")
    );
    // Without a session, a client that says in the request it shows views is told the
    // tool's view; one that does not is not.
    let tools = |meta: Value| json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"_meta": meta}});
    let extension = json!({"io.modelcontextprotocol/clientCapabilities":
        {"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}}});
    let toilets_meta = |answer: Answer| {
        answer.body["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "stationToilets")
            .unwrap()["_meta"]
            .clone()
    };
    let with = toilets_meta(rpc(&base, "tok-alice", &[], tools(extension)).await);
    assert_eq!(with["ui"]["resourceUri"], "ui://toolpack/toilets");
    let without = toilets_meta(rpc(&base, "tok-alice", &[], tools(json!({}))).await);
    assert_eq!(without, Value::Null);
}
