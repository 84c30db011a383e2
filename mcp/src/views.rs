//! The MCP Apps views of the served tools ([`toolpack::views`]) as MCP resources, and the
//! `_meta.ui.resourceUri` that ties a tool to its view, offered to clients that announce
//! the extension (`capabilities.extensions["io.modelcontextprotocol/ui"]`). Other clients
//! see the tools exactly as before.

use std::sync::LazyLock;

use rmcp::ErrorData as McpError;
use rmcp::model::{CacheScope, ListResourcesResult, ReadResourceResult, Resource, Tool};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Value, json};
use toolpack::views::{self, EXTENSION_ID, View};
use toolpack::{Caller, ToolEntry};

use crate::cache_hints::LIST_TTL_MS;
use crate::toolsets::ToolChoice;

/// Whether the client of this request announced the MCP Apps extension (in its
/// `initialize`, or in the request's own `_meta` when it has no session).
pub fn client_shows_views(context: &RequestContext<RoleServer>) -> bool {
    context
        .client_capabilities()
        .and_then(|c| c.extensions)
        .is_some_and(|extensions| extensions.contains_key(EXTENSION_ID))
}

/// `tool` with its view named in `_meta.ui.resourceUri` (and in the older flat key
/// `ui/resourceUri`, which hosts of the extension's first release read), when it has one.
pub fn with_view(entry: &ToolEntry, tool: Tool) -> Tool {
    match entry.view() {
        Some(view) => {
            let mut meta = tool.meta.clone().unwrap_or_default();
            meta.insert("ui".into(), json!({ "resourceUri": view.uri }));
            meta.insert("ui/resourceUri".into(), Value::from(view.uri));
            tool.with_meta(meta)
        }
        None => tool,
    }
}

/// The views a caller may see: those of the served tools it may call (the `--tools`
/// and `--read-only` choice, the request's toolset headers, and its scopes).
pub fn visible<'a>(
    tools: &'a [&'static ToolEntry],
    caller: &'a Caller,
    choice: &'a ToolChoice,
) -> impl Iterator<Item = &'static View> + 'a {
    views::all().iter().filter(move |view| {
        tools.iter().any(|entry| {
            view.tools.contains(&entry.spec.name)
                && choice.allows(&entry.spec)
                && caller.missing_scope(&entry.spec).is_none()
        })
    })
}

/// Each view's `resources/list` entry and `resources/read` result, converted from the
/// core's JSON once: a page is ~330 KB, which a conversion per read would copy twice more.
static CONVERTED: LazyLock<Vec<Result<(Resource, ReadResourceResult), String>>> =
    LazyLock::new(|| {
        views::all()
            .iter()
            .map(|view| {
                let resource = serde_json::from_value(view.resource_json());
                // A page is the same for every caller, for the life of the process.
                let read =
                    serde_json::from_value::<ReadResourceResult>(view.read_json()).map(|read| {
                        read.with_ttl_ms(LIST_TTL_MS)
                            .with_cache_scope(CacheScope::Public)
                    });
                resource
                    .and_then(|r| Ok((r, read?)))
                    .map_err(|e| e.to_string())
            })
            .collect()
    });

/// Puts every view's answers together now (converted) rather than on their first reads:
/// blocking work, for a blocking thread at start-up.
pub fn prepare() {
    LazyLock::force(&CONVERTED);
}

/// Where `view` is among all the views (and so in [`CONVERTED`]).
fn index_of(view: &View) -> Option<usize> {
    views::all().iter().position(|v| v.uri == view.uri)
}

/// `view` as rmcp's types (as the core writes it).
fn converted(view: &View) -> Result<&'static (Resource, ReadResourceResult), McpError> {
    match index_of(view).and_then(|i| CONVERTED.get(i)) {
        Some(Ok(converted)) => Ok(converted),
        Some(Err(error)) => Err(McpError::internal_error(error.clone(), None)),
        None => Err(McpError::internal_error(
            format!("no view '{}'", view.uri),
            None,
        )),
    }
}

/// The `resources/list` answer.
pub fn list<'a>(views: impl Iterator<Item = &'a View>) -> Result<ListResourcesResult, McpError> {
    let resources = views
        .map(|view| converted(view).map(|(resource, _)| resource.clone()))
        .collect::<Result<_, _>>()?;
    Ok(ListResourcesResult::with_all_items(resources)
        .with_ttl_ms(LIST_TTL_MS)
        .with_cache_scope(CacheScope::Private))
}

/// The `resources/read` answer for `uri`, among the `visible` views.
pub fn read<'a>(
    uri: &str,
    mut visible: impl Iterator<Item = &'a View>,
) -> Result<ReadResourceResult, McpError> {
    let Some(view) = visible.find(|view| view.uri == uri) else {
        return Err(McpError::resource_not_found(
            format!("no resource '{uri}'"),
            Some(json!({ "uri": uri })),
        ));
    };
    let (_, read) = converted(view)?;
    Ok(read.clone())
}

#[cfg(test)]
mod tests {
    use rmcp::model::ResourceContents;

    use super::*;

    /// The most a served page may weigh, gzipped.
    const PAGE_BUDGET: usize = 100 * 1024;

    #[test]
    fn every_served_page_is_under_its_budget_gzipped() {
        use std::io::Write;
        for (converted, view) in CONVERTED.iter().zip(views::all()) {
            let (_, read) = converted.as_ref().expect("a converted read");
            let [ResourceContents::TextResourceContents { text: page, .. }] =
                read.contents.as_slice()
            else {
                panic!("{}: one text, the page", view.name)
            };
            let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            gzip.write_all(page.as_bytes()).expect("compressed");
            let gzipped = gzip.finish().expect("compressed").len();
            println!(
                "{}: {} KB, {} KB gzipped",
                view.name,
                page.len() / 1024,
                gzipped / 1024
            );
            assert!(
                gzipped <= PAGE_BUDGET,
                "the {} view is {gzipped} bytes gzipped, over its {PAGE_BUDGET}",
                view.name
            );
        }
    }
}
