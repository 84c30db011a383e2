//! `serve --http` as an OAuth 2.1 resource server, against a real authorization server
//! (npm `oauth2-mock-server`, driven by `tests/oauth/issuer.mjs`): tokens of every
//! accepted algorithm, every refused kind of token (each a 401 with the challenge),
//! callers isolated by subject, scopes, the JWKS refetch floor, static tokens alongside,
//! and no token in the server's log at `RUST_LOG=trace`.
//!
//! The test command installs the issuer into `target/oauth` and sets
//! `TOOLPACK_OAUTH_ISSUER_DIR`; without it this test says so and does nothing.

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};
use toolpack_testkit::fake_upstream::FakeUpstream;

/// The authorization server, stopped on drop.
struct Issuer {
    child: Child,
    url: String,
}

impl Drop for Issuer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Issuer {
    fn start(dir: &str) -> Self {
        let mut child = Command::new("node")
            .arg(format!("{dir}/issuer.mjs"))
            .current_dir(dir)
            .stdout(Stdio::piped())
            .spawn()
            .expect("node runs the issuer");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url =
            serde_json::from_str::<Value>(&line).expect("the issuer prints its URL")["issuer"]
                .as_str()
                .unwrap()
                .to_owned();
        Self { child, url }
    }

    /// An access token from the token endpoint (password grant; `sub` = `user`), with
    /// `extra` form fields shaping the claims.
    async fn token(
        &self,
        user: &str,
        scope: &str,
        audience: &str,
        extra: &[(&str, &str)],
    ) -> String {
        let mut form = vec![
            ("grant_type", "password"),
            ("username", user),
            ("scope", scope),
            ("aud", audience),
        ];
        form.extend_from_slice(extra);
        let answer: Value = common::http_client()
            .post(format!("{}/token", self.url))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(form_body(&form))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        answer["access_token"].as_str().expect("a token").to_owned()
    }

    async fn admin(&self, path: &str, body: Value) -> String {
        let answer: Value = common::http_client()
            .post(format!("{}{path}", self.url))
            .json(&body)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        answer["token"].as_str().unwrap().to_owned()
    }

    async fn jwks_fetches(&self) -> u64 {
        let stats: Value = common::http_client()
            .get(format!("{}/__stats", self.url))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        stats["jwks"].as_u64().unwrap()
    }
}

/// `toolpack-mcp serve --http` with OAuth and one static token, its stderr in a file.
struct Server {
    child: Child,
    base: String,
    log: tempfile::NamedTempFile,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn start_server(issuer: &Issuer, settings: &[(&str, &str)]) -> Server {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let base = format!("http://127.0.0.1:{port}");
    let log = tempfile::NamedTempFile::new().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_toolpack-mcp"))
        .args([
            "serve",
            "--stateless",
            "--http",
            &format!("127.0.0.1:{port}"),
        ])
        .args([
            "--oauth-issuer",
            &issuer.url,
            "--oauth-audience",
            &format!("{base}/mcp"),
        ])
        .env_clear()
        .env("RUST_LOG", "trace")
        .env("TOOLPACK_HTTP_TOKENS", "ops:static-token-ops")
        .envs(settings.iter().copied())
        .stderr(log.reopen().unwrap())
        .spawn()
        .unwrap();
    // Owned at once, so a failed start still stops (and reaps) the process.
    let server = Server { child, base, log };
    assert!(
        toolpack_testkit::wait_until_healthy(&server.base).await,
        "the server did not start"
    );
    server
}

struct Answer {
    status: u16,
    challenge: String,
    body: Value,
}

async fn rpc(server: &Server, token: &str, message: Value) -> Answer {
    let response = common::http_client()
        .post(format!("{}/mcp", server.base))
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .bearer_auth(token)
        .json(&message)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let challenge = response
        .headers()
        .get("www-authenticate")
        .map_or(String::new(), |v| v.to_str().unwrap().to_owned());
    let text = response.text().await.unwrap();
    Answer {
        status,
        challenge,
        body: serde_json::from_str(&text).unwrap_or(Value::String(text)),
    }
}

async fn call(server: &Server, token: &str, tool: &str, arguments: Value) -> Answer {
    rpc(
        server,
        token,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": tool, "arguments": arguments}}),
    )
    .await
}

/// `application/x-www-form-urlencoded` text of `pairs`.
fn form_body(pairs: &[(&str, &str)]) -> String {
    let encode = |text: &str| -> String {
        text.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                    (b as char).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect()
    };
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

fn header_of(token: &str) -> Value {
    use base64::Engine;
    let part = token.split('.').next().unwrap();
    serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(part)
            .unwrap(),
    )
    .unwrap()
}

const BOTH: &str = "toolpack:read toolpack:write";

#[tokio::test(flavor = "multi_thread")]
async fn an_oauth_resource_server_against_a_real_authorization_server() {
    let Ok(dir) = std::env::var("TOOLPACK_OAUTH_ISSUER_DIR") else {
        eprintln!("skipped: TOOLPACK_OAUTH_ISSUER_DIR is not set (./scripts/test-all sets it)");
        return;
    };
    let issuer = Issuer::start(&dir);
    let fake = FakeUpstream::start(&toolpack_testkit::default_fixtures_dir())
        .await
        .unwrap();
    let data = tempfile::tempdir().unwrap();
    let server = start_server(
        &issuer,
        &[
            ("TOOLPACK_DATA_DIR", data.path().to_str().unwrap()),
            ("DIGITRANSIT_API_KEY", "k"),
            ("DIGITRANSIT_BASE_URL", &fake.base_url()),
            ("DIGITRANSIT_ROUTER", "hsl"),
        ],
    )
    .await;
    let audience = format!("{}/mcp", server.base);
    let metadata_url = format!("{}/.well-known/oauth-protected-resource/mcp", server.base);
    let mut issued = Vec::new();

    // The protected-resource metadata names the issuer and this server.
    let metadata: Value = common::http_client()
        .get(&metadata_url)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(metadata["resource"], audience);
    assert_eq!(metadata["authorization_servers"], json!([issuer.url]));

    // Valid tokens of every accepted algorithm (the issuer signs with its keys in turn).
    let mut algorithms = Vec::new();
    for _ in 0..3 {
        let token = issuer.token("alice", BOTH, &audience, &[]).await;
        algorithms.push(header_of(&token)["alg"].as_str().unwrap().to_owned());
        let answer = call(
            &server,
            &token,
            "stationToilets",
            json!({"stationName": "Victoria"}),
        )
        .await;
        assert_eq!(
            answer.status,
            200,
            "{}: {}",
            algorithms.last().unwrap(),
            answer.body
        );
        assert_eq!(answer.body["result"]["structuredContent"]["code"], "OK");
        issued.push(token);
    }
    algorithms.sort();
    assert_eq!(algorithms, ["ES256", "EdDSA", "RS256"]);

    // Every refused token is a 401 with the invalid_token challenge.
    let alice = issuer.token("alice", BOTH, &audience, &[]).await;
    let mut none_alg = alice.split('.').map(str::to_owned).collect::<Vec<_>>();
    {
        use base64::Engine;
        none_alg[0] = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(br#"{"alg":"none","typ":"JWT","kid":"rs"}"#);
        none_alg[2] = String::new();
    }
    let shaped =
        async |aud: &str, claims: &[(&str, &str)]| issuer.token("alice", BOTH, aud, claims).await;
    let signed_elsewhere = async |kid: &str| {
        let claims = json!({"kid": kid, "sub": "alice", "aud": audience});
        issuer.admin("/__impostor", claims).await
    };
    let hs256 = issuer
        .admin("/__hs256", json!({"sub": "alice", "aud": audience}))
        .await;
    let refused = [
        ("wrong aud", shaped("https://other.example/mcp", &[]).await),
        (
            "wrong iss",
            shaped(&audience, &[("iss", "https://evil.example")]).await,
        ),
        ("expired", shaped(&audience, &[("exp_in", "-3600")]).await),
        (
            "not yet valid",
            shaped(&audience, &[("nbf_in", "3600")]).await,
        ),
        ("unknown kid", signed_elsewhere("stranger").await),
        ("right kid, wrong key", signed_elsewhere("rs").await),
        ("alg none", none_alg.join(".")),
        ("HS256 with the public key", hs256),
        ("malformed", "eyJhbGciOiJSUzI1NiJ9.not-base64!.x".to_owned()),
        ("garbage", "not-a-token".to_owned()),
    ];
    for (case, token) in &refused {
        let answer = call(
            &server,
            token,
            "stationToilets",
            json!({"stationName": "Victoria"}),
        )
        .await;
        assert_eq!(answer.status, 401, "{case}: {}", answer.body);
        assert!(
            answer
                .challenge
                .starts_with("Bearer error=\"invalid_token\""),
            "{case}: {}",
            answer.challenge
        );
        assert!(
            answer
                .challenge
                .contains(&format!("resource_metadata=\"{metadata_url}\"")),
            "{case}"
        );
        issued.push(token.clone());
    }
    // Garbage kids cannot make the server hammer the issuer: at most one refetch.
    let before = issuer.jwks_fetches().await;
    for i in 0..20 {
        let token = issuer
            .admin(
                "/__impostor",
                json!({"kid": "stranger", "sub": format!("x{i}"), "aud": audience}),
            )
            .await;
        assert_eq!(
            call(
                &server,
                &token,
                "stationToilets",
                json!({"stationName": "Victoria"})
            )
            .await
            .status,
            401
        );
    }
    assert!(
        issuer.jwks_fetches().await - before <= 1,
        "the JWKS refetch floor holds"
    );

    // Callers by subject: their own places, and plan_trip resolves their own label.
    let bob = issuer.token("bob", BOTH, &audience, &[]).await;
    issued.extend([alice.clone(), bob.clone()]);
    let home = |name: &str, lat: f64| json!({"key": "home", "type": "location", "value": {"lat": lat, "lon": 24.94, "name": name}});
    assert_eq!(
        call(
            &server,
            &alice,
            "save_user_variable",
            home("Alice's", 60.170384)
        )
        .await
        .status,
        200
    );
    let listed = call(&server, &bob, "get_user_variables", json!({})).await;
    assert_eq!(
        listed.body["result"]["structuredContent"]["variables"],
        json!([])
    );
    let saved = call(
        &server,
        &bob,
        "save_user_variable",
        home("Bob's", 60.194445),
    )
    .await;
    assert!(
        saved.body["result"]["structuredContent"]
            .get("previous")
            .is_none()
    );
    let overwritten = call(
        &server,
        &alice,
        "save_user_variable",
        home("Alice's", 60.170384),
    )
    .await;
    assert_eq!(
        overwritten.body["result"]["structuredContent"]["previous"]["key"],
        "home"
    );
    for (token, lat) in [(&alice, 60.170384), (&bob, 60.194445)] {
        let trip = call(
            &server,
            token,
            "plan_trip",
            json!({"origin": {"type": "label", "value": "home"},
                   "destination": {"type": "coords", "value": {"lat": 60.2, "lon": 24.9}},
                   "when": {"type": "depart", "time": "2021-06-29T17:05:00+03:00"}}),
        )
        .await;
        assert_eq!(
            trip.body["result"]["structuredContent"]["origin"]["coordinate"]["lat"],
            lat
        );
    }

    // Scopes: a read-only subject reads, and writing asks it to step up.
    let reader = issuer.token("carol", "toolpack:read", &audience, &[]).await;
    issued.push(reader.clone());
    assert_eq!(
        call(&server, &reader, "get_user_variables", json!({}))
            .await
            .status,
        200
    );
    let step_up = call(
        &server,
        &reader,
        "save_user_variable",
        home("Carol's", 60.1),
    )
    .await;
    assert_eq!(step_up.status, 403);
    assert_eq!(
        step_up.challenge,
        format!(
            "Bearer error=\"insufficient_scope\", scope=\"toolpack:write\", resource_metadata=\"{metadata_url}\""
        )
    );

    // The static token works alongside, as its own caller.
    let ops = call(&server, "static-token-ops", "get_user_variables", json!({})).await;
    assert_eq!(
        ops.body["result"]["structuredContent"]["variables"],
        json!([])
    );

    // No token reached the log, even at trace level.
    let log = std::fs::read_to_string(server.log.path()).unwrap();
    assert!(log.len() > 1000, "the server logged at trace level");
    for token in issued.iter().chain([&"static-token-ops".to_owned()]) {
        let signature = token.rsplit('.').next().unwrap();
        assert!(!log.contains(token.as_str()), "a token is in the log");
        assert!(
            signature.len() < 8 || !log.contains(signature),
            "a token's signature is in the log"
        );
    }
}
