//! A tool's question as an MCP elicitation form, and the person's answer read back.
//!
//! The form has one required property, `choice`: a single choice whose options carry the
//! places' titles (`oneOf: [{const, title}]`, MCP's titled single-select enum).

use std::collections::BTreeMap;

use rmcp::model::{
    ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationSchema, EnumSchema,
    PrimitiveSchemaDefinition,
};
use serde_json::Value;
use toolpack::ask::Question;

/// The form's one property.
pub(crate) const CHOICE: &str = "choice";

/// The elicitation request asking `question`.
pub(crate) fn request(question: &Question) -> ElicitRequestParams {
    let values: Vec<String> = question.choices.iter().map(|c| c.value.clone()).collect();
    let titles: Vec<String> = question.choices.iter().map(|c| c.title.clone()).collect();
    let choice = match EnumSchema::builder(values.clone()).enum_titles(titles) {
        Ok(titled) => titled.title("Place").build(),
        // Only when titles and values differ in number, which they never do here.
        Err(_) => EnumSchema::builder(values).build(),
    };
    let property = PrimitiveSchemaDefinition::Enum(choice);
    let schema = ElicitationSchema::builder()
        .required_property(CHOICE, property.clone())
        .build()
        // Only for a required property that is not there, which it always is here.
        .unwrap_or_else(|_| ElicitationSchema::new(BTreeMap::from([(CHOICE.into(), property)])));
    ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: question.message.clone(),
        requested_schema: schema,
    }
}

/// The value the person picked: only from an accepted form; `None` for a decline, a
/// cancel, or a form without a `choice` string.
pub(crate) fn picked(answer: &ElicitResult) -> Option<String> {
    if answer.action != ElicitationAction::Accept {
        return None;
    }
    answer
        .content
        .as_ref()?
        .get(CHOICE)?
        .as_str()
        .map(str::to_owned)
}

/// [`picked`] from an answer as JSON (a 2026-07-28 client's `inputResponses` entry).
pub(crate) fn picked_json(answer: &Value) -> Option<String> {
    serde_json::from_value::<ElicitResult>(answer.clone())
        .ok()
        .and_then(|answer| picked(&answer))
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolpack::ask::Choice;

    #[test]
    fn the_form_is_one_titled_single_choice() {
        let question = Question::new(
            "from",
            "Which place do you mean by \"Edgware Road\" (from)?",
            [
                Choice {
                    value: "1000075".into(),
                    title: "Edgware Road — Bakerloo".into(),
                },
                Choice {
                    value: "1000076".into(),
                    title: "Edgware Road — Circle, District, Hammersmith & City".into(),
                },
            ],
        );
        let json = serde_json::to_value(request(&question)).unwrap();
        assert_eq!(json["mode"], "form");
        assert_eq!(json["message"], question.message);
        let schema = &json["requestedSchema"];
        assert_eq!(schema["required"], serde_json::json!(["choice"]));
        let choice = &schema["properties"]["choice"];
        assert_eq!(choice["type"], "string");
        assert_eq!(
            choice["oneOf"],
            serde_json::json!([
                {"const": "1000075", "title": "Edgware Road — Bakerloo"},
                {"const": "1000076", "title": "Edgware Road — Circle, District, Hammersmith & City"}
            ])
        );
    }

    #[test]
    fn only_an_accepted_form_picks() {
        let accepted = serde_json::json!({"action": "accept", "content": {"choice": "1000075"}});
        assert_eq!(picked_json(&accepted).as_deref(), Some("1000075"));
        for answer in [
            serde_json::json!({"action": "decline"}),
            serde_json::json!({"action": "cancel"}),
            serde_json::json!({"action": "accept", "content": {"choice": 7}}),
            serde_json::json!({"action": "accept", "content": {}}),
            serde_json::json!({"action": "accept"}),
            serde_json::json!("accept"),
        ] {
            assert_eq!(picked_json(&answer), None, "{answer}");
        }
    }
}
