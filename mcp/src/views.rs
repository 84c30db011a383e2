//! The MCP Apps views of the served tools ([`toolpack::views`]) as MCP resources, and the
//! `_meta.ui.resourceUri` that ties a tool to its view, offered to clients that announce
//! the extension (`capabilities.extensions["io.modelcontextprotocol/ui"]`). Other clients
//! see the tools exactly as before.

use std::sync::{LazyLock, OnceLock};

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

use crate::in_place::CompressedTail;
use crate::server::LIST_TTL_MS;
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

/// A view's `resources/read` result as the answers written in place send it
/// (`crate::in_place`, `crate::stdio`), where rmcp would escape the page again for every
/// read.
pub(crate) struct SerialisedRead {
    /// The result as rmcp writes it to a peer before 2026-07-28 (no `resultType`).
    pub result: Bytes,
    /// The page (the result's one text) as a JSON string, a slice of `result`.
    pub page: Bytes,
    /// The answer's tail behind the request's id, gzip-compressed on first use.
    gzip_tail: OnceLock<Option<CompressedTail>>,
}

impl SerialisedRead {
    /// The answer's tail behind the request's id (the result and the message's end),
    /// gzip-compressed on the first call; `None` if compressing failed.
    pub fn compressed(&self) -> Option<&CompressedTail> {
        self.gzip_tail
            .get_or_init(|| {
                let tail = [&self.result[..], crate::in_place::RESPONSE_END].concat();
                CompressedTail::new(&tail).ok()
            })
            .as_ref()
    }
}

/// Puts every view's answers together now (converted, serialised, marked, and
/// compressed too when `over_http`) rather than on their first reads: blocking work, for
/// a blocking thread at start-up.
pub fn prepare(over_http: bool) {
    let serialised = LazyLock::force(&SERIALISED);
    if over_http {
        for read in serialised.iter().flatten() {
            read.compressed();
        }
    }
    LazyLock::force(&MARKED);
}

/// Each view's [`SerialisedRead`], serialised once for the life of the process.
static SERIALISED: LazyLock<Vec<Option<SerialisedRead>>> = LazyLock::new(|| {
    CONVERTED
        .iter()
        .map(|converted| {
            let (_, read) = converted.as_ref().ok()?;
            let mut result = ServerResult::ReadResourceResult(read.clone());
            result.strip_result_type_for_legacy_peer();
            let result = Bytes::from(serde_json::to_vec(&result).ok()?);
            let page = serde_json::to_vec(page_of(read)?).ok()?;
            let start = result
                .windows(page.len())
                .position(|window| window == page.as_slice())?;
            Some(SerialisedRead {
                page: result.slice(start..start + page.len()),
                result,
                gzip_tail: OnceLock::new(),
            })
        })
        .collect()
});

/// The serialised `resources/read` result for `uri`, if it is among the `visible` views.
pub(crate) fn read_serialised<'a>(
    uri: &str,
    mut visible: impl Iterator<Item = &'a View>,
) -> Option<&'static SerialisedRead> {
    let view = visible.find(|view| view.uri == uri)?;
    SERIALISED.get(index_of(view)?)?.as_ref()
}

/// The page of a view's `resources/read` result: its one text.
fn page_of(read: &ReadResourceResult) -> Option<&str> {
    match read.contents.as_slice() {
        [ResourceContents::TextResourceContents { text, .. }] => Some(text),
        _ => None,
    }
}

/// [`page_of`], to change: the one text of a `resources/read` result, if it has one.
pub(crate) fn page_of_mut(read: &mut ReadResourceResult) -> Option<&mut String> {
    match read.contents.as_mut_slice() {
        [ResourceContents::TextResourceContents { text, .. }] => Some(text),
        _ => None,
    }
}

/// What a marker for a view's page starts and ends with; its view's index is between.
/// No page or other string of a read's answer holds it.
const MARKER_ENDS: (&str, &str) = ("\u{0}toolpack view page ", "\u{0}");

/// Each view's `resources/read` result with a marker for its page instead of the page.
static MARKED: LazyLock<Vec<Option<ReadResourceResult>>> = LazyLock::new(|| {
    CONVERTED
        .iter()
        .enumerate()
        .map(|(index, converted)| {
            let (_, read) = converted.as_ref().ok()?;
            let mut marked = read.clone();
            *page_of_mut(&mut marked)? = format!("{}{index}{}", MARKER_ENDS.0, MARKER_ENDS.1);
            Some(marked)
        })
        .collect()
});

/// The page a marker stands for ([`read`] with `marked`).
pub(crate) struct MarkedPage {
    /// The page as a JSON string, serialised once.
    pub serialised: &'static Bytes,
    /// The page itself.
    pub text: &'static str,
}

/// The page `text` is a marker for, if it is one.
pub(crate) fn marked_page(text: &str) -> Option<MarkedPage> {
    let index = text
        .strip_prefix(MARKER_ENDS.0)?
        .strip_suffix(MARKER_ENDS.1)?
        .parse::<usize>()
        .ok()?;
    let (_, read) = CONVERTED.get(index)?.as_ref().ok()?;
    Some(MarkedPage {
        serialised: &SERIALISED.get(index)?.as_ref()?.page,
        text: page_of(read)?,
    })
}

/// Where `view` is among all the views (and so in [`CONVERTED`] and [`SERIALISED`]).
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
/// With `marked`, the page is a marker for it instead of a copy (see [`marked_page`]).
pub fn read<'a>(
    uri: &str,
    mut visible: impl Iterator<Item = &'a View>,
    marked: bool,
) -> Result<ReadResourceResult, McpError> {
    let Some(view) = visible.find(|view| view.uri == uri) else {
        return Err(McpError::resource_not_found(
            format!("no resource '{uri}'"),
            Some(json!({ "uri": uri })),
        ));
    };
    let (_, read) = converted(view)?;
    let marked = marked
        .then(|| MARKED.get(index_of(view)?).cloned().flatten())
        .flatten();
    Ok(marked.unwrap_or_else(|| read.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prepare_puts_every_views_answers_together() {
        prepare(true);
        assert_eq!(SERIALISED.len(), views::all().len());
        for read in SERIALISED.iter() {
            let read = read.as_ref().expect("a serialised read");
            assert!(read.gzip_tail.get().is_some_and(Option::is_some));
        }
        for (index, marked) in MARKED.iter().enumerate() {
            let marked = marked.as_ref().expect("a marked read");
            let page = marked_page(page_of(marked).expect("a marker")).expect("its page");
            let (_, read) = CONVERTED[index].as_ref().expect("a converted read");
            assert_eq!(page.text, page_of(read).expect("a page"));
        }
    }
}
