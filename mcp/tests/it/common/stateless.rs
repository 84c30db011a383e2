//! `toolpack-mcp serve --http --stateless` as a child process, and `tools/call` POSTs to
//! it as one bearer token's caller: what the metrics and replica tests share.

use std::process::Stdio;

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_toolpack-mcp");

/// A running server (killed on drop) and its base URL.
pub struct StatelessServer {
    _child: tokio::process::Child,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
}

/// Starts the server on a free port with `flags`, a clean environment but for `PATH`, the
/// caller `alice` of `token`, and `env`; returns once `/healthz` answers.
pub async fn serve(token: &str, flags: &[&str], env: &[(&str, String)]) -> StatelessServer {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut command = tokio::process::Command::new(BIN);
    command
        .args([
            "serve",
            "--http",
            &format!("127.0.0.1:{port}"),
            "--stateless",
        ])
        .args(flags)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("TOOLPACK_HTTP_TOKENS", format!("alice:{token}"))
        .envs(env.iter().map(|(name, value)| (name, value)))
        .stderr(if std::env::var_os("TOOLPACK_TEST_SERVER_LOGS").is_some() {
            Stdio::inherit()
        } else {
            Stdio::null()
        })
        .kill_on_drop(true);
    let child = command.spawn().unwrap();
    let base = format!("http://127.0.0.1:{port}");
    assert!(
        toolpack_testkit::wait_until_healthy(&base).await,
        "the server did not start"
    );
    StatelessServer {
        _child: child,
        base,
    }
}

/// The JSON-RPC `result` of calling `tool` on `base` as the caller of `token` (protocol
/// 2025-06-18); the answer may come as JSON or as an event stream (when the call sent
/// notifications first, a retry warning), and its HTTP status must be 200.
pub async fn tool_call_result(base: &str, token: &str, tool: &str, arguments: Value) -> Value {
    tool_call_result_on(&super::http_client(), base, token, tool, arguments).await
}

/// [`tool_call_result`] through `client` (one connection pool for many calls).
pub async fn tool_call_result_on(
    client: &reqwest::Client,
    base: &str,
    token: &str,
    tool: &str,
    arguments: Value,
) -> Value {
    let response = client
        .post(format!("{base}/mcp"))
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .bearer_auth(token)
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                      "params": {"name": tool, "arguments": arguments}}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let text = response.text().await.unwrap();
    let answer = text
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .next_back()
        .unwrap_or(&text);
    let body: Value = serde_json::from_str(answer).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert!(body["result"].is_object(), "{body}");
    body["result"].clone()
}
