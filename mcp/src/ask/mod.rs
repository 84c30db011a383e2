//! Asking the person which place an ambiguous name means, over MCP: the server side of
//! [`toolpack::ask`]. How depends on the client:
//! - a session client (stdio, an HTTP session) that announced form elicitation is asked
//!   at once, with `elicitation/create` ([`person`]);
//! - a client on protocol 2026-07-28, which takes no server requests, gets the
//!   input-required result and completes the call by retrying it ([`later`]);
//! - any other client gets the tool's answer as it was: `DISAMBIGUATION_REQUIRED` with
//!   the candidates.

mod form;
mod later;
mod person;

use std::sync::Arc;
use std::time::Duration;

use rmcp::ErrorData as McpError;
use rmcp::model::{CallToolRequestParams, ClientCapabilities, ProtocolVersion};
use rmcp::service::{Peer, RequestContext, RoleServer};
use toolpack::Caller;
use toolpack::ask::Asker;

use crate::deadline::Deadline;
pub(crate) use later::Later;
pub use later::StateKey;

/// How the client of one call can be asked.
pub(crate) enum Asking {
    /// It cannot: the tools answer as they always have.
    Nobody,
    /// A session client that announced form elicitation.
    Now(Peer<RoleServer>),
    /// A client on protocol 2026-07-28 that announced elicitation.
    Later(Arc<Later>),
}

impl Asking {
    /// How the client of `request`, which announced `capabilities`, can be asked; an error
    /// for a retry whose `requestState` this server did not issue for this call.
    pub fn of(
        context: &RequestContext<RoleServer>,
        capabilities: Option<&ClientCapabilities>,
        request: &CallToolRequestParams,
        caller: &Caller,
        key: &StateKey,
    ) -> Result<Self, McpError> {
        let elicits = capabilities
            .and_then(|capabilities| capabilities.elicitation.as_ref())
            .is_some_and(|elicitation| elicitation.form.is_some() || elicitation.url.is_none());
        if !elicits {
            return Ok(Self::Nobody);
        }
        let stateless = context
            .protocol_version()
            .is_some_and(|version| version >= ProtocolVersion::V_2026_07_28);
        Ok(if stateless {
            Self::Later(Arc::new(Later::open(request, caller, key)?))
        } else {
            Self::Now(context.peer.clone())
        })
    }

    /// Who answers the questions of a call with `deadline`; a person has at most `wait`.
    pub fn asker(&self, deadline: &Deadline, wait: Duration) -> Option<Arc<dyn Asker>> {
        match self {
            Self::Nobody => None,
            Self::Now(peer) => Some(Arc::new(person::Person {
                peer: peer.clone(),
                deadline: deadline.clone(),
                wait,
            })),
            Self::Later(later) => Some(later.clone()),
        }
    }
}
