//! Asking the person: a tool that meets a name meaning several places asks whoever drives
//! the call to pick one, instead of handing the choice back to the model.
//!
//! One mechanism for every tool and every surface, like [`crate::report`]: a tool calls
//! [`choose`] with a [`Question`]; whoever drives the call decides who answers by running
//! it inside [`with_asker`] (the MCP server asks the person through MCP elicitation; the
//! Python, Node and Kotlin clients call the callback they were given). Without an asker,
//! or when nobody picks, [`choose`] gives `None` and the tool answers as it always has:
//! `DISAMBIGUATION_REQUIRED` with the candidates.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// Most choices a question offers (MCP hosts show them as one list).
pub const MAX_CHOICES: usize = 10;

/// One question: which of several places an argument means.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct Question {
    /// The argument being settled, e.g. `from`, `to`, `stop`, `stationName`.
    pub field: String,
    /// What the person is asked, e.g. "Which Edgware Road do you mean for from?".
    pub message: String,
    /// The places to pick from, most likely first; at most [`MAX_CHOICES`].
    pub choices: Vec<Choice>,
}

/// One place a person may pick.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct Choice {
    /// What the tool goes on with: the candidate's id or retry token.
    pub value: String,
    /// What the person reads: the name and what tells it apart, e.g.
    /// "Edgware Road — Bakerloo".
    pub title: String,
}

impl Question {
    /// A question about `field`, with `message`, offering the first [`MAX_CHOICES`] of
    /// `choices` (each value once).
    pub fn new(
        field: impl Into<String>,
        message: impl Into<String>,
        choices: impl IntoIterator<Item = Choice>,
    ) -> Self {
        let mut kept: Vec<Choice> = Vec::new();
        for choice in choices {
            if kept.len() == MAX_CHOICES {
                break;
            }
            if !kept.iter().any(|c| c.value == choice.value) {
                kept.push(choice);
            }
        }
        Self {
            field: field.into(),
            message: message.into(),
            choices: kept,
        }
    }

    /// Whether `value` is one of the offered choices.
    pub fn offers(&self, value: &str) -> bool {
        self.choices.iter().any(|c| c.value == value)
    }
}

/// The future an [`Asker`] answers with: the picked choice's value, or `None` when nobody
/// picked (declined, cancelled, timed out, or no way to ask).
pub type AskFuture<'a> = Pin<Box<dyn Future<Output = Option<String>> + Send + 'a>>;

/// Answers the questions of the calls run inside [`with_asker`].
pub trait Asker: Send + Sync {
    /// Asks `question`; the value of the picked choice, or `None`. An answer that is not
    /// one of the question's values counts as `None`.
    fn ask<'a>(&'a self, question: &'a Question) -> AskFuture<'a>;
}

tokio::task_local! {
    static ASKER: Option<Arc<dyn Asker>>;
}

/// `call` with its questions going to `asker` (`None`: nobody is asked). Not an `async fn`:
/// the future is `call`'s own plus the asker, never a second copy of `call` (the MCP server
/// wraps every call in one, and moves it).
pub fn with_asker<F: Future>(
    asker: Option<Arc<dyn Asker>>,
    call: F,
) -> impl Future<Output = F::Output> {
    ASKER.scope(asker, call)
}

/// Whether the current task already asks someone (runs inside [`with_asker`] with one).
pub fn has_asker() -> bool {
    ASKER.try_with(Option::is_some).unwrap_or(false)
}

/// Asks the current call's asker `question`: the picked value, checked to be one of the
/// question's choices; `None` without an asker, without choices, or when nobody picked.
pub async fn choose(question: &Question) -> Option<String> {
    if question.choices.is_empty() {
        return None;
    }
    let asker = ASKER.try_with(Clone::clone).ok().flatten()?;
    let picked = asker.ask(question).await?;
    question.offers(&picked).then_some(picked)
}

/// An [`Asker`] over a function that may block (a person typing, a dialog): it gets the
/// question and gives the picked value, or `None`. It runs on the blocking pool, never on the call's
/// thread: how the Python and Kotlin clients call an `on_choice` callback.
pub struct BlockingAsker<F>(Arc<F>);

impl<F> BlockingAsker<F>
where
    F: Fn(Question) -> Option<String> + Send + Sync + 'static,
{
    /// An asker calling `choose`.
    pub fn new(choose: F) -> Self {
        Self(Arc::new(choose))
    }
}

impl<F> Asker for BlockingAsker<F>
where
    F: Fn(Question) -> Option<String> + Send + Sync + 'static,
{
    fn ask<'a>(&'a self, question: &'a Question) -> AskFuture<'a> {
        let choose = Arc::clone(&self.0);
        let question = question.clone();
        Box::pin(async move {
            tokio::task::spawn_blocking(move || choose(question))
                .await
                .ok()
                .flatten()
        })
    }
}

/// A title: `name`, then what tells it apart when there is anything (`name — detail`).
pub fn titled(name: &str, detail: &str) -> String {
    if detail.is_empty() {
        name.to_owned()
    } else {
        format!("{name} — {detail}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Answers each question with a fixed value and keeps what it was asked.
    struct Fixed(&'static str, Mutex<Vec<Question>>);

    impl Asker for Fixed {
        fn ask<'a>(&'a self, question: &'a Question) -> AskFuture<'a> {
            self.1.lock().unwrap().push(question.clone());
            Box::pin(async move { Some(self.0.to_owned()) })
        }
    }

    fn question() -> Question {
        let choice = |value: &str, title: &str| Choice {
            value: value.into(),
            title: title.into(),
        };
        Question::new(
            "stop",
            "Which Edgware Road?",
            [
                choice("940GZZLUERB", "Edgware Road — Bakerloo"),
                choice("940GZZLUERB", "the same again"),
                choice("940GZZLUERC", "Edgware Road — Circle, District"),
            ],
        )
    }

    #[tokio::test]
    async fn only_an_offered_choice_is_an_answer() {
        assert_eq!(choose(&question()).await, None, "no asker: nobody picks");
        let offered = Arc::new(Fixed("940GZZLUERC", Mutex::default()));
        let picked = with_asker(Some(offered.clone()), choose(&question())).await;
        assert_eq!(picked.as_deref(), Some("940GZZLUERC"));
        let asked = offered.1.lock().unwrap().clone();
        assert_eq!(asked.len(), 1);
        assert_eq!(asked[0].choices.len(), 2, "each value once");
        let made_up = Arc::new(Fixed("940GZZLUOXC", Mutex::default()));
        assert_eq!(with_asker(Some(made_up), choose(&question())).await, None);
        let empty = Question::new("stop", "?", []);
        let never = Arc::new(Fixed("x", Mutex::default()));
        assert_eq!(with_asker(Some(never.clone()), choose(&empty)).await, None);
        assert!(
            never.1.lock().unwrap().is_empty(),
            "nothing to pick: not asked"
        );
    }

    #[tokio::test]
    async fn a_blocking_function_gets_the_question_as_json() {
        let asker = Arc::new(BlockingAsker::new(|question: Question| {
            assert_eq!(question.field, "stop");
            assert_eq!(question.choices[1].title, "Edgware Road — Circle, District");
            Some(question.choices[1].value.clone())
        }));
        let picked = with_asker(Some(asker), choose(&question())).await;
        assert_eq!(picked.as_deref(), Some("940GZZLUERC"));
        let panics = Arc::new(BlockingAsker::new(|_: Question| -> Option<String> {
            panic!("the callback failed")
        }));
        assert_eq!(with_asker(Some(panics), choose(&question())).await, None);
    }

    #[test]
    fn titles_say_what_tells_places_apart() {
        assert_eq!(titled("Bank", ""), "Bank");
        assert_eq!(
            titled("Edgware Road", "Bakerloo"),
            "Edgware Road — Bakerloo"
        );
        let many = (0..15).map(|i| Choice {
            value: i.to_string(),
            title: i.to_string(),
        });
        assert_eq!(Question::new("f", "m", many).choices.len(), MAX_CHOICES);
    }
}
