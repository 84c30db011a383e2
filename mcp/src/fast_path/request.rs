//! The JSON-RPC requests answered in place, read strictly: a `tools/call` or a
//! `resources/read` with nothing else in it (no `_meta`, no unknown member). Anything
//! else is not read here, and goes on to rmcp.

use rmcp::model::{JsonObject, RequestId};
use serde::Deserialize;

/// A request answered in place.
pub(crate) enum Plain {
    /// `tools/call` of `name` with `arguments`.
    Call {
        /// The request's id.
        id: RequestId,
        /// The tool.
        name: String,
        /// Its arguments, if any.
        arguments: Option<JsonObject>,
    },
    /// `resources/read` of `uri`.
    Read {
        /// The request's id.
        id: RequestId,
        /// The resource.
        uri: String,
    },
}

/// A JSON-RPC request as sent.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Message<'a> {
    #[serde(borrow)]
    jsonrpc: &'a str,
    id: RequestId,
    #[serde(borrow)]
    method: &'a str,
    params: Params,
}

/// The parameters of both methods; each takes only its own.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    name: Option<String>,
    #[serde(default)]
    arguments: Option<JsonObject>,
    uri: Option<String>,
}

/// Whether `body` may be a `resources/read` (it names the method as plainly as
/// [`Plain::parse`] takes it): what session mode checks before parsing, since it answers
/// nothing else in place.
pub(crate) fn may_be_a_read(body: &[u8]) -> bool {
    const METHOD: &[u8] = br#""resources/read""#;
    body.windows(METHOD.len()).any(|window| window == METHOD)
}

impl Plain {
    /// `body` as such a request, if it is one.
    pub fn parse(body: &[u8]) -> Option<Self> {
        let message = serde_json::from_slice::<Message>(body).ok()?;
        if message.jsonrpc != "2.0" {
            return None;
        }
        let Params {
            name,
            arguments,
            uri,
        } = message.params;
        match (message.method, name, uri) {
            ("tools/call", Some(name), None) => Some(Self::Call {
                id: message.id,
                name,
                arguments,
            }),
            ("resources/read", None, Some(uri)) if arguments.is_none() => Some(Self::Read {
                id: message.id,
                uri,
            }),
            _ => None,
        }
    }
}
