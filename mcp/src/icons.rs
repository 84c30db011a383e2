//! toolpack's icons ([`toolpack::icons`]) as MCP icons: `data:` URIs of the SVGs, so a host
//! shows them without fetching anything. The server carries toolpack's own; each tool its
//! family's.

use base64::Engine;
use rmcp::model::Icon;
use toolpack::{Toolset, icons};

/// The icons of the server's implementation info.
pub fn server() -> Vec<Icon> {
    vec![icon(icons::TOOLPACK)]
}

/// The icons of each tool of `toolset`.
pub fn of(toolset: Toolset) -> Vec<Icon> {
    vec![icon(icons::of(toolset))]
}

/// `svg` as a scalable `data:` icon.
fn icon(svg: &str) -> Icon {
    let data = base64::engine::general_purpose::STANDARD.encode(svg.trim_end());
    Icon::new(format!("data:{};base64,{data}", icons::MIME_TYPE))
        .with_mime_type(icons::MIME_TYPE)
        .with_sizes(vec!["any".to_owned()])
}
