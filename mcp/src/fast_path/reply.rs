//! The answers written in place, as rmcp writes them: a JSON response, an event stream
//! when notifications precede it, and rmcp's bare-text refusals.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use http_body::{Frame, SizeHint};
use rmcp::model::{RequestId, ServerJsonRpcMessage, ServerNotification};

/// The JSON-RPC response for request `id` whose `result` is already JSON: the bytes
/// `{"jsonrpc":"2.0","id":…,"result":…}` rmcp writes, in shared chunks.
pub(crate) fn response_message(id: &RequestId, result: Bytes) -> serde_json::Result<Chunks> {
    Ok(Chunks(VecDeque::from([
        Bytes::from(response_head(id)?),
        result,
        Bytes::from_static(RESPONSE_END),
    ])))
}

/// What a JSON-RPC response for request `id` starts with, before its result.
pub(crate) fn response_head(id: &RequestId) -> serde_json::Result<Vec<u8>> {
    let mut head = br#"{"jsonrpc":"2.0","id":"#.to_vec();
    serde_json::to_writer(&mut head, id)?;
    head.extend_from_slice(br#","result":"#);
    Ok(head)
}

/// What a JSON-RPC response ends with, after its result.
pub(crate) const RESPONSE_END: &[u8] = b"}";

/// A JSON-RPC message serialised by rmcp's types (errors, notifications).
pub(crate) fn message(message: &ServerJsonRpcMessage) -> serde_json::Result<Chunks> {
    Ok(Chunks(VecDeque::from([Bytes::from(serde_json::to_vec(
        message,
    )?)])))
}

/// The JSON answer rmcp gives a request whose only message is its response.
pub(crate) fn json(response: Chunks) -> Response {
    Response::builder()
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::new(response))
        .unwrap_or_default()
}

/// [`json`] with a gzip-compressed body (for a client whose `Accept-Encoding` takes it).
pub(crate) fn gzipped_json(compressed: Chunks) -> Response {
    let mut response = json(compressed);
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    response
}

/// The event stream rmcp answers a request with when notifications precede its response:
/// one `data:` event per message.
pub(crate) fn event_stream(notifications: Vec<ServerNotification>, response: Chunks) -> Response {
    let mut events = VecDeque::new();
    for notification in notifications {
        let mut event = b"data: ".to_vec();
        let message = ServerJsonRpcMessage::notification(notification);
        if let Err(error) = serde_json::to_writer(&mut event, &message) {
            return serialisation_failed(&error);
        }
        event.extend_from_slice(b"\n\n");
        events.push_back(Bytes::from(event));
    }
    events.push_back(Bytes::from_static(b"data: "));
    events.extend(response.0);
    events.push_back(Bytes::from_static(b"\n\n"));
    Response::builder()
        .header(header::CONTENT_TYPE, "text/event-stream")
        .header(header::CACHE_CONTROL, "no-cache")
        .header("x-accel-buffering", "no")
        .body(Body::new(Chunks(events)))
        .unwrap_or_default()
}

/// rmcp's answer when a response cannot be serialised.
pub(crate) fn serialisation_failed(error: &serde_json::Error) -> Response {
    tracing::error!("Internal server error when serialize json response: {error}");
    plain(
        StatusCode::INTERNAL_SERVER_ERROR,
        format!("Encounter an error when serialize json response: {error}"),
    )
}

/// A bare text answer with `status`, as rmcp writes its refusals (no content type).
pub(crate) fn plain(status: StatusCode, message: String) -> Response {
    Response::builder()
        .status(status)
        .body(Body::from(message))
        .unwrap_or_default()
}

/// A body of a few chunks, sent as they are: a view's page (~330 KB) is shared, never
/// copied. Its exact length is known, so the HTTP answer has a `Content-Length`.
pub(crate) struct Chunks(pub(super) VecDeque<Bytes>);

impl http_body::Body for Chunks {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Poll::Ready(
            self.get_mut()
                .0
                .pop_front()
                .map(|chunk| Ok(Frame::data(chunk))),
        )
    }

    fn is_end_stream(&self) -> bool {
        self.0.is_empty()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.0.iter().map(|chunk| chunk.len() as u64).sum())
    }
}
