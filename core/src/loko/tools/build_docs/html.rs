//! The HTML site: an index with the system landscape and a card per system, a page per
//! system, container and component (its markdown rendered: tables, code, links; its
//! diagram; its children; its relationships), a sidebar tree, breadcrumbs, a search
//! index for the client-side search, and the print page the PDF is made from.

use std::collections::BTreeMap;
use std::fmt::Write;

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag};
use serde_json::json;

use super::tree::Doc;
use crate::loko::project::model::{Entity, Level, Project};
use crate::loko::project::relationships::Relationship;

/// The stylesheet.
pub const STYLE: &str = include_str!("assets/style.css");
/// The script: search, theme switch, phone menu.
pub const SCRIPT: &str = include_str!("assets/main.js");
/// The landscape diagram's SVG name (not an entity key: keys never start with `_`).
pub const LANDSCAPE: &str = "_landscape";

/// Escapes text for HTML.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Markdown to HTML (tables, strikethrough, task lists); raw HTML in the source is shown
/// as text, never run. The first `# ` heading is dropped when it repeats `title`.
pub fn markdown(body: &str, title: &str) -> String {
    let trimmed = body.trim_start();
    let body = match trimmed.split_once('\n') {
        Some((first, rest)) if first.trim() == format!("# {title}").trim() => rest,
        None if trimmed.trim() == format!("# {title}").trim() => "",
        _ => trimmed,
    };
    let parser = Parser::new_ext(
        body,
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS,
    )
    .map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => Event::Start(Tag::Link {
            link_type,
            dest_url: safe_url(dest_url, false),
            title,
            id,
        }),
        Event::Start(Tag::Image {
            link_type,
            dest_url,
            title,
            id,
        }) => Event::Start(Tag::Image {
            link_type,
            dest_url: safe_url(dest_url, true),
            title,
            id,
        }),
        other => other,
    });
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, parser);
    html.replace("<table>", "<div class=\"table-wrap\"><table>")
        .replace("</table>", "</table></div>")
}

/// What every page shares.
pub struct Site<'a> {
    /// The project.
    pub project: &'a Project,
    /// Every document.
    pub docs: &'a [Doc<'a>],
    /// Outgoing relationships by source component (`s/c/k`).
    pub edges: &'a BTreeMap<String, Vec<Relationship>>,
    /// SVG names that rendered.
    pub rendered: &'a std::collections::BTreeSet<String>,
}

impl Site<'_> {
    /// Every file of the HTML site, by path relative to the site root.
    pub fn files(&self) -> Vec<(String, Vec<u8>)> {
        let mut files = vec![
            ("index.html".to_owned(), self.index().into_bytes()),
            ("styles/style.css".to_owned(), STYLE.as_bytes().to_vec()),
            ("js/main.js".to_owned(), SCRIPT.as_bytes().to_vec()),
        ];
        let index = self.search_index();
        files.push((
            "js/search-index.js".to_owned(),
            format!("window.LOKO_SEARCH = {index};\n").into_bytes(),
        ));
        files.push((
            "search.json".to_owned(),
            format!("{{\"results\":{index}}}\n").into_bytes(),
        ));
        for doc in self.docs {
            files.push((doc.html_path(), self.entity_page(doc).into_bytes()));
        }
        files
    }

    /// The document of `entity`.
    pub(super) fn doc_of(&self, entity: &Entity) -> Option<&Doc<'_>> {
        self.docs.iter().find(|d| std::ptr::eq(d.entity, entity))
    }

    /// The documents of `entity`'s children, in order.
    pub(super) fn children_of<'s>(
        &'s self,
        entity: &'s Entity,
    ) -> impl Iterator<Item = &'s Doc<'s>> {
        self.docs
            .iter()
            .filter(move |d| d.parents.last().is_some_and(|p| std::ptr::eq(*p, entity)))
    }

    fn project_name(&self) -> &str {
        &self.project.settings.name
    }

    fn page(&self, root: &str, title: &str, current: &str, crumbs: &str, content: &str) -> String {
        format!(
            r##"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · {project}</title>
<link rel="stylesheet" href="{root}styles/style.css">
<script>try {{ var t = localStorage.getItem('loko-theme'); if (t) document.documentElement.dataset.theme = t }} catch (e) {{}}</script>
</head>
<body>
<header class="topbar">
<button class="menu" type="button" aria-label="Menu" aria-controls="sidebar" aria-expanded="false">☰</button>
<a class="brand" href="{root}index.html">{project}</a>
<button class="theme-toggle" type="button" aria-label="Switch light or dark theme" title="Light or dark">◐</button>
</header>
<div class="layout">
<aside class="sidebar" id="sidebar">
<div class="search"><input id="search" type="search" placeholder="Search names, descriptions, technology" aria-label="Search" autocomplete="off"><ul id="search-results" hidden></ul></div>
<input id="tree-filter" class="tree-filter" type="search" placeholder="Filter the tree" aria-label="Filter the tree" autocomplete="off">
<nav aria-label="Architecture">{tree}</nav>
</aside>
<main>
<nav class="breadcrumb" aria-label="Breadcrumb">{crumbs}</nav>
<article>
{content}
</article>
<footer>Generated by toolpack from the loko project <code>{project}</code>.</footer>
</main>
</div>
<script>window.LOKO_ROOT = "{root}";</script>
<script src="{root}js/search-index.js"></script>
<script src="{root}js/main.js"></script>
</body>
</html>
"##,
            title = esc(title),
            project = esc(self.project_name()),
            tree = self.tree(root, current),
        )
    }

    /// The sidebar tree: systems, their containers and components. A node with children
    /// is a `<details>` (folds by click, Enter or Space), open only on the current
    /// page's branch, so a project of hundreds of entities shows a short list.
    fn tree(&self, root: &str, current: &str) -> String {
        let here = self.docs.iter().find(|d| d.html_path() == current);
        let on_branch = |doc: &Doc| {
            here.is_some_and(|h| {
                std::ptr::eq(h.entity, doc.entity)
                    || h.parents.iter().any(|p| std::ptr::eq(*p, doc.entity))
            })
        };
        let mut html = String::from("<ul class=\"tree\">");
        let mut depth = 0;
        for doc in self.docs {
            let level = doc.parents.len();
            while depth > level {
                html.push_str("</ul></details></li>");
                depth -= 1;
            }
            let path = doc.html_path();
            let current_mark = if path == current {
                " aria-current=\"page\""
            } else {
                ""
            };
            let link = format!(
                "<a href=\"{root}{path}\"{current_mark}>{}</a>",
                esc(&doc.entity.name())
            );
            if doc.entity.children.is_empty() {
                let _ = write!(html, "<li>{link}</li>");
            } else {
                let open = if on_branch(doc) { " open" } else { "" };
                let _ = write!(html, "<li><details{open}><summary>{link}</summary><ul>");
                depth += 1;
            }
        }
        while depth > 0 {
            html.push_str("</ul></details></li>");
            depth -= 1;
        }
        html.push_str("</ul>");
        html
    }

    fn crumbs(&self, root: &str, doc: Option<&Doc>) -> String {
        let Some(doc) = doc else {
            return "<span aria-current=\"page\">Home</span>".to_owned();
        };
        let mut parts = vec![format!("<a href=\"{root}index.html\">Home</a>")];
        for parent in &doc.parents {
            match self.doc_of(parent) {
                Some(p) => parts.push(format!(
                    "<a href=\"{root}{}\">{}</a>",
                    p.html_path(),
                    esc(&parent.name())
                )),
                None => parts.push(esc(&parent.name())),
            }
        }
        parts.push(format!(
            "<span aria-current=\"page\">{}</span>",
            esc(&doc.entity.name())
        ));
        parts.join(" / ")
    }

    fn figure(&self, root: &str, svg: &str, name: &str) -> String {
        self.figure_classed(root, svg, name, "diagram")
    }

    /// A diagram figure with `class` (e.g. `diagram landscape single`).
    fn figure_classed(&self, root: &str, svg: &str, name: &str, class: &str) -> String {
        if !self.rendered.contains(svg.trim_end_matches(".svg")) {
            return String::new();
        }
        format!(
            "<figure class=\"{class}\"><img src=\"{root}diagrams/{svg}\" alt=\"Diagram: {n}\"><figcaption>{n}</figcaption></figure>\n",
            n = esc(name)
        )
    }

    /// A card's diagram thumbnail, loaded only when scrolled into view (cards are below
    /// the fold on big projects).
    fn thumbnail(&self, root: &str, doc: &Doc) -> String {
        match doc.svg() {
            Some(svg) if self.rendered.contains(svg.trim_end_matches(".svg")) => format!(
                "<img class=\"thumb\" loading=\"lazy\" decoding=\"async\" src=\"{root}diagrams/{svg}\" alt=\"Diagram: {}\">",
                esc(&doc.entity.name())
            ),
            _ => String::new(),
        }
    }

    fn index(&self) -> String {
        let project = self.project;
        let mut content = format!("<h1>{}</h1>\n", esc(self.project_name()));
        if !project.settings.description.is_empty() {
            let _ = writeln!(
                content,
                "<p class=\"lead\">{}</p>",
                esc(&project.settings.description)
            );
        }
        content.push_str("<h2>System landscape</h2>\n");
        let class = if project.systems.len() == 1 {
            "diagram landscape single"
        } else {
            "diagram landscape"
        };
        content.push_str(&self.figure_classed(
            "",
            &format!("{LANDSCAPE}.svg"),
            "System landscape",
            class,
        ));
        content.push_str("<h2>Systems</h2>\n<div class=\"cards\">\n");
        for doc in self.docs.iter().filter(|d| d.entity.level == Level::System) {
            let s = doc.entity;
            let components: usize = s.children.iter().map(|c| c.children.len()).sum();
            let _ = writeln!(
                content,
                "<div class=\"card\"><h3><a href=\"{}\">{}</a></h3><p>{}</p><p>{} containers · {} components</p><p class=\"links\"><a href=\"{}#containers\">View all Containers →</a></p></div>",
                doc.html_path(),
                esc(&s.name()),
                esc(&s.description()),
                s.children.len(),
                components,
                doc.html_path()
            );
        }
        content.push_str("</div>\n");
        self.page(
            "",
            "Overview",
            "index.html",
            &self.crumbs("", None),
            &content,
        )
    }

    fn entity_page(&self, doc: &Doc) -> String {
        let root = "../";
        let e = doc.entity;
        let mut content = format!("<h1>{}</h1>\n", esc(&e.name()));
        let _ = writeln!(content, "{}", chips(e));
        if !e.description().is_empty() {
            let _ = writeln!(content, "<p class=\"lead\">{}</p>", esc(&e.description()));
        }
        if let Some(svg) = doc.svg() {
            content.push_str(&self.figure(root, &svg, &format!("{} diagram", e.name())));
        }
        content.push_str(&markdown(&e.doc.body, &e.name()));
        if !e.children.is_empty() {
            let (title, anchor) = match e.level {
                Level::System => ("Containers", "containers"),
                _ => ("Components", "components"),
            };
            let _ = write!(
                content,
                "<h2 id=\"{anchor}\">{title}</h2>\n<div class=\"cards\">\n"
            );
            for child in self.children_of(e) {
                let _ = writeln!(
                    content,
                    "<div class=\"card\">{}<h3><a href=\"{root}{}\">{}</a></h3><p>{}</p>{}</div>",
                    self.thumbnail(root, child),
                    child.html_path(),
                    esc(&child.entity.name()),
                    esc(&child.entity.description()),
                    child
                        .entity
                        .technology()
                        .map(|t| format!("<p>{}</p>", esc(&t)))
                        .unwrap_or_default()
                );
            }
            content.push_str("</div>\n");
        }
        if e.level == Level::Component {
            let id = self.project.qualified_id(e);
            let outgoing: Vec<(&str, &str)> = self
                .edges
                .get(&id)
                .into_iter()
                .flatten()
                .map(|edge| {
                    (
                        label(edge),
                        edge.target.as_deref().unwrap_or(&edge.target_written),
                    )
                })
                .collect();
            let incoming: Vec<(&str, &str)> = self
                .edges
                .values()
                .flatten()
                .filter(|edge| edge.target.as_deref() == Some(id.as_str()))
                .map(|edge| (label(edge), edge.source.as_str()))
                .collect();
            self.relationship_list(&mut content, root, "Relationships", &outgoing, false);
            self.relationship_list(&mut content, root, "Used by", &incoming, true);
        }
        self.page(
            root,
            &e.name(),
            &doc.html_path(),
            &self.crumbs(root, Some(doc)),
            &content,
        )
    }

    /// A list of relationships under `title`: `label other` for what a component uses,
    /// `other label` (`used_by`) for what uses it; `other` links to its page when it has one.
    fn relationship_list(
        &self,
        content: &mut String,
        root: &str,
        title: &str,
        items: &[(&str, &str)],
        used_by: bool,
    ) {
        if items.is_empty() {
            return;
        }
        let class = if used_by {
            "relationships used-by"
        } else {
            "relationships"
        };
        let _ = writeln!(content, "<h2>{}</h2>\n<ul class=\"{class}\">", esc(title));
        for (label, other) in items {
            let key = other.replace('/', "_");
            let link = match self.docs.iter().find(|d| d.key == key) {
                Some(d) => format!(
                    "<a href=\"{root}{}\">{}</a>",
                    d.html_path(),
                    esc(&d.entity.name())
                ),
                None => esc(other),
            };
            let line = if used_by {
                format!("{link} {}", esc(label))
            } else {
                format!("{} {link}", esc(label))
            };
            let _ = writeln!(content, "<li>{line}</li>");
        }
        content.push_str("</ul>\n");
    }

    /// The search entries: every system, container and component.
    fn search_index(&self) -> String {
        let entries: Vec<_> = self
            .docs
            .iter()
            .map(|d| {
                let path: Vec<String> = d
                    .parents
                    .iter()
                    .map(|p| p.name())
                    .chain([d.entity.name()])
                    .collect();
                json!({
                    "title": d.entity.name(),
                    "url": d.html_path(),
                    "description": d.entity.description(),
                    "technology": d.entity.technology().unwrap_or_default(),
                    "type": d.entity.level.role(),
                    "path": path.join(" / "),
                })
            })
            .collect();
        serde_json::Value::Array(entries)
            .to_string()
            .replace("</", "<\\/")
    }

    /// One page with every system (each from a new page), for printing to PDF.
    pub fn print_page(&self) -> String {
        let mut html = format!(
            "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{p}</title><link rel=\"stylesheet\" href=\"styles/style.css\"></head><body><main>\n<h1>{p}</h1>\n<p class=\"lead\">{d}</p>\n",
            p = esc(self.project_name()),
            d = esc(&self.project.settings.description)
        );
        html.push_str(&self.figure("", &format!("{LANDSCAPE}.svg"), "System landscape"));
        for doc in self.docs {
            let e = doc.entity;
            let heading = match e.level {
                Level::System => "h1",
                Level::Container => "h2",
                Level::Component => "h3",
            };
            if e.level == Level::System {
                html.push_str("<section class=\"system\">\n");
            }
            let _ = writeln!(
                html,
                "<{heading}>{}</{heading}>\n{}",
                esc(&e.name()),
                chips(e)
            );
            if !e.description().is_empty() {
                let _ = writeln!(html, "<p class=\"lead\">{}</p>", esc(&e.description()));
            }
            if let Some(svg) = doc.svg() {
                html.push_str(&self.figure("", &svg, &format!("{} diagram", e.name())));
            }
            html.push_str(&markdown(&e.doc.body, &e.name()));
            let last_of_system = self
                .docs
                .iter()
                .skip_while(|d| !std::ptr::eq(d.entity, e))
                .nth(1)
                .is_none_or(|next| next.entity.level == Level::System);
            if last_of_system {
                html.push_str("</section>\n");
            }
        }
        html.push_str("</main></body></html>\n");
        html
    }
}

fn chips(e: &Entity) -> String {
    let mut items = Vec::new();
    items.push(format!("<li>{}</li>", e.level.title()));
    if let Some(t) = e.technology() {
        items.push(format!("<li class=\"tech\">{}</li>", esc(&t)));
    }
    for tag in crate::loko::formats::markdown::list(&e.doc.frontmatter, "tags") {
        items.push(format!("<li>#{}</li>", esc(&tag)));
    }
    format!("<ul class=\"chips\">{}</ul>", items.join(""))
}

/// What an edge does, as a page says it (`uses` when it does not say).
fn label(edge: &Relationship) -> &str {
    if edge.label.is_empty() {
        "uses"
    } else {
        &edge.label
    }
}

/// The D2 source of the landscape: every system, and an arrow where a component of one
/// system depends on a component of another. Systems with no arrows between them are laid
/// out as a grid (`grid-columns`, about as wide as tall) instead of one long row or
/// column; the project's `[d2] layout` and `theme` still apply to the source.
pub fn landscape(project: &Project, edges: &BTreeMap<String, Vec<Relationship>>) -> String {
    use crate::loko::formats::d2::quote;
    let links = system_links(edges);
    let mut d2 = if links.is_empty() {
        let columns = (project.systems.len() as f64).sqrt().ceil().max(1.0) as usize;
        format!("grid-columns: {columns}\ngrid-gap: 40\n")
    } else {
        String::from("direction: right\n")
    };
    for s in &project.systems {
        let _ = writeln!(
            d2,
            "{}: {} {{\n  style.fill: \"#E3F2FD\"\n}}",
            quote(&s.id),
            quote(&s.name())
        );
    }
    for (from, to) in links {
        let _ = writeln!(d2, "{} -> {}: \"depends on\"", quote(&from), quote(&to));
    }
    d2
}

/// The pairs of different systems where a component of the first depends on one of the
/// second.
fn system_links(
    edges: &BTreeMap<String, Vec<Relationship>>,
) -> std::collections::BTreeSet<(String, String)> {
    let mut links = std::collections::BTreeSet::new();
    for edge in edges.values().flatten() {
        let (Some(from), Some(to)) = (
            edge.source.split('/').next(),
            edge.target.as_deref().and_then(|t| t.split('/').next()),
        ) else {
            continue;
        };
        if from != to {
            links.insert((from.to_owned(), to.to_owned()));
        }
    }
    links
}

/// `url` when a page may link to it (an image: load it), else `#`: a relative address, a
/// fragment, or one of the schemes `http`, `https`, `mailto` and `tel` (and `data:image/`
/// for an image). `javascript:`, `vbscript:`, `data:` and every other scheme would run or
/// load what the page's author, not the reader, chose. The scheme is read as a browser reads
/// it: without the whitespace and control characters it ignores, in any case.
fn safe_url(url: CowStr<'_>, image: bool) -> CowStr<'_> {
    let compact: String = url
        .chars()
        .filter(|c| !c.is_ascii_whitespace() && !c.is_control())
        .collect::<String>()
        .to_ascii_lowercase();
    let scheme = compact
        .split_once(':')
        .map(|(scheme, _)| scheme)
        .filter(|scheme| !scheme.contains(['/', '?', '#']));
    let allowed = match scheme {
        None => true,
        Some("http" | "https") => true,
        Some("mailto" | "tel") => !image,
        Some("data") => image && compact.starts_with("data:image/"),
        Some(_) => false,
    };
    if allowed { url } else { CowStr::Borrowed("#") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_renders_tables_and_code_and_never_runs_html() {
        let html = markdown(
            "# API\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```rust\nfn x() {}\n```\n\n<script>alert(1)</script>\n[link](https://example.org)\n",
            "API",
        );
        assert!(
            !html.contains("<h1>"),
            "the repeated title is dropped: {html}"
        );
        assert!(html.contains("<div class=\"table-wrap\"><table>"));
        assert!(html.contains("<code class=\"language-rust\">"));
        assert!(html.contains("&lt;script&gt;"), "{html}");
        assert!(!html.contains("<script>"));
        assert!(html.contains("<a href=\"https://example.org\">link</a>"));
    }

    #[test]
    fn links_and_images_with_a_scheme_that_runs_or_loads_code_go_nowhere() {
        let html = markdown(
            "[a](javascript:alert(1)) [b](<JavaScript\t:alert(1)>) [c](vbscript:x) \
             [d](data:text/html,<script>x</script>) [e](https://example.org/a:b) \
             [f](../system/index.html) [g](#part) [h](mailto:a@example.org) [i](page?x=a:b) \
             ![j](data:image/png;base64,AAAA) ![k](javascript:x) ![l](data:text/html,x)\n",
            "",
        );
        for gone in ["javascript", "JavaScript", "vbscript", "data:text"] {
            assert!(!html.contains(gone), "{gone} in {html}");
        }
        for kept in [
            "href=\"https://example.org/a:b\"",
            "href=\"../system/index.html\"",
            "href=\"#part\"",
            "href=\"mailto:a@example.org\"",
            "href=\"page?x=a:b\"",
            "src=\"data:image/png;base64,AAAA\"",
        ] {
            assert!(html.contains(kept), "{kept} not in {html}");
        }
        assert_eq!(html.matches("href=\"#\"").count(), 4, "{html}");
        assert_eq!(html.matches("src=\"#\"").count(), 2, "{html}");
    }

    #[test]
    fn escaping() {
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}
