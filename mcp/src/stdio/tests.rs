//! The lines written by [`super::serve`] are rmcp's: each exchange is run over this
//! transport and over rmcp's own (`AsyncRwTransport`), and the lines compared.

use rmcp::ServiceExt;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};

use crate::ToolpackServer;

/// The view every case reads (the toilets page, ~330 KB).
const VIEW: &str = "ui://toolpack/toilets";

/// A server of every tool with its bundled data, and no upstream.
fn server() -> ToolpackServer {
    let config = toolpack::Config::builder().default_rate_limit(0).build();
    let tools = crate::select_tools(&config, None).expect("tools").tools;
    ToolpackServer::new(toolpack::Toolpack::new(config).expect("a toolpack"), tools)
}

/// The client's end of a server served over this transport or, `ours` false, rmcp's.
fn serve(ours: bool) -> DuplexStream {
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        let running = if ours {
            let (read, write) = tokio::io::split(server_io);
            super::serve(server(), read, write).await
        } else {
            server().serve(server_io).await
        };
        let _ = running.expect("a running server").waiting().await;
    });
    client_io
}

/// Sends each of `lines` and reads the line of each answer (`None` for a notification,
/// which has none); ends the input and reads until the server closes its output.
async fn exchange(ours: bool, lines: &[(String, bool)]) -> Vec<String> {
    let (read, mut write) = tokio::io::split(serve(ours));
    let mut read = BufReader::new(read);
    let mut answers = Vec::new();
    for (line, answered) in lines {
        write.write_all(line.as_bytes()).await.unwrap();
        write.write_all(b"\n").await.unwrap();
        if *answered {
            let mut answer = String::new();
            read.read_line(&mut answer).await.unwrap();
            answers.push(answer);
        }
    }
    answers
}

fn initialize(version: &str, capabilities: Value) -> (String, bool) {
    let line = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": version, "capabilities": capabilities,
                   "clientInfo": {"name": "test", "version": "1"}}});
    (line.to_string(), true)
}

fn initialized() -> (String, bool) {
    let line = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    (line.to_string(), false)
}

fn read(id: Value, uri: &str) -> (String, bool) {
    let line = json!({"jsonrpc": "2.0", "id": id, "method": "resources/read",
                      "params": {"uri": uri}});
    (line.to_string(), true)
}

/// The same exchange over both transports gives the same lines.
async fn assert_same_lines(lines: &[(String, bool)]) -> Vec<String> {
    let ours = exchange(true, lines).await;
    let rmcp = exchange(false, lines).await;
    assert_eq!(ours.len(), rmcp.len());
    for (ours, rmcp) in ours.iter().zip(&rmcp) {
        assert!(
            ours == rmcp,
            "another line: {ours:.300} against {rmcp:.300}"
        );
    }
    ours
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_view_read_is_the_line_rmcp_writes_for_each_protocol_version() {
    let extension = json!({"extensions": {"io.modelcontextprotocol/ui": {}}});
    for version in ["2025-06-18", "2025-11-25", "2026-07-28"] {
        let lines = [
            initialize(version, extension.clone()),
            initialized(),
            read(json!(1), VIEW),
            read(json!("a string id"), VIEW),
            read(json!(-3), "ui://toolpack/journey"),
        ];
        let answers = assert_same_lines(&lines).await;
        let answer: Value = serde_json::from_str(&answers[1]).unwrap();
        assert_eq!(answer["id"], 1);
        assert_eq!(answer["result"]["contents"][0]["uri"], VIEW);
        let page = answer["result"]["contents"][0]["text"].as_str().unwrap();
        assert!(
            page.len() > 100_000 && page.contains("</html>"),
            "{version}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_messages_are_the_lines_rmcp_writes() {
    let lines = [
        initialize("2025-06-18", json!({})),
        initialized(),
        read(json!(1), "ui://toolpack/nothing"),
        read(json!(2), "file:///etc/passwd"),
        (
            json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                   "params": {"name": "stationToilets",
                              "arguments": {"stationName": "Kings Cross"}}})
            .to_string(),
            true,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                   "params": {"name": "stationToilets", "arguments": {}}})
            .to_string(),
            true,
        ),
        // Well-formed JSON of no message's shape: rmcp's reader answers it.
        (
            json!({"jsonrpc": "2.0", "id": 5, "nothing": true}).to_string(),
            true,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 6, "method": "resources/list"}).to_string(),
            true,
        ),
    ];
    let answers = assert_same_lines(&lines).await;
    let codes: Vec<Value> = answers
        .iter()
        .map(|line| serde_json::from_str::<Value>(line).unwrap()["error"]["code"].clone())
        .collect();
    assert_eq!(
        codes,
        [
            Value::Null,
            json!(-32002),
            json!(-32002),
            Value::Null,
            Value::Null,
            json!(-32600),
            Value::Null
        ]
    );
    let refused: Value = serde_json::from_str(&answers[4]).unwrap();
    assert_eq!(refused["result"]["isError"], true, "{refused}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_is_written_before_the_output_closes() {
    let (output, mut write) = tokio::io::split(serve(true));
    let (line, _) = initialize("2025-06-18", json!({}));
    write.write_all(line.as_bytes()).await.unwrap();
    write.write_all(b"\n").await.unwrap();
    let (line, _) = initialized();
    write
        .write_all(format!("{line}\n").as_bytes())
        .await
        .unwrap();
    for id in 1..=3 {
        let (line, _) = read(json!(id), VIEW);
        write
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
    }
    write.shutdown().await.unwrap();
    drop(write);
    let mut lines = BufReader::new(output).lines();
    let mut ids = Vec::new();
    while let Some(line) = lines.next_line().await.unwrap() {
        ids.push(serde_json::from_str::<Value>(&line).unwrap()["id"].clone());
    }
    ids.sort_by_key(|id| id.as_i64());
    assert_eq!(ids, [json!(0), json!(1), json!(2), json!(3)]);
}
