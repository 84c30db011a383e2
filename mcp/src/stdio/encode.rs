//! A message as the line rmcp writes for it (`serde_json`, then a newline). The server
//! answers a view's read over this transport with a marker for the page
//! ([`super::pages`]); the page is put in its place from its form serialised once,
//! rather than copied and escaped again.

use axum::body::Bytes;
use rmcp::model::{JsonRpcMessage, ServerJsonRpcMessage, ServerResult};

use super::lines::Line;
use super::pages::{MarkedPage, marked_page};

/// `message`'s line, newline included.
pub(super) fn line(mut message: ServerJsonRpcMessage) -> serde_json::Result<Line> {
    let marked = marked_text(&mut message).and_then(|text| {
        let page = marked_page(text)?;
        Some((page, serde_json::to_vec(text).ok()?))
    });
    let bytes = serialised(&message)?;
    let Some((
        MarkedPage {
            serialised: page,
            text,
        },
        marker,
    )) = marked
    else {
        return Ok(vec![bytes]);
    };
    match only_position(&bytes, &marker) {
        Some(at) => Ok(vec![
            bytes.slice(..at),
            page.clone(),
            bytes.slice(at + marker.len()..),
        ]),
        // Not to be reached: a message that holds the marker elsewhere too.
        None => {
            if let Some(marker) = marked_text(&mut message) {
                *marker = text.to_owned();
            }
            Ok(vec![serialised(&message)?])
        }
    }
}

/// The one text of a `resources/read` answer, which may be a marker for a view's page.
fn marked_text(message: &mut ServerJsonRpcMessage) -> Option<&mut String> {
    let JsonRpcMessage::Response(response) = message else {
        return None;
    };
    let ServerResult::ReadResourceResult(read) = &mut response.result else {
        return None;
    };
    crate::views::page_text_mut(read)
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

    /// The answer to a read of `uri` among every view, its page `marked` or not.
    fn read_answer(uri: &str, marked: bool) -> ServerJsonRpcMessage {
        let substitute =
            marked.then_some(super::super::pages::marked_read as crate::views::ReadSubstitute);
        let read = crate::views::read(uri, toolpack::views::all().iter(), substitute);
        let result = ServerResult::ReadResourceResult(read.expect("a view"));
        ServerJsonRpcMessage::response(result, RequestId::Number(7))
    }

    #[test]
    fn a_marked_page_is_the_one_serialised_at_start_not_a_new_copy() {
        for view in toolpack::views::all() {
            let expected = serde_json::to_vec(&read_answer(view.uri, false)).unwrap();
            let mut marked = read_answer(view.uri, true);
            let page = marked_page(marked_text(&mut marked).unwrap()).unwrap();
            let line = line(marked).unwrap();
            assert_eq!(line.len(), 3, "{}: head, page, tail", view.uri);
            assert_eq!(line[1].as_ptr(), page.serialised.as_ptr(), "{}", view.uri);
            assert!(
                line.concat() == [expected, b"\n".to_vec()].concat(),
                "{}: another line",
                view.uri
            );
        }
    }

    #[test]
    fn a_message_holding_the_marker_twice_gets_the_page_copied() {
        let mut message = read_answer("ui://toolpack/toilets", true);
        let marker = marked_text(&mut message).unwrap().clone();
        let JsonRpcMessage::Response(response) = &mut message else {
            unreachable!()
        };
        let ServerResult::ReadResourceResult(read) = &mut response.result else {
            unreachable!()
        };
        read.meta = Some(serde_json::from_value(serde_json::json!({"again": marker})).unwrap());
        let line = line(message).unwrap();
        assert_eq!(line.len(), 1);
        let answer: serde_json::Value = serde_json::from_slice(&line[0]).unwrap();
        let page = answer["result"]["contents"][0]["text"].as_str().unwrap();
        assert!(page.len() > 100_000 && page.contains("</html>"));
        assert_eq!(answer["result"]["_meta"]["again"], marker.as_str());
    }

    #[test]
    fn a_page_that_is_no_marker_is_serialised_whole() {
        let mut message = read_answer("ui://toolpack/toilets", true);
        *marked_text(&mut message).unwrap() = "<p>another page</p>".into();
        let line = line(message).unwrap();
        assert_eq!(line.len(), 1);
        let answer: serde_json::Value = serde_json::from_slice(&line[0]).unwrap();
        assert_eq!(
            answer["result"]["contents"][0]["text"],
            "<p>another page</p>"
        );
    }

    #[test]
    fn only_position_finds_a_single_occurrence_and_refuses_two() {
        assert_eq!(only_position(b"abXYcd", b"XY"), Some(2));
        assert_eq!(only_position(b"XYabXY", b"XY"), None);
        assert_eq!(only_position(b"abcd", b"XY"), None);
    }
}
