//! gzip answers whose bulk is compressed once: a view's `resources/read` result (~330 KB,
//! ~90 KB compressed) is deflated once for the life of the process, and each answer only
//! puts its own head (`{"jsonrpc":"2.0","id":…,"result":`) in front, as stored deflate
//! blocks, with the CRC-32 of the whole combined from the two parts'.
//!
//! A deflate stream may hold any number of blocks, and a stored block ends on a byte
//! boundary, so stored blocks of the head followed by the tail's own stream (which starts
//! on one) are one valid stream; the tail's back-references never reach into the head.

use std::collections::VecDeque;
use std::io::Write;

use axum::body::Bytes;
use axum::http::{HeaderMap, header};
use flate2::Compression;
use flate2::write::DeflateEncoder;

use super::reply::Chunks;

/// The ten bytes every gzip member here starts with: magic, deflate, no flags, no time,
/// no extra flags, operating system unknown.
const HEADER: [u8; 10] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];

/// The most bytes one stored deflate block holds.
const STORED_BLOCK_MAX: usize = u16::MAX as usize;

/// A tail compressed once, to be sent behind heads compressed per answer.
pub(crate) struct CompressedTail {
    /// The tail as one deflate stream ending in its final block.
    deflated: Bytes,
    /// The CRC-32 of the tail (and its length, which `combine` needs).
    crc: crc32fast::Hasher,
    /// The tail's length.
    length: usize,
}

impl CompressedTail {
    /// `tail` compressed at the default level.
    pub fn new(tail: &[u8]) -> std::io::Result<Self> {
        let mut encoder = DeflateEncoder::new(Vec::new(), Compression::default());
        encoder.write_all(tail)?;
        let mut crc = crc32fast::Hasher::new();
        crc.update(tail);
        Ok(Self {
            deflated: Bytes::from(encoder.finish()?),
            crc,
            length: tail.len(),
        })
    }

    /// The gzip member of `head` followed by the tail, in shared chunks.
    pub fn behind(&self, head: &[u8]) -> Chunks {
        let mut start = Vec::with_capacity(HEADER.len() + head.len() + 5);
        start.extend_from_slice(&HEADER);
        for block in head.chunks(STORED_BLOCK_MAX) {
            // BFINAL 0, BTYPE 00 (stored), then LEN and its one's complement.
            let length = u16::try_from(block.len()).unwrap_or(u16::MAX);
            start.push(0);
            start.extend_from_slice(&length.to_le_bytes());
            start.extend_from_slice(&(!length).to_le_bytes());
            start.extend_from_slice(block);
        }
        let mut crc = crc32fast::Hasher::new();
        crc.update(head);
        crc.combine(&self.crc);
        let mut trailer = crc.finalize().to_le_bytes().to_vec();
        // ISIZE: the uncompressed length modulo 2^32.
        let size = (head.len() + self.length) as u64 % (1 << 32);
        trailer.extend_from_slice(&(size as u32).to_le_bytes());
        Chunks(VecDeque::from([
            Bytes::from(start),
            self.deflated.clone(),
            Bytes::from(trailer),
        ]))
    }
}

/// Whether the request's `Accept-Encoding` takes gzip: a `gzip` (or `x-gzip`) coding
/// whose weight is not zero. `*` is not read as gzip: a client that names no coding gets
/// the bytes as they are.
pub(crate) fn accepted(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            let name = parts.next().unwrap_or_default();
            let named = name.eq_ignore_ascii_case("gzip") || name.eq_ignore_ascii_case("x-gzip");
            named && parts.all(|parameter| !weighs_zero(parameter))
        })
}

/// Whether `parameter` is a weight of zero (`q=0`, `q=0.000`).
fn weighs_zero(parameter: &str) -> bool {
    let Some((name, value)) = parameter.split_once('=') else {
        return false;
    };
    name.trim().eq_ignore_ascii_case("q") && value.trim().parse::<f32>().is_ok_and(|q| q <= 0.0)
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use axum::http::HeaderValue;
    use flate2::read::GzDecoder;

    use super::*;

    /// What a gzip decoder reads from `chunks`.
    fn decoded(chunks: Chunks) -> Vec<u8> {
        let compressed: Vec<u8> = chunks.0.into_iter().flatten().collect();
        let mut decoder = GzDecoder::new(compressed.as_slice());
        let mut out = Vec::new();
        decoder.read_to_end(&mut out).expect("a valid gzip member");
        // One member, nothing after it.
        assert!(decoder.into_inner().is_empty());
        out
    }

    #[test]
    fn a_head_in_front_of_the_compressed_tail_decodes_to_both() {
        let tail: Vec<u8> = (0..400_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let compressed = CompressedTail::new(&tail).expect("compressed");
        for head_length in [0, 1, 35, STORED_BLOCK_MAX, STORED_BLOCK_MAX + 1, 200_000] {
            let head: Vec<u8> = (0..head_length).map(|i| (i % 89) as u8).collect();
            let expected = [head.as_slice(), tail.as_slice()].concat();
            assert_eq!(decoded(compressed.behind(&head)), expected, "{head_length}");
        }
    }

    #[test]
    fn an_empty_tail_still_makes_a_valid_member() {
        let compressed = CompressedTail::new(b"").expect("compressed");
        assert_eq!(decoded(compressed.behind(b"{\"id\":1}")), b"{\"id\":1}");
    }

    #[test]
    fn gzip_is_taken_only_when_named_with_a_weight_above_zero() {
        let cases = [
            ("gzip, deflate, br", true),
            ("br;q=1.0, GZIP;q=0.5", true),
            ("x-gzip", true),
            ("deflate, gzip ; q=0.001", true),
            ("gzip;q=0", false),
            ("gzip; q=0.000", false),
            ("deflate, br", false),
            ("*", false),
            ("identity", false),
            ("gzipped", false),
        ];
        for (value, expected) in cases {
            let mut headers = HeaderMap::new();
            headers.insert(header::ACCEPT_ENCODING, HeaderValue::from_static(value));
            assert_eq!(accepted(&headers), expected, "{value}");
        }
        assert!(!accepted(&HeaderMap::new()));
    }
}
