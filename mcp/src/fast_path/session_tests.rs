//! In session mode, a view's read in a session the server holds is answered in place,
//! as a JSON response holding the message rmcp sends in its event stream; every other
//! request gets rmcp's answer.

use axum::http::{StatusCode, header};
use serde_json::{Value, json};

use super::tests::{answer_of, request, session_app};

/// A session opened on `app` as a client opens one (`initialize`, then `initialized`).
async fn open_session(app: &axum::Router) -> String {
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}});
    let (status, headers, _) = answer_of(app.clone(), request(&[], &initialize.to_string())).await;
    assert_eq!(status, StatusCode::OK);
    let session = headers["mcp-session-id"].to_str().unwrap().to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let changes = [("mcp-session-id", session.as_str())];
    let (status, _, _) = answer_of(app.clone(), request(&changes, &initialized.to_string())).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    session
}

fn read(uri: &str) -> String {
    json!({"jsonrpc": "2.0", "id": 9, "method": "resources/read", "params": {"uri": uri}})
        .to_string()
}

/// The JSON-RPC message of an event stream (its last `data:`), as sent.
fn streamed_message(body: &[u8]) -> String {
    let text = std::str::from_utf8(body).expect("UTF-8");
    text.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(str::trim)
        .rfind(|data| !data.is_empty())
        .unwrap_or_else(|| panic!("an event stream: {text:.300}"))
        .to_owned()
}

/// What each app answers `body` with `changes`, in a session of its own.
async fn in_sessions(
    changes: &[(&str, &str)],
    body: &str,
) -> (
    (StatusCode, axum::http::HeaderMap, axum::body::Bytes),
    (StatusCode, axum::http::HeaderMap, axum::body::Bytes),
) {
    let mut answers = Vec::new();
    for fast_path in [true, false] {
        let app = session_app(fast_path);
        let session = open_session(&app).await;
        let mut changes = changes.to_vec();
        changes.push(("mcp-session-id", &session));
        answers.push(answer_of(app, request(&changes, body)).await);
    }
    let rmcp = answers.pop().unwrap();
    (answers.pop().unwrap(), rmcp)
}

#[tokio::test]
async fn a_views_read_in_a_session_is_rmcps_message_as_json() {
    for uri in ["ui://toolpack/toilets", "ui://toolpack/architecture"] {
        let (ours, rmcp) = in_sessions(&[], &read(uri)).await;
        assert_eq!((ours.0, rmcp.0), (StatusCode::OK, StatusCode::OK));
        assert_eq!(ours.1[header::CONTENT_TYPE], "application/json");
        assert_eq!(rmcp.1[header::CONTENT_TYPE], "text/event-stream");
        let ours = String::from_utf8(ours.2.to_vec()).unwrap();
        assert!(ours == streamed_message(&rmcp.2), "{uri}: another message");
        let answer: Value = serde_json::from_str(&ours).unwrap();
        assert_eq!(answer["result"]["contents"][0]["uri"], uri);
    }
}

#[tokio::test]
async fn a_views_read_in_a_session_compressed_for_a_client_that_takes_gzip() {
    use std::io::Read;
    let changes = [("accept-encoding", "gzip")];
    let (ours, rmcp) = in_sessions(&changes, &read("ui://toolpack/toilets")).await;
    assert_eq!(ours.1[header::CONTENT_ENCODING], "gzip");
    let mut body = String::new();
    flate2::read::GzDecoder::new(&ours.2[..])
        .read_to_string(&mut body)
        .expect("a gzip body");
    assert!(body == streamed_message(&rmcp.2), "another message");
}

#[tokio::test]
async fn other_requests_in_a_session_get_rmcps_answer() {
    let hidden = [("x-mcp-tools", "query_architecture")];
    let call = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
        "params": {"name": "stationToilets", "arguments": {"stationName": "Kings Cross"}}});
    for (changes, body, code) in [
        (&[][..], read("ui://toolpack/nothing-here"), json!(-32002)),
        (&hidden[..], read("ui://toolpack/toilets"), json!(-32002)),
        (&[][..], call.to_string(), Value::Null),
    ] {
        let (ours, rmcp) = in_sessions(changes, &body).await;
        assert_eq!(ours.0, rmcp.0, "{body}");
        assert_eq!(ours.1[header::CONTENT_TYPE], "text/event-stream", "{body}");
        let (ours, rmcp) = (streamed_message(&ours.2), streamed_message(&rmcp.2));
        assert_eq!(ours, rmcp, "{body}");
        let answer: Value = serde_json::from_str(&ours).unwrap();
        assert_eq!(answer["error"]["code"], code, "{answer}");
    }
}

#[tokio::test]
async fn a_read_outside_a_held_session_gets_rmcps_answer() {
    let body = read("ui://toolpack/toilets");
    for changes in [&[("mcp-session-id", "no-such-session")][..], &[][..]] {
        let ours = answer_of(session_app(true), request(changes, &body)).await;
        let rmcp = answer_of(session_app(false), request(changes, &body)).await;
        assert_eq!(ours, rmcp, "{changes:?}");
        assert!(ours.0.is_client_error(), "{changes:?}: {:?}", ours.0);
    }
}
