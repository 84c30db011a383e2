//! Markers for the views' pages: over this transport the server answers a view's read
//! with a marker in the page's place ([`marked_read`], given to the server as its
//! [`crate::views::ReadSubstitute`]), and the line's writer puts the page, serialised
//! once, where the marker is ([`marked_page`]).

use std::sync::LazyLock;

use axum::body::Bytes;
use rmcp::model::ReadResourceResult;

use crate::views::{page_text, page_text_mut};

/// What a marker for a view's page starts and ends with; its view's index is between.
/// No page or other string of a read's answer holds it.
const MARKER_ENDS: (&str, &str) = ("\u{0}toolpack view page ", "\u{0}");

/// Each view's `resources/read` result with a marker for its page instead of the page.
static MARKED: LazyLock<Vec<Option<ReadResourceResult>>> = LazyLock::new(|| {
    crate::views::converted_reads()
        .enumerate()
        .map(|(index, read)| {
            let mut marked = read?.clone();
            *page_text_mut(&mut marked)? = format!("{}{index}{}", MARKER_ENDS.0, MARKER_ENDS.1);
            Some(marked)
        })
        .collect()
});

/// Puts the marked reads together now rather than on their first reads.
pub(crate) fn prepare() {
    LazyLock::force(&MARKED);
}

/// The read of the view at `index` with a marker for its page.
pub(super) fn marked_read(index: usize) -> Option<ReadResourceResult> {
    MARKED.get(index).cloned().flatten()
}

/// The page a marker stands for.
pub(super) struct MarkedPage {
    /// The page as a JSON string, serialised once.
    pub serialised: &'static Bytes,
    /// The page itself.
    pub text: &'static str,
}

/// The page `text` is a marker for, if it is one.
pub(super) fn marked_page(text: &str) -> Option<MarkedPage> {
    let index = text
        .strip_prefix(MARKER_ENDS.0)?
        .strip_suffix(MARKER_ENDS.1)?
        .parse::<usize>()
        .ok()?;
    let read = crate::views::converted_reads().nth(index)??;
    Some(MarkedPage {
        serialised: &crate::views::serialised_reads().get(index)?.as_ref()?.page,
        text: page_text(read)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_marker_stands_for_its_own_views_page() {
        prepare();
        let reads: Vec<_> = crate::views::converted_reads().collect();
        assert_eq!(MARKED.len(), reads.len());
        for (index, marked) in MARKED.iter().enumerate() {
            let marked = marked.as_ref().expect("a marked read");
            let page = marked_page(page_text(marked).expect("a marker")).expect("its page");
            let read = reads[index].expect("a converted read");
            assert_eq!(page.text, page_text(read).expect("a page"));
        }
    }
}
