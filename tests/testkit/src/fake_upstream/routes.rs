//! The route manifest: which recorded response answers which request.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::Deserialize;

/// One recorded response and the requests it answers.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Route {
    /// HTTP method (default `GET`).
    #[serde(default = "get")]
    pub method: String,
    /// Path pattern, matched case-insensitively after percent-decoding; `*` matches
    /// one segment.
    pub path: String,
    /// Query parameters that must be present with these values.
    #[serde(default)]
    pub query: BTreeMap<String, String>,
    /// Text the request body must contain (e.g. a GraphQL operation name).
    #[serde(default)]
    pub body_contains: Option<String>,
    /// Status to answer with (default 200).
    #[serde(default = "ok")]
    pub status: u16,
    /// Body file, relative to the fixtures directory.
    pub file: PathBuf,
    /// Extra response headers.
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
}

fn get() -> String {
    "GET".into()
}
fn ok() -> u16 {
    200
}

/// Every route of a fixtures directory, with bodies loaded.
#[derive(Debug, Clone, Default)]
pub struct Routes {
    routes: Vec<(Route, Vec<u8>)>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    routes: Vec<Route>,
}

impl Routes {
    /// Loads `dir/routes.json` and every body it names.
    pub fn load(dir: &Path) -> anyhow::Result<Self> {
        let manifest_path = dir.join("routes.json");
        let text = std::fs::read_to_string(&manifest_path)
            .with_context(|| format!("reading {}", manifest_path.display()))?;
        let manifest: Manifest = serde_json::from_str(&text)
            .with_context(|| format!("parsing {}", manifest_path.display()))?;
        let routes = manifest
            .routes
            .into_iter()
            .map(|route| {
                let path = dir.join(&route.file);
                let body =
                    std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
                Ok((route, body))
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(Self { routes })
    }

    /// The first route answering `method path?query` with `body`.
    pub fn find(
        &self,
        method: &str,
        path: &str,
        query: &BTreeMap<String, String>,
        body: &str,
    ) -> Option<(&Route, &[u8])> {
        let path = normalize_path(path);
        self.routes
            .iter()
            .find(|(route, _)| {
                route.method.eq_ignore_ascii_case(method)
                    && path_matches(&normalize_path(&route.path), &path)
                    && route.query.iter().all(|(k, v)| query.get(k) == Some(v))
                    && route
                        .body_contains
                        .as_deref()
                        .is_none_or(|text| body.contains(text))
            })
            .map(|(route, body)| (route, body.as_slice()))
    }
}

/// Percent-decodes and lower-cases a path, without a trailing slash.
pub(crate) fn normalize_path(path: &str) -> String {
    percent_decode(path)
        .to_lowercase()
        .trim_end_matches('/')
        .to_owned()
}

fn path_matches(pattern: &str, path: &str) -> bool {
    let (p, s): (Vec<&str>, Vec<&str>) = (pattern.split('/').collect(), path.split('/').collect());
    p.len() == s.len() && p.iter().zip(&s).all(|(a, b)| *a == "*" || a == b)
}

/// Decodes `%XX` escapes (invalid escapes are kept as they are).
pub(crate) fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(hi), Some(lo)) => {
                out.push((hi * 16 + lo) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_match_case_insensitively_with_wildcards() {
        assert_eq!(
            normalize_path("/Journey/JourneyResults/King%27s%20Cross/"),
            "/journey/journeyresults/king's cross"
        );
        assert!(path_matches("/a/*/c", "/a/b/c"));
        assert!(!path_matches("/a/*/c", "/a/b/d"));
        assert!(!path_matches("/a/*", "/a/b/c"));
        assert_eq!(percent_decode("%zz%41"), "%zzA");
    }
}
