//! The built `toolpack-mcp` binary: stdio with a real rmcp client, streamable HTTP,
//! and the `tools` / `call` subcommands with their exit statuses.

use crate::common;

use std::collections::BTreeMap;
use std::process::{Command, Stdio};

use rmcp::ServiceExt;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

use common::{Client, body_of, call, run_all_vectors};

const BIN: &str = env!("CARGO_BIN_EXE_toolpack-mcp");

/// The binary with a clean environment (no HOME, no keys) plus `settings`.
fn command(settings: &BTreeMap<String, String>) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .envs(settings);
    cmd
}

async fn connect_stdio(settings: BTreeMap<String, String>) -> Client {
    let cmd = tokio::process::Command::from(command(&settings));
    let transport = TokioChildProcess::new(cmd).expect("binary starts");
    ().serve(transport)
        .await
        .expect("client connects over stdio")
}

#[tokio::test]
async fn every_vector_passes_over_stdio() {
    run_all_vectors(connect_stdio).await;
}

#[tokio::test]
async fn a_views_page_and_a_call_are_answered_over_stdio() {
    use rmcp::model::ReadResourceRequestParams;
    let client = connect_stdio(BTreeMap::new()).await;
    let read = client
        .read_resource(ReadResourceRequestParams::new("ui://toolpack/toilets"))
        .await
        .expect("the view's page");
    let read = serde_json::to_value(read).unwrap();
    let page = read["contents"][0]["text"].as_str().unwrap_or_default();
    assert!(
        page.len() > 100_000 && page.contains("<html"),
        "a page: {}",
        page.len()
    );
    let called = call(
        &client,
        "stationToilets",
        &json!({"stationName": "Abbey Wood"}),
    )
    .await;
    let (is_error, body) = body_of(&called);
    assert!(!is_error);
    assert_eq!(body["stationUniqueId"], "HUBABW");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn stdio_mode_writes_nothing_but_protocol_to_stdout() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    let mut child = tokio::process::Command::from(command(&BTreeMap::new()))
        .env("RUST_LOG", "debug")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let requests = [
        json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}),
        json!({"jsonrpc":"2.0","method":"notifications/initialized"}),
        json!({"jsonrpc":"2.0","id":2,"method":"tools/list"}),
        json!({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"stationToilets","arguments":{"stationName":"Abbey Wood"}}}),
        json!({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"stationToilets","arguments":{"stationName":""}}}),
    ];
    let mut stdin = child.stdin.take().unwrap();
    for request in &requests {
        stdin
            .write_all(format!("{request}\n").as_bytes())
            .await
            .unwrap();
    }
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut messages: Vec<Value> = Vec::new();
    let read_all = async {
        // Every stdout line must be a JSON-RPC message; stop once ids 1-4 are answered.
        while messages.iter().filter(|m| m.get("id").is_some()).count() < 4 {
            let line = lines.next_line().await.unwrap().expect("stdout stays open");
            let message: Value = serde_json::from_str(&line)
                .unwrap_or_else(|_| panic!("non-protocol stdout line: {line}"));
            assert_eq!(message["jsonrpc"], "2.0");
            messages.push(message);
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(30), read_all)
        .await
        .expect("answers within 30 s");
    drop(stdin);
    let answer = |id: u64| messages.iter().find(|m| m["id"] == id).unwrap();
    assert_eq!(
        answer(3)["result"]["structuredContent"]["stationUniqueId"],
        "HUBABW"
    );
    assert_eq!(answer(4)["result"]["isError"], true);
    assert_eq!(
        answer(4)["result"]["structuredContent"]["code"],
        "VALIDATION_ERROR"
    );
    let status = tokio::time::timeout(std::time::Duration::from_secs(10), child.wait())
        .await
        .expect("exits when stdin closes")
        .unwrap();
    assert!(status.success());
}

#[tokio::test]
async fn streamable_http_serves_tools_at_slash_mcp() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut server = tokio::process::Command::from(command(&BTreeMap::new()))
        .args(["serve", "--http", &format!("127.0.0.1:{port}")])
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let mut client = None;
    for _ in 0..200 {
        if let Ok(c) = ().serve(common::http_transport(url.clone())).await {
            client = Some(c);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let client = client.expect("HTTP server accepts an MCP client");
    let tools = client.list_all_tools().await.unwrap();
    assert!(
        tools
            .iter()
            .any(|t| t.name == "stationToilets" && t.output_schema.is_some())
    );
    for (station, expect_error, pointer, expected) in [
        ("Kings Cross", false, "/stationUniqueId", "HUBKGX"),
        ("Edgware Road", true, "/code", "DISAMBIGUATION_REQUIRED"),
    ] {
        let answer = call(
            &client,
            "stationToilets",
            &json!({ "stationName": station }),
        )
        .await;
        let (is_error, body) = body_of(&answer);
        assert_eq!(is_error, expect_error, "{station}");
        assert_eq!(body.pointer(pointer), Some(&json!(expected)), "{station}");
    }
    client.cancel().await.ok();
    server.kill().await.ok();
}

fn run(args: &[&str], settings: &[(&str, &str)]) -> (i32, Value, String) {
    let settings: BTreeMap<String, String> = settings
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    let output = command(&settings).args(args).output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let json = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    (
        output.status.code().unwrap(),
        json,
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn call_prints_the_result_and_exits_by_outcome() {
    let (code, body, _) = run(
        &[
            "call",
            "stationToilets",
            r#"{"stationName":"King's Cross"}"#,
        ],
        &[],
    );
    assert_eq!(
        (code, body["stationUniqueId"].as_str()),
        (0, Some("HUBKGX"))
    );

    let (code, body, _) = run(
        &["call", "stationToilets", r#"{"stationName":"xyzzy"}"#],
        &[],
    );
    assert_eq!(
        (code, body["code"].as_str()),
        (1, Some("STATION_NOT_FOUND"))
    );

    let (code, body, _) = run(
        &["call", "stationToilets", r#"{"stationName":"Abbey Wood"}"#],
        &[("TFL_STATION_DATA_DETAILED_DIR", "/nonexistent/toolpack")],
    );
    assert_eq!(
        (code, body["code"].as_str()),
        (1, Some("DATA_NOT_AVAILABLE"))
    );
}

#[test]
fn bad_usage_exits_2_with_a_message() {
    let (code, _, stderr) = run(&["call", "stationToilets", "{not json"], &[]);
    assert_eq!(code, 2);
    assert!(stderr.contains("not valid JSON"), "{stderr}");
    let (code, _, stderr) = run(&["call", "noSuchTool", "{}"], &[]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown tool 'noSuchTool'"), "{stderr}");
    let (code, _, stderr) = run(&["--toolsets", "weather"], &[]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown toolset 'weather'"), "{stderr}");
    let (code, _, stderr) = run(&["tools"], &[("TOOLPACK_UPSTREAM_TIMEOUT_MS", "soon")]);
    assert_eq!(code, 2);
    assert!(stderr.contains("TOOLPACK_UPSTREAM_TIMEOUT_MS"), "{stderr}");
    let (code, _, _) = run(&["frobnicate"], &[]);
    assert_eq!(code, 2);
}

#[test]
fn tools_prints_the_catalog_and_honours_toolsets() {
    let (code, tools, _) = run(&["tools"], &[]);
    assert_eq!(code, 0);
    let tools = tools.as_array().unwrap();
    let toilets = tools
        .iter()
        .find(|t| t["name"] == "stationToilets")
        .unwrap();
    assert_eq!(toilets["inputSchema"]["required"], json!(["stationName"]));
    assert!(toilets["outputSchema"]["properties"]["toilets"].is_object());
    let (code, only_loko, _) = run(&["tools", "--toolsets", "loko"], &[]);
    assert_eq!(code, 0);
    assert!(
        only_loko
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["toolset"] == "loko")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn keys_never_reach_any_output() {
    let fake = toolpack_testkit::FakeUpstream::start(&toolpack_testkit::default_fixtures_dir())
        .await
        .unwrap();
    let secret = "sk-test-never-print-me";
    let bank = r#"{"from":"Bank Underground Station","to":"Mile End Underground Station"}"#;
    let trip = r#"{"origin":{"type":"coords","value":{"lat":60.17,"lon":24.94}},"destination":{"type":"coords","value":{"lat":60.19,"lon":24.90}}}"#;
    let base = fake.base_url();
    let refused = "http://127.0.0.1:9".to_owned();
    for (args, base_url) in [
        (&["tools"][..], &base),
        (
            &["call", "stationToilets", r#"{"stationName":"Abbey Wood"}"#][..],
            &base,
        ),
        (&["call", "stationToilets", "{bad"][..], &base),
        (&["call", "planJourney", bank][..], &base),
        (
            &[
                "call",
                "planJourney",
                r#"{"from":"1000013","to":"nowhere"}"#,
            ][..],
            &base,
        ),
        (&["call", "planJourney", bank][..], &refused),
        (
            &["call", "geocode_address", r#"{"text":"kamppi"}"#][..],
            &base,
        ),
        (&["call", "geocode_address", r#"{"text":"!!!"}"#][..], &base),
        (&["call", "plan_trip", trip][..], &base),
        (&["call", "plan_trip", trip][..], &refused),
        (
            &[
                "call",
                "get_departures",
                r#"{"stop":{"type":"id","value":"HSL:2434202"}}"#,
            ][..],
            &base,
        ),
    ] {
        let settings: BTreeMap<String, String> = [
            ("TFL_API_KEY", secret),
            ("DIGITRANSIT_API_KEY", secret),
            ("TFL_API_BASE_URL", base_url.as_str()),
            ("DIGITRANSIT_BASE_URL", base_url.as_str()),
            ("DIGITRANSIT_ROUTER", "hsl"),
        ]
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
        let output = command(&settings)
            .args(args)
            .env("RUST_LOG", "trace")
            .output()
            .unwrap();
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(!all.contains(secret), "{args:?} printed the key");
        assert!(
            output.status.code().is_some_and(|c| c <= 2),
            "{args:?}: {all}"
        );
    }
    let sent = fake.requests();
    assert!(
        sent.iter()
            .any(|r| r.headers.get("app_key").map(String::as_str) == Some(secret)),
        "the key went out as the app_key header"
    );
    let digitransit = |r: &&toolpack_testkit::RecordedRequest| {
        r.headers
            .get("digitransit-subscription-key")
            .map(String::as_str)
            == Some(secret)
    };
    assert_eq!(
        sent.iter().filter(digitransit).count(),
        4,
        "each Digitransit call sent the key as its header"
    );
    assert!(
        sent.iter()
            .all(|r| !r.path.contains(secret) && !r.query.values().any(|v| v.contains(secret)))
    );
}

#[test]
fn plan_journey_needs_the_tfl_key_to_be_served() {
    let (code, _, stderr) = run(&["--toolsets", "tfl"], &[]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("toolset 'tfl' cannot start: TFL_API_KEY is not set"),
        "{stderr}"
    );
    let (code, tools, stderr) = run(&["tools"], &[]);
    assert_eq!(code, 0);
    assert!(
        stderr.contains("planJourney not served: TFL_API_KEY is not set"),
        "{stderr}"
    );
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(names.contains(&"stationToilets") && !names.contains(&"planJourney"));
    let (code, tools, stderr) = run(&["tools", "--toolsets", "tfl"], &[("TFL_API_KEY", "k")]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        tools
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "planJourney")
    );
    let (code, _, stderr) = run(&["call", "planJourney", r#"{"from":"a","to":"b"}"#], &[]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("planJourney cannot run: TFL_API_KEY is not set"),
        "{stderr}"
    );
}

#[test]
fn two_processes_writing_saved_places_at_once_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let settings: BTreeMap<String, String> = [(
        "TOOLPACK_DATA_DIR".to_owned(),
        dir.path().to_string_lossy().into_owned(),
    )]
    .into();
    // Two writer processes at a time, 12 rounds: 24 processes, each saving its own key
    // (the first round also races to create and migrate the database).
    for round in 0..12 {
        let writers: Vec<_> = ["a", "b"]
            .iter()
            .map(|who| {
                let arguments =
                    json!({"key": format!("{who}{round:02}"), "type": "other", "value": who});
                command(&settings)
                    .args(["call", "save_user_variable", &arguments.to_string()])
                    .stdout(Stdio::null())
                    .spawn()
                    .expect("binary starts")
            })
            .collect();
        for mut writer in writers {
            assert!(writer.wait().unwrap().success());
        }
    }
    let output = command(&settings)
        .args(["call", "get_user_variables"])
        .output()
        .unwrap();
    let body: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(body["variables"].as_array().unwrap().len(), 24, "{body}");
}

#[test]
fn a_public_address_without_tokens_is_refused_unless_allowed() {
    let (code, _, stderr) = run(&["serve", "--http", "0.0.0.0:0"], &[]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("refusing to serve 0.0.0.0:0 without authentication")
            && stderr.contains("TOOLPACK_HTTP_TOKENS"),
        "{stderr}"
    );
    let (code, _, stderr) = run(
        &["serve", "--http", "0.0.0.0:0"],
        &[("TOOLPACK_HTTP_TOKENS", "@/no/such/tokens")],
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot read the token file"), "{stderr}");
}

/// Starts `toolpack-mcp serve --http` on a free loopback port (plus `extra` arguments);
/// returns the child and the base URL once `/healthz` answers.
async fn start_http(
    settings: &BTreeMap<String, String>,
    extra: &[&str],
) -> (tokio::process::Child, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = tokio::process::Command::from(command(settings))
        .args(["serve", "--http", &format!("127.0.0.1:{port}")])
        .args(extra)
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let base = format!("http://127.0.0.1:{port}");
    assert!(
        toolpack_testkit::wait_until_healthy(&base).await,
        "the HTTP server did not start"
    );
    (child, base)
}

#[tokio::test(flavor = "multi_thread")]
async fn sigterm_lets_the_call_in_flight_finish_then_exits() {
    let fake = toolpack_testkit::FakeUpstream::start(&toolpack_testkit::default_fixtures_dir())
        .await
        .unwrap();
    fake.push_scenario(toolpack_testkit::Scenario::on("/geocoding").delay_ms(1500));
    let settings: BTreeMap<String, String> = [
        ("DIGITRANSIT_API_KEY", "k"),
        ("DIGITRANSIT_BASE_URL", fake.base_url().as_str()),
    ]
    .iter()
    .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
    .collect();
    let (mut child, base) = start_http(&settings, &["--shutdown-grace-ms", "5000"]).await;
    let client = ().serve(common::http_transport(format!("{base}/mcp"))).await.unwrap();
    let call =
        tokio::spawn(
            async move { call(&client, "geocode_address", &json!({"text": "kamppi"})).await },
        );
    // SIGTERM only once the call is in flight: its upstream request has arrived.
    for _ in 0..400 {
        if !fake.requests().is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(fake.requests().len(), 1, "the call reached the upstream");
    let pid = child.id().unwrap().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let answer = tokio::time::timeout(std::time::Duration::from_secs(10), call)
        .await
        .expect("the call in flight is answered")
        .unwrap();
    let (is_error, body) = body_of(&answer);
    assert!(!is_error, "{body}");
    assert_eq!(body["results"][0]["name"], "Kamppi");
    let status = tokio::time::timeout(std::time::Duration::from_secs(8), child.wait())
        .await
        .expect("exits after the call")
        .unwrap();
    assert!(status.success(), "{status:?}");
    // No new connection is accepted any more.
    assert!(
        common::http_client()
            .get(format!("{base}/healthz"))
            .send()
            .await
            .is_err()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn call_shows_upstream_retries_on_stderr() {
    let fake = toolpack_testkit::FakeUpstream::start(&toolpack_testkit::default_fixtures_dir())
        .await
        .unwrap();
    fake.push_scenario(
        toolpack_testkit::Scenario::on("/geocoding")
            .status(503)
            .times(1),
    );
    let base = fake.base_url();
    let (code, body, stderr) = tokio::task::spawn_blocking(move || {
        let settings = [
            ("DIGITRANSIT_API_KEY", "sk-not-in-stderr"),
            ("DIGITRANSIT_BASE_URL", base.as_str()),
        ];
        run(
            &["call", "geocode_address", r#"{"text":"kamppi"}"#],
            &settings,
        )
    })
    .await
    .unwrap();
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(body["results"][0]["name"], "Kamppi");
    assert!(
        stderr.contains("Warning") && stderr.contains("answered HTTP 503; retrying"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("sk-not-in-stderr") && !stderr.contains("kamppi"),
        "{stderr}"
    );
}

/// The stderr lines `serve --http` prints before it is ready, with `settings` and `extra`.
async fn http_startup_lines(settings: &[(&str, &str)], extra: &[&str]) -> Vec<String> {
    use tokio::io::AsyncBufReadExt;
    let (mut child, _base) = start_http(&common::settings(settings), extra).await;
    let stderr = child.stderr.take().unwrap();
    let mut lines = tokio::io::BufReader::new(stderr).lines();
    let mut seen = Vec::new();
    while let Ok(Some(line)) = lines.next_line().await {
        let ready = line.contains("serving MCP at");
        seen.push(line);
        if ready {
            break;
        }
    }
    child.kill().await.ok();
    seen
}

#[tokio::test(flavor = "multi_thread")]
async fn over_http_loko_is_served_only_inside_allowed_roots_and_flags_narrow_the_tools() {
    let lines = http_startup_lines(&[], &[]).await;
    assert!(
        lines.iter().any(|l| l.contains("create_system not served")
            && l.contains("LOKO_ALLOWED_ROOTS is not set")),
        "{lines:?}"
    );
    let root = tempfile::tempdir().unwrap();
    let fenced = http_startup_lines(
        &[("LOKO_ALLOWED_ROOTS", root.path().to_str().unwrap())],
        &[],
    )
    .await;
    assert!(
        !fenced.iter().any(|l| l.contains("not served: LOKO")),
        "{fenced:?}"
    );
    // Naming loko explicitly over HTTP without roots stops start-up.
    let (code, _, stderr) = run(
        &["serve", "--http", "127.0.0.1:0", "--toolsets", "loko"],
        &[],
    );
    assert_eq!(code, 2);
    assert!(
        stderr.contains("toolset 'loko' cannot start: LOKO_ALLOWED_ROOTS"),
        "{stderr}"
    );
    // stdio keeps them: `tools` lists the loko tools with no roots set.
    let (_, tools, _) = run(
        &["tools", "--read-only", "--exclude-tools", "validate"],
        &[],
    );
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"query_project") && !names.contains(&"validate"),
        "{names:?}"
    );
    assert!(!names.contains(&"create_system") && !names.contains(&"save_user_variable"));
    let (code, _, stderr) = run(&["tools", "--tools", "stationToilet"], &[]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown tool 'stationToilet'"), "{stderr}");
}
