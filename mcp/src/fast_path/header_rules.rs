//! Which requests may be answered in place, as far as their method, path and headers
//! tell: only those rmcp would surely serve, read exactly as rmcp reads them. A header
//! read any other way (a quoted or weighted `Accept`, an `Origin` to check, an absent
//! `Host`, a protocol version with the standard headers of 2026-07-28 or one rmcp does not
//! know) sends the request on to rmcp, which refuses what is to be refused.

use axum::extract::Request;
use axum::http::{HeaderMap, Method, header, uri::Authority};
use rmcp::model::ProtocolVersion;

/// rmcp's DNS-rebinding rules for the requests answered in place.
pub(crate) struct HeaderRules {
    /// rmcp's `allowed_hosts`, read as rmcp reads them: a host name and maybe a port
    /// (`None`: every host).
    allowed_hosts: Option<Vec<(String, Option<u16>)>>,
    /// Whether rmcp checks `Origin` (an allow-list is set).
    checks_origin: bool,
}

impl HeaderRules {
    /// The rules of rmcp's `allowed_hosts` and `allowed_origins`.
    pub fn new(allowed_hosts: &[String], allowed_origins: &[String]) -> Self {
        let allowed_hosts = (!allowed_hosts.is_empty()).then(|| {
            allowed_hosts
                .iter()
                .map(|allowed| allowed.trim())
                .filter(|allowed| !allowed.is_empty())
                .map(|allowed| match Authority::try_from(allowed) {
                    Ok(authority) => (normalize_host(authority.host()), authority.port_u16()),
                    Err(_) => (normalize_host(allowed), None),
                })
                .collect()
        });
        Self {
            allowed_hosts,
            checks_origin: !allowed_origins.is_empty(),
        }
    }

    /// Whether `request` may be answered in place; its body decides the rest.
    pub fn passes(&self, request: &Request) -> bool {
        let headers = request.headers();
        request.method() == Method::POST
            && request.uri().path() == "/mcp"
            && self.host_is_allowed(headers)
            && (!self.checks_origin || !headers.contains_key(header::ORIGIN))
            && accepts_json_and_event_stream(headers)
            && sends_json(headers)
            && protocol_version_is_plain(headers)
    }

    /// The `Host` header is there and allowed, read as rmcp reads it.
    fn host_is_allowed(&self, headers: &HeaderMap) -> bool {
        let Some(host) = headers
            .get(header::HOST)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| Authority::try_from(value).ok())
        else {
            return false;
        };
        let Some(allowed_hosts) = &self.allowed_hosts else {
            return true;
        };
        let name = normalize_host(host.host());
        allowed_hosts.iter().any(|(allowed, port)| {
            *allowed == name && port.is_none_or(|port| host.port_u16() == Some(port))
        })
    }
}

/// A host name as rmcp compares it: without IPv6 brackets, lower case.
fn normalize_host(host: &str) -> String {
    host.trim_matches('[')
        .trim_matches(']')
        .to_ascii_lowercase()
}

/// `Accept` names both JSON and the event stream, with no quoted strings or weights.
fn accepts_json_and_event_stream(headers: &HeaderMap) -> bool {
    let (mut json, mut event_stream) = (false, false);
    for value in headers.get_all(header::ACCEPT) {
        let Ok(value) = value.to_str() else {
            continue;
        };
        if value.contains('"') {
            return false;
        }
        for entry in value.split(',') {
            let mut parts = entry.split(';');
            let essence = parts.next().unwrap_or_default().trim();
            let weighted = parts.any(|parameter| {
                parameter
                    .split_once('=')
                    .is_some_and(|(name, _)| name.trim().eq_ignore_ascii_case("q"))
            });
            if weighted {
                return false;
            }
            json |= essence.eq_ignore_ascii_case("application/json");
            event_stream |= essence.eq_ignore_ascii_case("text/event-stream");
        }
    }
    json && event_stream
}

/// `Content-Type` is JSON.
fn sends_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| {
            let essence = value.split_once(';').map_or(value, |(essence, _)| essence);
            essence.trim().eq_ignore_ascii_case("application/json")
        })
}

/// No `MCP-Protocol-Version`, or one rmcp knows that predates the standard headers.
fn protocol_version_is_plain(headers: &HeaderMap) -> bool {
    let Some(value) = headers.get("mcp-protocol-version") else {
        return true;
    };
    value.to_str().is_ok_and(|version| {
        version < ProtocolVersion::STANDARD_HEADERS.as_str()
            && ProtocolVersion::KNOWN_VERSIONS
                .iter()
                .any(|known| known.as_str() == version)
    })
}
