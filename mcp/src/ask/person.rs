//! Asking the person now: an `elicitation/create` request to a session client that
//! announced form elicitation (stdio, HTTP sessions).

use std::time::Duration;

use rmcp::service::{Peer, RoleServer};
use toolpack::ask::{AskFuture, Asker, Question};

use super::form;
use crate::deadline::Deadline;

/// Asks through a session's client; the call's deadline stands still meanwhile.
pub(crate) struct Person {
    /// The session's client.
    pub peer: Peer<RoleServer>,
    /// The call's deadline.
    pub deadline: Deadline,
    /// The longest a person may take to answer; then nobody picked.
    pub wait: Duration,
}

impl Asker for Person {
    fn ask<'a>(&'a self, question: &'a Question) -> AskFuture<'a> {
        Box::pin(async move {
            let _still = self.deadline.pause();
            let answer = self
                .peer
                .create_elicitation_with_timeout(form::request(question), Some(self.wait))
                .await;
            match answer {
                Ok(answer) => form::picked(&answer),
                Err(error) => {
                    tracing::info!(%error, field = %question.field, "no answer to an elicitation");
                    None
                }
            }
        })
    }
}
