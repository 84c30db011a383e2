//! The views' reads as gzip answers send them: each read's result and the message's end,
//! compressed once for the life of the process ([`CompressedTail`]), behind which each
//! answer puts only its own head.

use std::sync::LazyLock;

use super::gzip::CompressedTail;
use super::reply::RESPONSE_END;
use crate::views::SerialisedRead;

/// Each view's compressed tail, by its place among all the views (`None` when it has no
/// serialised read or compressing failed).
static TAILS: LazyLock<Vec<Option<CompressedTail>>> = LazyLock::new(|| {
    crate::views::serialised_reads()
        .iter()
        .map(|read| {
            let tail = [&read.as_ref()?.result[..], RESPONSE_END].concat();
            CompressedTail::new(&tail).ok()
        })
        .collect()
});

/// Compresses every view's tail now rather than on the first gzip read: blocking work,
/// for a blocking thread at start-up.
pub(crate) fn prepare() {
    LazyLock::force(&TAILS);
}

/// `read`'s tail compressed, or `None` if compressing it failed.
pub(super) fn tail_of(read: &SerialisedRead) -> Option<&'static CompressedTail> {
    TAILS.get(read.index)?.as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_view_has_its_tail_compressed() {
        prepare();
        assert_eq!(TAILS.len(), toolpack::views::all().len());
        assert!(TAILS.iter().all(Option::is_some));
    }
}
