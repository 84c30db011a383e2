//! `fast_path`: the differential target of the fast path ([`crate::fast_path`]). An input
//! is one HTTP request to `/mcp`, sent to the stateless app with the fast path and to the
//! same app without it (every request answered by rmcp); the two answers must have the
//! same status, headers and bytes. A gzip answer of the fast path (rmcp sends none) is
//! compared decoded, its `Content-Encoding` and `Vary` set aside.
//!
//! The input, read as bytes:
//! - the first byte: bits 0–1 pick the method (POST, POST, GET, DELETE), bit 2 the path
//!   (`/mcp` or `/mcp/`), and bit 7 set starts from the headers a client sends (host,
//!   content type, accept, protocol version), which the input's headers then change;
//! - then header lines `name: value` up to an empty line (a line with an empty value
//!   removes the header; a name or value HTTP refuses makes the input no request);
//! - then the body, as it is.
//!
//! The apps serve `stationToilets` (offline, read-only) and its view, so a call's answer
//! depends on nothing but the request.

use std::sync::OnceLock;
use std::time::Duration;

use axum::body::{Body, Bytes, to_bytes};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, Request, StatusCode, header};
use tower::ServiceExt;

use crate::http::HttpOptions;
use crate::toolsets::ToolChoice;

/// How long one answer may take.
const BUDGET: Duration = Duration::from_secs(30);

/// The headers a client sends, before the input changes them.
const CLIENT_HEADERS: [(&str, &str); 4] = [
    ("host", "localhost:7410"),
    ("content-type", "application/json"),
    ("accept", "application/json, text/event-stream"),
    ("mcp-protocol-version", "2025-06-18"),
];

/// The two apps and their runtime.
struct Apps {
    runtime: tokio::runtime::Runtime,
    fast: axum::Router,
    rmcp: axum::Router,
}

fn apps() -> &'static Apps {
    static APPS: OnceLock<Apps> = OnceLock::new();
    APPS.get_or_init(|| {
        let runtime = super::runtime();
        let app = |no_fast_path| {
            let no_settings = std::collections::BTreeMap::<String, String>::new();
            let config = toolpack::Config::from_pairs(&no_settings).expect("a config");
            let choice = ToolChoice {
                only: Some(vec!["stationToilets".to_owned()]),
                ..ToolChoice::default()
            };
            let tools = crate::select_tools(&config, None)
                .expect("the default tools")
                .narrowed(&choice)
                .tools;
            let toolpack = toolpack::Toolpack::new(config).expect("a toolpack");
            let options = HttpOptions {
                stateless: true,
                allowed_hosts: vec!["api.example.com:8443".to_owned()],
                no_fast_path,
                ..HttpOptions::default()
            };
            crate::http::router(crate::ToolpackServer::new(toolpack, tools), &options).0
        };
        let (fast, rmcp) = runtime.block_on(async { (app(false), app(true)) });
        Apps {
            runtime,
            fast,
            rmcp,
        }
    })
}

/// The request an input stands for, twice (one for each app); `None` when HTTP refuses
/// its method, a header name or a value.
fn requests(data: &[u8]) -> Option<(Request<Body>, Request<Body>)> {
    let (&form, rest) = data.split_first().unwrap_or((&0, &[]));
    let method = match form & 3 {
        2 => Method::GET,
        3 => Method::DELETE,
        _ => Method::POST,
    };
    let path = if form & 4 == 0 { "/mcp" } else { "/mcp/" };
    let (head, body) = match rest.windows(2).position(|w| w == b"\n\n") {
        Some(at) => (&rest[..at], &rest[at + 2..]),
        None => (&[][..], rest),
    };
    let mut headers: Vec<(HeaderName, HeaderValue)> = Vec::new();
    if form & 0x80 != 0 {
        for (name, value) in CLIENT_HEADERS {
            headers.push((
                HeaderName::from_static(name),
                HeaderValue::from_static(value),
            ));
        }
    }
    for line in head.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        let at = line.iter().position(|b| *b == b':')?;
        let name = HeaderName::from_bytes(line[..at].trim_ascii()).ok()?;
        let value = line[at + 1..].trim_ascii();
        headers.retain(|(n, _)| *n != name);
        if !value.is_empty() {
            headers.push((name, HeaderValue::from_bytes(value).ok()?));
        }
    }
    let build = || {
        let mut builder = Request::builder().method(method.clone()).uri(path);
        for (name, value) in &headers {
            builder = builder.header(name, value);
        }
        builder.body(Body::from(body.to_vec())).ok()
    };
    Some((build()?, build()?))
}

/// Status, headers and body of `app`'s answer to `request`.
async fn answer(app: &axum::Router, request: Request<Body>) -> Answer {
    let response = tokio::time::timeout(BUDGET, app.clone().oneshot(request))
        .await
        .unwrap_or_else(|_| panic!("fast_path: no answer within {BUDGET:?}"))
        .expect("a router answers");
    let (parts, body) = response.into_parts();
    let body = to_bytes(body, usize::MAX).await.expect("a body");
    (parts.status, parts.headers, body)
}

/// The fast path's answer as rmcp would send it: a gzip body decoded, its encoding and
/// `Vary` set aside.
fn uncompressed(mut headers: HeaderMap, body: Bytes) -> (HeaderMap, Bytes) {
    use std::io::Read;
    if headers.get(header::CONTENT_ENCODING) != Some(&HeaderValue::from_static("gzip")) {
        return (headers, body);
    }
    headers.remove(header::CONTENT_ENCODING);
    headers.remove(header::VARY);
    let mut decoded = Vec::new();
    flate2::read::GzDecoder::new(&body[..])
        .read_to_end(&mut decoded)
        .expect("the fast path's gzip body decodes");
    (headers, Bytes::from(decoded))
}

/// One request to both apps (see the module's docs): the same answer, or a panic.
pub fn fast_path(data: &[u8]) {
    let Some((to_fast, to_rmcp)) = requests(data) else {
        return;
    };
    let apps = apps();
    let (fast, rmcp) = apps.runtime.block_on(async {
        let fast = answer(&apps.fast, to_fast).await;
        let rmcp = answer(&apps.rmcp, to_rmcp).await;
        (fast, rmcp)
    });
    same_answer(fast, rmcp);
}

/// Status, headers and bytes.
type Answer = (StatusCode, HeaderMap, Bytes);

/// Panics unless the fast path's answer, uncompressed, is rmcp's.
fn same_answer(fast: Answer, rmcp: Answer) {
    let (headers, body) = uncompressed(fast.1, fast.2);
    assert_eq!(fast.0, rmcp.0, "the status differs");
    assert_eq!(headers, rmcp.1, "the headers differ");
    assert!(
        body == rmcp.2,
        "the bodies differ:\nfast path: {}\nrmcp:      {}",
        String::from_utf8_lossy(&body),
        String::from_utf8_lossy(&rmcp.2)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An input with the client's headers, `head` lines and `body`.
    fn input(head: &str, body: &str) -> Vec<u8> {
        [&[0x80][..], head.as_bytes(), b"\n\n", body.as_bytes()].concat()
    }

    #[test]
    fn the_inputs_reach_the_fast_path_and_its_answers_are_compared() {
        let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"stationToilets","arguments":{"stationName":"Oxford Circus"}}}"#;
        let (request, _) = requests(&input("", call)).expect("a request");
        assert_eq!(request.method(), Method::POST);
        assert_eq!(request.headers()["accept"], CLIENT_HEADERS[2].1);
        let apps = apps();
        let (status, _, body) = apps.runtime.block_on(answer(&apps.fast, request));
        assert_eq!(status, StatusCode::OK);
        let body = String::from_utf8_lossy(&body);
        assert!(body.contains("\"isError\":false"), "{body}");
        fast_path(&input("", call));
        let read = r#"{"jsonrpc":"2.0","id":"r","method":"resources/read","params":{"uri":"ui://toolpack/toilets"}}"#;
        fast_path(&input("accept-encoding: gzip", read));
        fast_path(&input("accept:", call));
        // A header HTTP refuses makes no request.
        assert!(requests(&input("bad name: x", call)).is_none());
    }

    #[test]
    fn a_difference_in_status_headers_or_bytes_is_caught() {
        let answer = |status: u16, header: &'static str, body: &'static [u8]| {
            let mut headers = HeaderMap::new();
            headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(header));
            let status = StatusCode::from_u16(status).expect("a status");
            (status, headers, Bytes::from_static(body))
        };
        same_answer(answer(200, "a", b"{}"), answer(200, "a", b"{}"));
        for other in [
            answer(202, "a", b"{}"),
            answer(200, "b", b"{}"),
            answer(200, "a", b"{ }"),
        ] {
            let caught = std::panic::catch_unwind(|| same_answer(answer(200, "a", b"{}"), other));
            assert!(caught.is_err());
        }
    }
}
