//! Asking the person which place a name means (MCP elicitation), with rmcp's client:
//! a session client that announced form elicitation is asked and the call goes on with
//! the pick; a decline, a cancel, a client that cannot be asked and a person who takes
//! too long all get the answer as it was; the call's deadline stands still while the
//! person chooses; a client on protocol 2026-07-28 gets the input-required result and
//! completes the call by retrying it, with a sealed state it cannot forge.

use crate::common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig, ElicitRequestParams,
    ElicitResult, ElicitationAction, Implementation,
};
use rmcp::service::{RequestContext, RoleClient, RunningService};
use rmcp::{ClientHandler, ErrorData};
use serde_json::{Value, json};
use toolpack_mcp::{ServerLimits, ToolpackServer};

/// What the person does with a form.
#[derive(Clone, Copy)]
enum Person {
    Picks(&'static str),
    Declines,
    Cancels,
    /// Picks, after taking this long.
    PicksAfter(&'static str, Duration),
}

/// A client that announces form elicitation and answers as its person does, keeping the
/// forms it was shown.
#[derive(Clone)]
struct Asked {
    person: Person,
    forms: Arc<Mutex<Vec<Value>>>,
    announces: bool,
}

impl Asked {
    fn new(person: Person) -> Self {
        Self {
            person,
            forms: Arc::default(),
            announces: true,
        }
    }

    fn forms(&self) -> Vec<Value> {
        self.forms.lock().unwrap().clone()
    }
}

impl ClientHandler for Asked {
    fn get_info(&self) -> ClientConfig {
        let capabilities = if self.announces {
            ClientCapabilities::builder().enable_elicitation().build()
        } else {
            ClientCapabilities::default()
        };
        ClientConfig::new(capabilities, Implementation::new("asked", "1"))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.forms
            .lock()
            .unwrap()
            .push(serde_json::to_value(&request).unwrap());
        Ok(match self.person {
            Person::Picks(value) => accept(value),
            Person::Declines => ElicitResult::new(ElicitationAction::Decline),
            Person::Cancels => ElicitResult::new(ElicitationAction::Cancel),
            Person::PicksAfter(value, wait) => {
                tokio::time::sleep(wait).await;
                accept(value)
            }
        })
    }
}

fn accept(value: &str) -> ElicitResult {
    ElicitResult::new(ElicitationAction::Accept).with_content(json!({"choice": value}))
}

fn server(limits: ServerLimits) -> ToolpackServer {
    common::server_with(&common::settings(&[])).with_limits(limits)
}

fn edgware_road() -> CallToolRequestParams {
    let arguments = json!({"stationName": "Edgware Road"});
    CallToolRequestParams::new("stationToilets")
        .with_arguments(arguments.as_object().unwrap().clone())
}

async fn toilets(client: &RunningService<RoleClient, Asked>) -> Value {
    let result = client.call_tool(edgware_road()).await.expect("answers");
    common::body_of(&result).1
}

/// The answer a client that cannot be asked gets: as it always was.
fn ambiguous(body: &Value) {
    assert_eq!(body["code"], "DISAMBIGUATION_REQUIRED", "{body}");
    let ids: Vec<&str> = body["stationDisambiguation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["stationUniqueId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["940GZZLUERB", "940GZZLUERC"], "{body}");
}

#[tokio::test]
async fn a_person_who_picks_gets_that_stations_answer_in_the_same_call() {
    let asked = Asked::new(Person::Picks("940GZZLUERC"));
    let client = common::duplex_client(server(ServerLimits::default()), asked.clone()).await;
    let body = toilets(&client).await;
    assert_eq!(body["code"], "OK", "{body}");
    assert_eq!(body["stationUniqueId"], "940GZZLUERC");
    let forms = asked.forms();
    assert_eq!(forms.len(), 1, "asked once");
    assert_eq!(forms[0]["mode"], "form");
    assert_eq!(
        forms[0]["message"],
        "Which station do you mean by \"Edgware Road\"?"
    );
    assert_eq!(
        forms[0]["requestedSchema"]["properties"]["choice"]["oneOf"],
        json!([
            {"const": "940GZZLUERB", "title": "Edgware Road — Bakerloo"},
            {"const": "940GZZLUERC", "title": "Edgware Road — Circle, District, Hammersmith & City"}
        ])
    );
}

#[tokio::test]
async fn a_decline_a_cancel_or_no_way_to_ask_gets_todays_answer() {
    for person in [Person::Declines, Person::Cancels] {
        let asked = Asked::new(person);
        let client = common::duplex_client(server(ServerLimits::default()), asked.clone()).await;
        ambiguous(&toilets(&client).await);
        assert_eq!(asked.forms().len(), 1);
    }
    let silent = Asked {
        announces: false,
        ..Asked::new(Person::Picks("940GZZLUERC"))
    };
    let client = common::duplex_client(server(ServerLimits::default()), silent.clone()).await;
    ambiguous(&toilets(&client).await);
    assert!(
        silent.forms().is_empty(),
        "a client without elicitation is never asked"
    );
}

#[tokio::test]
async fn the_deadline_stands_still_while_the_person_chooses_and_the_wait_has_its_own_bound() {
    let limits = ServerLimits {
        call_deadline: Duration::from_millis(300),
        elicitation_wait: Duration::from_secs(20),
        ..ServerLimits::default()
    };
    let slow = Asked::new(Person::PicksAfter(
        "940GZZLUERB",
        Duration::from_millis(900),
    ));
    let client = common::duplex_client(server(limits), slow).await;
    let body = toilets(&client).await;
    assert_eq!(body["stationUniqueId"], "940GZZLUERB", "{body}");

    let limits = ServerLimits {
        elicitation_wait: Duration::from_millis(200),
        ..ServerLimits::default()
    };
    let slower = Asked::new(Person::PicksAfter("940GZZLUERB", Duration::from_secs(2)));
    let client = common::duplex_client(server(limits), slower).await;
    ambiguous(&toilets(&client).await);
}

/// A client and a server speaking protocol 2026-07-28 over an in-process pipe.
async fn on_2026_07_28(asked: Asked) -> RunningService<RoleClient, Asked> {
    on_2026_07_28_with(asked, ServerLimits::default()).await
}

/// [`on_2026_07_28`], the server with `limits`.
async fn on_2026_07_28_with(
    asked: Asked,
    limits: ServerLimits,
) -> RunningService<RoleClient, Asked> {
    common::duplex_client_on_2026_07_28(
        server(limits),
        asked,
        ClientCapabilities::builder().enable_elicitation().build(),
    )
}

#[tokio::test]
async fn a_2026_07_28_client_completes_the_call_by_retrying_with_the_answer() {
    let asked = Asked::new(Person::Picks("940GZZLUERC"));
    let client = on_2026_07_28(asked.clone()).await;
    // The first round by hand: the input-required result, its question and sealed state.
    let first = client
        .call_tool_once(edgware_road())
        .await
        .expect("answers");
    let CallToolResponse::InputRequired(required) = first else {
        panic!("not input-required: {first:?}");
    };
    let requests = serde_json::to_value(&required.input_requests).unwrap();
    assert_eq!(requests["stationName"]["method"], "elicitation/create");
    assert_eq!(
        requests["stationName"]["params"]["requestedSchema"]["properties"]["choice"]["oneOf"][1]["const"],
        "940GZZLUERC"
    );
    let state = required.request_state.clone().expect("a sealed state");

    // A forged or altered state is refused; so is one replayed for other arguments.
    let mut forged = edgware_road();
    forged.request_state = Some(format!("{state}x"));
    let refused = client.call_tool_once(forged).await.unwrap_err().to_string();
    assert!(refused.contains("requestState"), "{refused}");
    let mut elsewhere = CallToolRequestParams::new("stationToilets").with_arguments(
        json!({"stationName": "Edgware"})
            .as_object()
            .unwrap()
            .clone(),
    );
    elsewhere.request_state = Some(state.clone());
    assert!(client.call_tool_once(elsewhere).await.is_err());

    // rmcp's client drives the rounds itself: the person is asked, the retry answers OK.
    let body = toilets(&client).await;
    assert_eq!(body["code"], "OK", "{body}");
    assert_eq!(body["stationUniqueId"], "940GZZLUERC");
    assert_eq!(asked.forms().len(), 1);

    // A retry whose answer is not one of the offered choices counts as nobody picking.
    let mut made_up = edgware_road();
    made_up.request_state = Some(state);
    made_up.input_responses = Some(
        [(
            "stationName".to_owned(),
            json!({"action": "accept", "content": {"choice": "940GZZLUOXC"}}),
        )]
        .into(),
    );
    let CallToolResponse::Complete(result) = client.call_tool_once(made_up).await.unwrap() else {
        panic!("a final answer");
    };
    ambiguous(&common::body_of(&result).1);
}

#[tokio::test]
async fn a_2026_07_28_decline_gets_todays_answer() {
    let client = on_2026_07_28(Asked::new(Person::Declines)).await;
    ambiguous(&toilets(&client).await);
}

#[tokio::test]
async fn a_2026_07_28_state_is_good_for_the_elicitation_wait_only() {
    let limits = ServerLimits {
        elicitation_wait: Duration::from_millis(300),
        ..ServerLimits::default()
    };
    let client = on_2026_07_28_with(Asked::new(Person::Declines), limits).await;
    let CallToolResponse::InputRequired(required) =
        client.call_tool_once(edgware_road()).await.unwrap()
    else {
        panic!("input-required");
    };
    tokio::time::sleep(Duration::from_millis(600)).await;
    let mut late = edgware_road();
    late.request_state = required.request_state;
    late.input_responses = Some(
        [(
            "stationName".to_owned(),
            json!({"action": "accept", "content": {"choice": "940GZZLUERB"}}),
        )]
        .into(),
    );
    let refused = client.call_tool_once(late).await.unwrap_err().to_string();
    assert!(refused.contains("expired"), "{refused}");
}
