//! The MCP Apps views (`io.modelcontextprotocol/ui`): self-contained HTML pages a host
//! shows beside a tool's answer (a journey, a departure board, a C4 tree, toilet cards).
//!
//! A view names the tools whose answers it shows; a tool has at most one view
//! ([`crate::ToolEntry::view`]). The pages are built from the parts in `core/data/views/`
//! (the MCP Apps SDK's App API bundled once, each view's own code, one style), which
//! `cargo xtask views` builds from `views/` and checks for drift; each page is put together
//! once, on first use, and served from memory. Nothing in a page loads anything from the
//! network, so its content security policy ([`View::ui_meta`]) allows nothing external.

use std::sync::OnceLock;

use serde_json::{Value, json};

/// The MCP extension the views belong to, as clients announce it under
/// `capabilities.extensions`.
pub const EXTENSION_ID: &str = "io.modelcontextprotocol/ui";

/// The mime type of a view's resource.
pub const MIME_TYPE: &str = "text/html;profile=mcp-app";

/// One view.
#[derive(Debug)]
pub struct View {
    /// Its resource URI (`ui://toolpack/<name>`).
    pub uri: &'static str,
    /// Its short name, e.g. `departures`.
    pub name: &'static str,
    /// Its title, for a person.
    pub title: &'static str,
    /// What it shows.
    pub description: &'static str,
    /// The tools whose answers it shows.
    pub tools: &'static [&'static str],
    code: &'static str,
    page: OnceLock<String>,
}

/// The page every view is served in, with its marked parts.
const PAGE: &str = include_str!("../data/views/page.html");
/// The MCP Apps SDK's App API, shared by every view.
const SDK: &str = include_str!("../data/views/sdk.js");
/// The style every view shares.
const STYLE: &str = include_str!("../data/views/views.css");

static VIEWS: [View; 10] = [
    View::new(
        "ui://toolpack/journey",
        "journey",
        "Journey options",
        "Each journey option with its times, duration, fare and a strip of its legs coloured \
         by line or mode; disruptions, alerts and delays flagged; an option opens its legs \
         (a Digitransit leg's alerts, the full text on a tap), and a Digitransit trip its \
         route sketch.",
        &["planJourney", "plan_trip"],
        include_str!("../data/views/journey.js"),
    ),
    View::new(
        "ui://toolpack/departures",
        "departures",
        "Departures board",
        "The stop's departures: line, destination, time, in how many minutes, the realtime \
         delay, cancelled rows struck through; the stop's alerts, one line each, the full \
         text on a tap; refreshes through the host.",
        &["get_departures"],
        include_str!("../data/views/departures.js"),
    ),
    View::new(
        "ui://toolpack/architecture",
        "architecture",
        "Architecture",
        "Systems, containers and components as a tree with counts, descriptions and \
         relationships; an entity opens in full detail through the host.",
        &["query_architecture", "query_project"],
        include_str!("../data/views/architecture.js"),
    ),
    View::new(
        "ui://toolpack/toilets",
        "toilets",
        "Station toilets",
        "A card per toilet (where, accessible, baby changing, inside the gates, fee), and \
         the stations to choose from when a name fits several.",
        &["stationToilets"],
        include_str!("../data/views/toilets.js"),
    ),
    View::new(
        "ui://toolpack/lines",
        "lines",
        "Line status",
        "Each line in its colour with TfL's status and reason, the worst first; the lines \
         with a good service folded into one row when others are disrupted.",
        &["lineStatus"],
        include_str!("../data/views/lines.js"),
    ),
    View::new(
        "ui://toolpack/arrivals",
        "arrivals",
        "Arrivals board",
        "The stop's next arrivals: platform, line, destination, minutes and the London time; \
         refreshes through the host; for a name that fits several stops, the stops to choose \
         from.",
        &["arrivals"],
        include_str!("../data/views/arrivals.js"),
    ),
    View::new(
        "ui://toolpack/alerts",
        "alerts",
        "Service alerts",
        "Each alert on one line, most severe first, coloured by severity, with the lines \
         and stops it touches; a tap opens its full text, when it runs and its page.",
        &["get_alerts"],
        include_str!("../data/views/alerts.js"),
    ),
    View::new(
        "ui://toolpack/timetable",
        "timetable",
        "Timetable",
        "A London line's first and last departures from a stop for each day type, the \
         departures in the window asked, and the stops after it, folded; the stations to \
         choose from when a name fits several.",
        &["timetable"],
        include_str!("../data/views/timetable.js"),
    ),
    View::new(
        "ui://toolpack/crowding",
        "crowding",
        "Station crowding",
        "How busy a London Underground station is now against its usual level, and its typical \
         day as a bar chart of quarter hours with now marked, the peaks shaded and the quietest \
         times listed.",
        &["crowding"],
        include_str!("../data/views/crowding.js"),
    ),
    View::new(
        "ui://toolpack/vehicles",
        "vehicles",
        "Live vehicles",
        "An HSL line's stops drawn as a line with each vehicle on it, pointing where it heads \
         (or the vehicles heading to a stop), then each vehicle's delay, next stop and speed; \
         refreshed through the host every few seconds while shown.",
        &["vehicle_positions"],
        include_str!("../data/views/vehicles.js"),
    ),
];

impl View {
    const fn new(
        uri: &'static str,
        name: &'static str,
        title: &'static str,
        description: &'static str,
        tools: &'static [&'static str],
        code: &'static str,
    ) -> Self {
        View {
            uri,
            name,
            title,
            description,
            tools,
            code,
            page: OnceLock::new(),
        }
    }

    /// The HTML page (put together on first use, then served from memory).
    pub fn html(&self) -> &str {
        self.page.get_or_init(|| {
            PAGE.replace("<!--title-->", self.title)
                .replace("<!--style-->", STYLE)
                .replace("<!--sdk-->", SDK)
                .replace("<!--view-->", self.code)
        })
    }

    /// The `_meta.ui` of its resource: a content security policy that allows no external
    /// origin (`data:` images aside, which hosts allow by default), and a border.
    pub fn ui_meta(&self) -> Value {
        json!({
            "csp": { "connectDomains": [], "resourceDomains": [] },
            "prefersBorder": true,
        })
    }
}

impl View {
    /// Its MCP `resources/list` entry: `uri`, `name`, `title`, `description`,
    /// `mimeType` and `_meta.ui` (the CSP).
    pub fn resource_json(&self) -> Value {
        json!({
            "uri": self.uri,
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "mimeType": MIME_TYPE,
            "_meta": { "ui": self.ui_meta() },
        })
    }

    /// Its MCP `resources/read` result: one text item with the page, its mime type and
    /// `_meta.ui` (the CSP).
    pub fn read_json(&self) -> Value {
        json!({
            "contents": [{
                "uri": self.uri,
                "mimeType": MIME_TYPE,
                "text": self.html(),
                "_meta": { "ui": self.ui_meta() },
            }],
        })
    }
}

/// Every view's `resources/list` entry ([`View::resource_json`]), as a JSON array: what
/// a host serving toolpack in process (Python, Node) lists.
pub fn resources_json() -> Value {
    Value::Array(VIEWS.iter().map(View::resource_json).collect())
}

/// Every view.
pub fn all() -> &'static [View] {
    &VIEWS
}

/// The view at `uri`.
pub fn find(uri: &str) -> Option<&'static View> {
    VIEWS.iter().find(|v| v.uri == uri)
}

/// The view of tool `tool`.
pub fn of_tool(tool: &str) -> Option<&'static View> {
    VIEWS.iter().find(|v| v.tools.contains(&tool))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_is_whole_and_loads_nothing() {
        for view in all() {
            let html = view.html();
            assert!(
                !html.contains("<!--"),
                "{}: a part was not filled in",
                view.name
            );
            assert!(html.contains(view.code) && html.contains(SDK) && html.contains(STYLE));
            assert!(html.starts_with("<!doctype html>"));
            // No external script, style or image: no src/href attributes at all.
            for attribute in [" src=", " href=", "@import", "<link"] {
                assert!(!html.contains(attribute), "{}: {attribute}", view.name);
            }
            // No inline script ends early.
            assert_eq!(html.matches("</script").count(), 3, "{}", view.name);
            assert!(std::ptr::eq(html, view.html()), "served from memory");
        }
    }
}
