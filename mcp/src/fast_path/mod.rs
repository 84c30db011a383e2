//! Requests answered without rmcp's per-request machinery.
//!
//! In stateless mode rmcp answers every POST by building a service for it: a peer, a
//! transport, channels and two tasks, around a JSON-RPC message parsed into the enum of
//! every client message. The two requests that matter for cost, a `tools/call` and a
//! `resources/read` that are plainly valid ([`header_rules`], [`request`]), are answered here:
//! - a call runs through the same [`ToolpackServer::run_call`] as rmcp's handler, its body
//!   serialised once where rmcp serialises it twice;
//! - a view's page is served from its `resources/read` result serialised once, for the
//!   life of the process, and never copied ([`reply::Chunks`]), where rmcp escapes the
//!   ~330 KB page again for every read.
//!
//! In session mode, only a view's read in a session this server holds is answered here,
//! as a JSON response (which the transport allows for any request): a read has no effect
//! on the session and sends no notification, so it needs none of the session's worker,
//! event ids or stream. A call in a session stays with rmcp, which owns those.
//!
//! The answers are the bytes rmcp would write (`tests.rs` compares them; in a session,
//! the same message rmcp sends in its event stream). Anything else goes to rmcp
//! untouched, as does a read of a resource the caller may not see (rmcp refuses it).
//! Nothing is refused here but a body over the limit, answered as rmcp answers it.

mod compressed_reads;
mod gzip;
mod header_rules;
mod reply;
mod request;
#[cfg(test)]
mod session_tests;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use rmcp::model::{CallToolRequestParams, RequestId, ServerJsonRpcMessage};
use rmcp::transport::common::http_header::HEADER_SESSION_ID;
use rmcp::transport::streamable_http_server::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

use crate::ToolpackServer;
use crate::notify::{Destination, Forwarder, SessionLevel};
use crate::server::CallScope;
use crate::views::SerialisedRead;
pub(crate) use compressed_reads::prepare;
use header_rules::HeaderRules;
use request::Plain;

/// What answers requests in place.
pub(crate) struct FastPath {
    /// The server they are answered for.
    server: ToolpackServer,
    /// Which requests may be answered here, by their headers.
    rules: HeaderRules,
    /// The largest request body.
    body_limit: usize,
    /// In session mode, the sessions: only a view's read in one of them is answered
    /// here. `None` in stateless mode.
    sessions: Option<Arc<LocalSessionManager>>,
}

impl FastPath {
    /// Answers for `server`, behind rmcp's `allowed_hosts` and `allowed_origins`; in
    /// session mode, for requests in the `sessions` rmcp holds.
    pub fn new(
        server: ToolpackServer,
        allowed_hosts: &[String],
        allowed_origins: &[String],
        body_limit: usize,
        sessions: Option<Arc<LocalSessionManager>>,
    ) -> Self {
        Self {
            server,
            rules: HeaderRules::new(allowed_hosts, allowed_origins),
            body_limit,
            sessions,
        }
    }

    /// Whether this mode may answer a request with `headers` and `body` here: any in
    /// stateless mode; in session mode, only what may be a view's read in a session this
    /// server holds (a session it does not hold is rmcp's to refuse).
    async fn answers_in_this_mode(&self, headers: &HeaderMap, body: &[u8]) -> bool {
        let Some(sessions) = &self.sessions else {
            return true;
        };
        if !request::may_be_a_read(body) {
            return false;
        }
        let Some(id) = headers
            .get(HEADER_SESSION_ID)
            .and_then(|id| id.to_str().ok())
        else {
            return false;
        };
        sessions.has_session(&id.into()).await.unwrap_or(false)
    }
}

/// The middleware on `/mcp`: a plain `tools/call` (stateless mode) or view
/// `resources/read` POST is answered here, every other request by rmcp (`next`).
pub(crate) async fn answer(
    State(answers): State<Arc<FastPath>>,
    request: Request,
    next: Next,
) -> Response {
    if !answers.rules.passes(&request) {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let bytes = match read_body(body, answers.body_limit).await {
        Ok(bytes) => bytes,
        Err(response) => return response,
    };
    if !answers.answers_in_this_mode(&parts.headers, &bytes).await {
        return next
            .run(Request::from_parts(parts, Body::from(bytes)))
            .await;
    }
    match Plain::parse(&bytes) {
        Some(Plain::Call {
            id,
            name,
            arguments,
        }) if answers.sessions.is_none() => {
            let (caller, choice) = crate::server::http_scope(&parts);
            let scope = CallScope {
                id: &id,
                caller,
                choice,
                forwarder: Forwarder::start(Destination::Reply, SessionLevel::default(), None),
                carrier: crate::telemetry::Carrier {
                    meta: None,
                    headers: Some(&parts.headers),
                },
                cancelled: std::future::pending(),
                // A stateless call on a protocol before 2026-07-28: nobody can be asked.
                asking: crate::ask::Asking::Nobody,
            };
            let mut request = CallToolRequestParams::new(name);
            request.arguments = arguments;
            let (answer, notifications) = answers.server.run_call(request, scope).await;
            let response = match answer {
                Ok(result) => reply::response_message(&id, Bytes::from(result.json_text(true))),
                Err(error) => reply::message(&ServerJsonRpcMessage::error(error, Some(id))),
            };
            match response {
                Ok(response) if notifications.is_empty() => reply::json(response),
                Ok(response) => reply::event_stream(notifications, response),
                Err(error) => reply::serialisation_failed(&error),
            }
        }
        Some(Plain::Read { id, uri }) => {
            let (caller, choice) = crate::server::http_scope(&parts);
            let visible = crate::views::visible(answers.server.tools(), &caller, &choice);
            match crate::views::read_serialised(&uri, visible) {
                Some(read) if gzip::accepted(&parts.headers) => respond_gzipped(&id, read),
                Some(read) => respond(&id, read.result.clone()),
                None => {
                    next.run(Request::from_parts(parts, Body::from(bytes)))
                        .await
                }
            }
        }
        Some(Plain::Call { .. }) | None => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
    }
}

/// The JSON answer to request `id` whose result is `result`.
fn respond(id: &RequestId, result: Bytes) -> Response {
    match reply::response_message(id, result) {
        Ok(response) => reply::json(response),
        Err(error) => reply::serialisation_failed(&error),
    }
}

/// [`respond`] with a gzip-compressed body: the read's result and the message's end are
/// compressed once for every view (at start-up, or on the first gzip read), and only the
/// head with `id` for each answer.
fn respond_gzipped(id: &RequestId, read: &SerialisedRead) -> Response {
    let Some(compressed) = compressed_reads::tail_of(read) else {
        return respond(id, read.result.clone());
    };
    match reply::response_head(id) {
        Ok(head) => reply::gzipped_json(compressed.behind(&head)),
        Err(error) => reply::serialisation_failed(&error),
    }
}

/// The body, or rmcp's answer to one over `limit` bytes or one that cannot be read.
async fn read_body(body: Body, limit: usize) -> Result<Bytes, Response> {
    let mut body = std::pin::pin!(body);
    // The first frame is kept as it is; only a body of several frames is gathered.
    let (mut first, mut gathered) = (Bytes::new(), Vec::new());
    while let Some(frame) = std::future::poll_fn(|cx| body.as_mut().poll_frame(cx)).await {
        let frame = frame.map_err(|error| {
            let message = format!("Failed to read request body: {error}");
            reply::plain(StatusCode::INTERNAL_SERVER_ERROR, message)
        })?;
        let Ok(data) = frame.into_data() else {
            continue;
        };
        let read = first.len() + gathered.len();
        if data.len() > limit.saturating_sub(read) {
            let message = format!("Payload Too Large: request body exceeds {limit} bytes");
            return Err(reply::plain(StatusCode::PAYLOAD_TOO_LARGE, message));
        }
        if read == 0 {
            first = data;
        } else {
            if gathered.is_empty() {
                gathered.extend_from_slice(&std::mem::take(&mut first));
            }
            gathered.extend_from_slice(&data);
        }
    }
    Ok(if gathered.is_empty() {
        first
    } else {
        gathered.into()
    })
}
