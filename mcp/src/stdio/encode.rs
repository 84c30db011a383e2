//! A message as the line rmcp writes for it (`serde_json`, then a newline), with a view's
//! page spliced in from its serialised form rather than escaped again.

use axum::body::Bytes;
use rmcp::model::{JsonRpcMessage, ResourceContents, ServerJsonRpcMessage, ServerResult};

use super::lines::Line;

/// What stands for the page while the rest of the message is serialised: no page or
/// other string of a read's answer holds it.
const PLACEHOLDER: &str = "\u{0}toolpack view page\u{0}";

/// [`PLACEHOLDER`] as JSON.
const PLACEHOLDER_JSON: &[u8] = br#""\u0000toolpack view page\u0000""#;

/// `message`'s line, newline included.
pub(super) fn line(mut message: ServerJsonRpcMessage) -> serde_json::Result<Line> {
    let spliced = page_of(&mut message).and_then(|text| {
        let page = crate::views::serialised_page(text)?;
        Some((std::mem::replace(text, PLACEHOLDER.to_owned()), page))
    });
    let bytes = serialised(&message)?;
    let Some((text, page)) = spliced else {
        return Ok(vec![bytes]);
    };
    match only_position(&bytes, PLACEHOLDER_JSON) {
        Some(at) => Ok(vec![
            bytes.slice(..at),
            page.clone(),
            bytes.slice(at + PLACEHOLDER_JSON.len()..),
        ]),
        // Not to be reached: a message that holds the placeholder elsewhere too.
        None => {
            if let Some(placeholder) = page_of(&mut message) {
                *placeholder = text;
            }
            Ok(vec![serialised(&message)?])
        }
    }
}

/// The one text of a `resources/read` answer, which may be a view's page.
fn page_of(message: &mut ServerJsonRpcMessage) -> Option<&mut String> {
    let JsonRpcMessage::Response(response) = message else {
        return None;
    };
    let ServerResult::ReadResourceResult(read) = &mut response.result else {
        return None;
    };
    match read.contents.as_mut_slice() {
        [ResourceContents::TextResourceContents { text, .. }] => Some(text),
        _ => None,
    }
}

/// `message` serialised, with the newline that ends its line.
fn serialised(message: &ServerJsonRpcMessage) -> serde_json::Result<Bytes> {
    let mut bytes = serde_json::to_vec(message)?;
    bytes.push(b'\n');
    Ok(Bytes::from(bytes))
}

/// Where `needle` is in `haystack`, if it is there exactly once.
fn only_position(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let mut found = haystack
        .windows(needle.len())
        .enumerate()
        .filter(|(_, window)| *window == needle)
        .map(|(at, _)| at);
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

#[cfg(test)]
mod tests {
    use rmcp::model::RequestId;

    use super::*;

    /// The answer to a read of `uri` among every view, with its page.
    fn read_answer(uri: &str) -> (ServerJsonRpcMessage, String) {
        let read = crate::views::read(uri, toolpack::views::all().iter()).expect("a view");
        let page = match &read.contents[..] {
            [ResourceContents::TextResourceContents { text, .. }] => text.clone(),
            _ => panic!("a page"),
        };
        let result = ServerResult::ReadResourceResult(read);
        (
            ServerJsonRpcMessage::response(result, RequestId::Number(7)),
            page,
        )
    }

    #[test]
    fn a_views_page_is_the_one_serialised_at_start_not_a_new_copy() {
        for view in toolpack::views::all() {
            let (message, page) = read_answer(view.uri);
            let expected = serde_json::to_vec(&message).unwrap();
            let line = line(message).unwrap();
            assert_eq!(line.len(), 3, "{}: head, page, tail", view.uri);
            let shared = crate::views::serialised_page(&page).unwrap();
            assert_eq!(line[1].as_ptr(), shared.as_ptr(), "{}", view.uri);
            assert_eq!(line.concat(), [expected, b"\n".to_vec()].concat());
        }
    }

    #[test]
    fn a_page_that_is_no_views_is_serialised_whole() {
        let (mut message, _) = read_answer("ui://toolpack/toilets");
        *page_of(&mut message).unwrap() = "<p>another page</p>".into();
        let line = line(message).unwrap();
        assert_eq!(line.len(), 1);
        let answer: serde_json::Value = serde_json::from_slice(&line[0]).unwrap();
        assert_eq!(
            answer["result"]["contents"][0]["text"],
            "<p>another page</p>"
        );
    }

    #[test]
    fn the_placeholder_json_is_the_placeholder_serialised() {
        assert_eq!(
            serde_json::to_vec(PLACEHOLDER).unwrap(),
            PLACEHOLDER_JSON.to_vec()
        );
    }

    #[test]
    fn only_position_finds_a_single_occurrence_and_refuses_two() {
        assert_eq!(only_position(b"abXYcd", b"XY"), Some(2));
        assert_eq!(only_position(b"XYabXY", b"XY"), None);
        assert_eq!(only_position(b"abcd", b"XY"), None);
    }
}
