//! Icons: toolpack's own and one per tool family, small SVGs (a 24×24 view box, no
//! external references) kept in `core/data/icons/`. The MCP server hands them to hosts as
//! `data:` URIs on its implementation info and on each tool, so nothing is fetched.

use crate::Toolset;

/// The MIME type of every icon.
pub const MIME_TYPE: &str = "image/svg+xml";

/// toolpack's own icon (the server's).
pub const TOOLPACK: &str = include_str!("../data/icons/toolpack.svg");

/// The icon of a tool family, shown beside each of its tools.
pub fn of(toolset: Toolset) -> &'static str {
    match toolset {
        Toolset::Tfl => include_str!("../data/icons/tfl.svg"),
        Toolset::Digitransit => include_str!("../data/icons/digitransit.svg"),
        Toolset::Loko => include_str!("../data/icons/loko.svg"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_icon_is_a_small_self_contained_svg_with_a_title() {
        let icons = Toolset::ALL.map(of);
        for svg in icons.iter().chain([&TOOLPACK]) {
            assert!(
                svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 24 24\">"),
                "{svg}"
            );
            assert!(svg.trim_end().ends_with("</svg>"), "{svg}");
            assert!(svg.contains("<title>"), "{svg}");
            assert!(svg.len() < 1024, "{} bytes", svg.len());
            // Nothing a host would fetch or run.
            for refused in ["href", "url(", "<script", "http://www.w3.org/1999/xlink"] {
                assert!(!svg.contains(refused), "{refused} in {svg}");
            }
        }
        let distinct: std::collections::BTreeSet<_> = icons.iter().collect();
        assert_eq!(distinct.len(), Toolset::ALL.len(), "one icon per family");
    }
}
