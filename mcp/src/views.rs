//! The MCP Apps views of the served tools ([`toolpack::views`]) as MCP resources, and the
//! `_meta.ui.resourceUri` that ties a tool to its view, offered to clients that announce
//! the extension (`capabilities.extensions["io.modelcontextprotocol/ui"]`). Other clients
//! see the tools exactly as before.

use std::sync::LazyLock;

use axum::body::Bytes;
use rmcp::ErrorData as McpError;
use rmcp::model::{
    CacheScope, ListResourcesResult, ReadResourceResult, Resource, ResourceContents, ServerResult,
    Tool,
};
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

/// A view's `resources/read` result serialised once, for the transports that write it
/// without rmcp (`crate::fast_path`, `crate::stdio`), where rmcp would escape the page
/// again for every read.
pub(crate) struct SerialisedRead {
    /// Where the view is among all the views.
    pub index: usize,
    /// The result as rmcp writes it to a peer before 2026-07-28 (no `resultType`).
    pub result: Bytes,
    /// The page (the result's one text) as a JSON string, a slice of `result`.
    pub page: Bytes,
}

/// Puts every view's answers together now (converted and serialised) rather than on
/// their first reads: blocking work, for a blocking thread at start-up. The transports
/// prepare their own forms beside it.
pub fn prepare() {
    LazyLock::force(&SERIALISED);
}

/// What stands for the page while the rest of a `resources/read` result is serialised: a
/// text no result holds elsewhere.
const PAGE_PLACEHOLDER: &str = "\u{1}toolpack:page\u{1}";

/// Each view's [`SerialisedRead`], serialised once for the life of the process.
static SERIALISED: LazyLock<Vec<Option<SerialisedRead>>> = LazyLock::new(|| {
    CONVERTED
        .iter()
        .enumerate()
        .map(|(index, converted)| {
            let (_, read) = converted.as_ref().ok()?;
            // The result is written with a short placeholder for the page, and the page
            // (escaped once) put in its place: a string's JSON does not depend on where it
            // stands, and a search for the placeholder reads a few hundred bytes, not the
            // page (a search for the whole page cost most of a debug server's start-up).
            let mut placeheld = read.clone();
            *page_text_mut(&mut placeheld)? = PAGE_PLACEHOLDER.to_owned();
            let mut around = ServerResult::ReadResourceResult(placeheld);
            around.strip_result_type_for_legacy_peer();
            let around = serde_json::to_vec(&around).ok()?;
            let placeholder = serde_json::to_vec(PAGE_PLACEHOLDER).ok()?;
            let start = around
                .windows(placeholder.len())
                .position(|window| window == placeholder.as_slice())?;
            let page = serde_json::to_vec(page_text(read)?).ok()?;
            let mut result = Vec::with_capacity(around.len() - placeholder.len() + page.len());
            result.extend_from_slice(&around[..start]);
            result.extend_from_slice(&page);
            result.extend_from_slice(&around[start + placeholder.len()..]);
            let result = Bytes::from(result);
            Some(SerialisedRead {
                index,
                page: result.slice(start..start + page.len()),
                result,
            })
        })
        .collect()
});

/// Every view's [`SerialisedRead`], by its place among all the views.
pub(crate) fn serialised_reads() -> &'static [Option<SerialisedRead>] {
    &SERIALISED
}

/// The serialised `resources/read` result for `uri`, if it is among the `visible` views.
pub(crate) fn read_serialised<'a>(
    uri: &str,
    mut visible: impl Iterator<Item = &'a View>,
) -> Option<&'static SerialisedRead> {
    let view = visible.find(|view| view.uri == uri)?;
    SERIALISED.get(index_of(view)?)?.as_ref()
}

/// Each view's `resources/read` result, by its place among all the views (`None` for
/// one that could not be converted).
pub(crate) fn converted_reads() -> impl Iterator<Item = Option<&'static ReadResourceResult>> {
    CONVERTED
        .iter()
        .map(|converted| converted.as_ref().ok().map(|(_, read)| read))
}

/// The page of a view's `resources/read` result: its one text.
pub(crate) fn page_text(read: &ReadResourceResult) -> Option<&str> {
    match read.contents.as_slice() {
        [ResourceContents::TextResourceContents { text, .. }] => Some(text),
        _ => None,
    }
}

/// [`page_text`], to change: the one text of a `resources/read` result, if it has one.
pub(crate) fn page_text_mut(read: &mut ReadResourceResult) -> Option<&mut String> {
    match read.contents.as_mut_slice() {
        [ResourceContents::TextResourceContents { text, .. }] => Some(text),
        _ => None,
    }
}

/// A transport's own form of a view's `resources/read` result, by the view's place among
/// all the views (`None`: the result as it is). The stdio transport answers with a marker
/// for the page, which it puts in as it writes the line.
pub(crate) type ReadSubstitute = fn(usize) -> Option<ReadResourceResult>;

/// Where `view` is among all the views (and so in [`CONVERTED`] and [`SERIALISED`]).
pub(crate) fn index_of(view: &View) -> Option<usize> {
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

/// The `resources/read` answer for `uri`, among the `visible` views; in the transport's
/// own form when it has a `substitute`.
pub fn read<'a>(
    uri: &str,
    mut visible: impl Iterator<Item = &'a View>,
    substitute: Option<ReadSubstitute>,
) -> Result<ReadResourceResult, McpError> {
    let Some(view) = visible.find(|view| view.uri == uri) else {
        return Err(McpError::resource_not_found(
            format!("no resource '{uri}'"),
            Some(json!({ "uri": uri })),
        ));
    };
    let (_, read) = converted(view)?;
    let substituted = substitute.and_then(|substitute| substitute(index_of(view)?));
    Ok(substituted.unwrap_or_else(|| read.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The most a served page may weigh, gzipped.
    const PAGE_BUDGET: usize = 100 * 1024;

    #[test]
    fn every_served_page_is_under_its_budget_gzipped() {
        use std::io::Write;
        for (read, view) in converted_reads().zip(views::all()) {
            let page = page_text(read.expect("a converted read")).expect("a page");
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

    #[test]
    fn every_view_is_serialised_with_its_page_a_slice_of_its_result() {
        prepare();
        assert_eq!(SERIALISED.len(), views::all().len());
        for (index, read) in SERIALISED.iter().enumerate() {
            let read = read.as_ref().expect("a serialised read");
            assert_eq!(read.index, index);
            let (_, converted) = CONVERTED[index].as_ref().expect("a converted read");
            let page: String = serde_json::from_slice(&read.page).expect("a JSON string");
            assert_eq!(page, page_text(converted).expect("a page"));
            let inside = read.result.as_ptr_range();
            assert!(inside.contains(&read.page.as_ptr()), "a slice, not a copy");
            let mut whole = ServerResult::ReadResourceResult(converted.clone());
            whole.strip_result_type_for_legacy_peer();
            assert_eq!(
                read.result,
                serde_json::to_vec(&whole).unwrap(),
                "the bytes of the result serialised whole"
            );
        }
    }
}
