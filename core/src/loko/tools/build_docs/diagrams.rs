//! Rendering every diagram with the real `d2`, in parallel (bounded by the cores), with
//! a persistent cache in `.loko/cache/d2/` keyed by the D2 source, the d2 version and
//! the render options: an unchanged diagram is never rendered twice. Failures are
//! collected per diagram, never a panic, never an abort of the others.

use std::collections::BTreeMap;
use std::path::PathBuf;

use futures_util::StreamExt;
use sha2::{Digest, Sha256};

use crate::loko::formats::d2::D2;
use crate::loko::project::fence::store;
use crate::loko::project::model::Project;
use crate::report;

/// The cache directory, project-relative.
pub const CACHE_DIR: &str = ".loko/cache/d2";

/// One diagram to render.
#[derive(Debug, Clone)]
pub struct Job {
    /// The SVG's file name without `.svg`, e.g. `shop_api`.
    pub name: String,
    /// Where the source is, for messages (project-relative).
    pub source_path: String,
    /// The D2 source.
    pub source: String,
}

/// How rendering went.
#[derive(Debug, Default)]
pub struct Rendered {
    /// SVG bytes by name.
    pub svgs: BTreeMap<String, Vec<u8>>,
    /// Diagrams d2 rendered in this build.
    pub rendered: u32,
    /// Diagrams taken from the cache.
    pub cache_hits: u32,
    /// `(source path, d2's message)` of every diagram that failed.
    pub failures: Vec<(String, String)>,
}

/// The render options that go into the cache key.
#[derive(Debug, Clone)]
pub struct Options {
    /// `elk` or `dagre`.
    pub layout: String,
    /// The `--theme` id.
    pub theme: u32,
    /// The cache directory (absolute), or `None` when caching is off.
    pub cache: Option<PathBuf>,
    /// Read the cache (`false` re-renders everything, refreshing the cache).
    pub read_cache: bool,
    /// Progress steps before and in all (diagrams are the first steps).
    pub progress_total: f64,
}

impl Options {
    /// The options of `project` (its layout, theme and cache setting), reading the cache
    /// when `read_cache`, with `progress_total` steps in all.
    pub fn of(project: &Project, read_cache: bool, progress_total: f64) -> Self {
        Self {
            layout: project.settings.layout().to_owned(),
            theme: project.settings.theme_id(),
            cache: project
                .settings
                .d2_cache
                .then(|| project.root.path().join(CACHE_DIR)),
            read_cache,
            progress_total,
        }
    }
}

/// Renders `jobs` with `d2`, at most `workers` at a time.
pub async fn render_all(
    d2: &D2,
    version: &str,
    jobs: Vec<Job>,
    options: &Options,
    workers: usize,
) -> Rendered {
    let total = jobs.len();
    let mut out = Rendered::default();
    let results = futures_util::stream::iter(jobs)
        .map(|job| async move {
            let key = cache_key(version, options, &job.source);
            let cached = options
                .cache
                .as_ref()
                .map(|dir| dir.join(format!("{key}.svg")));
            if options.read_cache
                && let Some(path) = &cached
                && let Ok(svg) = tokio::fs::read(path).await
                && !svg.is_empty()
            {
                return (job, Ok(svg), true);
            }
            let result = d2.render(&job.source, &options.layout, options.theme).await;
            if let (Ok(svg), Some(path)) = (&result, &cached) {
                let (path, svg) = (path.clone(), svg.clone());
                let _ = tokio::task::spawn_blocking(move || store(&path, &svg)).await;
            }
            (job, result, false)
        })
        .buffer_unordered(workers.max(1));
    futures_util::pin_mut!(results);
    let mut done = 0;
    while let Some((job, result, hit)) = results.next().await {
        done += 1;
        match result {
            Ok(svg) => {
                if hit {
                    crate::telemetry::d2_cache_hit("svg");
                    out.cache_hits += 1;
                } else {
                    out.rendered += 1;
                }
                out.svgs.insert(job.name, svg);
            }
            Err(failure) => out.failures.push((
                job.source_path.clone(),
                failure.details.unwrap_or(failure.message),
            )),
        }
        report::progress(
            done as f64,
            Some(options.progress_total),
            Some(format!("diagram {done}/{total}: {}", job.source_path)),
        );
    }
    out.failures.sort();
    out
}

/// `sha256(d2 version, layout, theme, flags, source)` in hex.
fn cache_key(version: &str, options: &Options, source: &str) -> String {
    let digest = Sha256::new()
        .chain_update(version.as_bytes())
        .chain_update([0])
        .chain_update(options.layout.as_bytes())
        .chain_update([0])
        .chain_update(options.theme.to_string().as_bytes())
        .chain_update(b"\0--bundle=false\0")
        .chain_update(source.as_bytes())
        .finalize();
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_key_changes_with_every_input() {
        let options = Options {
            layout: "elk".into(),
            theme: 0,
            cache: None,
            read_cache: true,
            progress_total: 1.0,
        };
        let base = cache_key("v0.7.1", &options, "a -> b");
        assert_eq!(base.len(), 64);
        assert_ne!(base, cache_key("v0.7.2", &options, "a -> b"));
        assert_ne!(base, cache_key("v0.7.1", &options, "a -> c"));
        let dagre = Options {
            layout: "dagre".into(),
            ..options.clone()
        };
        assert_ne!(base, cache_key("v0.7.1", &dagre, "a -> b"));
        let themed = Options {
            theme: 303,
            ..options
        };
        assert_ne!(base, cache_key("v0.7.1", &themed, "a -> b"));
    }
}
