//! Asking a stateless client on protocol 2026-07-28: the call answers with the
//! input-required result (SEP-2322), its questions as `elicitation/create` input
//! requests, and what the server needs to go on sealed in `requestState`. The client
//! retries the same call with the person's answers in `inputResponses` and the state as
//! it was; the retry runs the tool again, which meets the same questions and finds them
//! answered.
//!
//! The state is the answers so far and the choices offered now, sealed with HMAC-SHA256
//! (rmcp's `RequestStateCodec`), bound to the caller, the tool and its arguments, and good
//! for as long as a person may take to answer. A forged, altered, replayed-elsewhere or
//! expired state is refused with a JSON-RPC error.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

use rmcp::ErrorData as McpError;
use rmcp::model::{
    CallToolRequestParams, ElicitRequest, InputRequest, InputRequiredResult, RequestStateCodec,
    SealOptions,
};
use serde::{Deserialize, Serialize};
use toolpack::Caller;
use toolpack::ask::{AskFuture, Asker, Question};

use super::form;

/// The key that seals request states: the configured one (the same on every replica), or
/// one drawn for this process.
#[derive(Clone, Debug)]
pub struct StateKey(RequestStateCodec);

/// What `requestState` carries: the answers so far and the choices offered now.
#[derive(Debug, Default, Serialize, Deserialize)]
struct State {
    /// By field: the picked value, or `None` when nobody picked.
    answered: BTreeMap<String, Option<String>>,
    /// The fields asked about in the round this state closes, with the values offered.
    asked: BTreeMap<String, Vec<String>>,
}

impl StateKey {
    /// At least 32 bytes of key (`TOOLPACK_REQUEST_STATE_KEY`), or why not.
    pub fn new(key: &[u8]) -> Result<Self, String> {
        RequestStateCodec::try_new(key.to_vec())
            .map(Self)
            .map_err(|error| format!("request state key: {error}"))
    }

    /// A key of 32 random bytes, for a server with no replicas.
    pub fn random() -> Self {
        let mut key = [0u8; 32];
        if getrandom::fill(&mut key).is_err() {
            // No entropy source: a key from the clock and the process, still unknown to
            // clients, who never see it.
            let seed = format!("{:?}{}", std::time::SystemTime::now(), std::process::id());
            key = sha2::Digest::finalize(<sha2::Sha256 as sha2::Digest>::new_with_prefix(seed))
                .into();
        }
        Self(RequestStateCodec::new_unchecked(key.to_vec()))
    }
}

/// The questions of one call of a 2026-07-28 client: answered from its retry, or kept
/// for the input-required result.
#[derive(Debug, Default)]
pub(crate) struct Later {
    state: State,
    /// This round's questions nobody has answered yet, in the order the tool asked.
    unanswered: Mutex<Vec<Question>>,
}

/// What a state is bound to: who calls, which tool, with what.
fn binding(caller: &Caller, request: &CallToolRequestParams) -> Vec<u8> {
    let arguments = serde_json::to_string(&request.arguments).unwrap_or_default();
    format!("{}\n{}\n{arguments}", caller.id(), request.name).into_bytes()
}

impl Later {
    /// The questions of `request`: a first call knows no answers; a retry's are its
    /// `inputResponses` to the offered choices, on top of the sealed answers before them.
    pub fn open(
        request: &CallToolRequestParams,
        caller: &Caller,
        key: &StateKey,
    ) -> Result<Self, McpError> {
        let Some(sealed) = request.request_state.as_deref() else {
            return Ok(Self::default());
        };
        let bytes = key
            .0
            .open_with(sealed, &binding(caller, request))
            .map_err(|error| {
                McpError::invalid_params(
                    format!("requestState is not one this server issued for this call: {error}"),
                    None,
                )
            })?;
        let mut state: State = serde_json::from_slice(&bytes)
            .map_err(|_| McpError::invalid_params("requestState is not readable", None))?;
        let responses = request.input_responses.clone().unwrap_or_default();
        for (field, offered) in std::mem::take(&mut state.asked) {
            let picked = responses
                .get(&field)
                .and_then(form::picked_json)
                .filter(|value| offered.contains(value));
            state.answered.insert(field, picked);
        }
        Ok(Self {
            state,
            unanswered: Mutex::default(),
        })
    }

    /// The input-required result for the questions nobody has answered yet, if any.
    pub fn input_required(
        &self,
        request: &CallToolRequestParams,
        caller: &Caller,
        key: &StateKey,
        wait: Duration,
    ) -> Option<InputRequiredResult> {
        let unanswered = std::mem::take(&mut *self.unanswered.lock().ok()?);
        if unanswered.is_empty() {
            return None;
        }
        let state = State {
            answered: self.state.answered.clone(),
            asked: unanswered
                .iter()
                .map(|q| {
                    let values = q.choices.iter().map(|c| c.value.clone()).collect();
                    (q.field.clone(), values)
                })
                .collect(),
        };
        let sealed = key
            .0
            .seal_json_with(
                &state,
                &SealOptions::new()
                    .associated_data(&binding(caller, request))
                    .ttl(wait),
            )
            .ok()?;
        let requests = unanswered
            .iter()
            .map(|q| {
                let elicit = ElicitRequest::new(form::request(q));
                (q.field.clone(), InputRequest::Elicitation(elicit))
            })
            .collect();
        Some(InputRequiredResult::new(Some(requests), Some(sealed)))
    }
}

impl Asker for Later {
    fn ask<'a>(&'a self, question: &'a Question) -> AskFuture<'a> {
        let answer = match self.state.answered.get(&question.field) {
            Some(answer) => answer.clone(),
            None => {
                if let Ok(mut unanswered) = self.unanswered.lock() {
                    unanswered.push(question.clone());
                }
                None
            }
        };
        Box::pin(std::future::ready(answer))
    }
}
