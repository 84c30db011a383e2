//! Many callers asking a few live questions: 1,000 concurrent callers spread over 20 stops,
//! each asking `get_departures` 5 times as stateless JSON-RPC POSTs to the built
//! `toolpack-mcp` binary, against the fake upstream on loopback answering after 80 ms (a
//! real upstream's round trip). Reports the upstream requests it took (in all and per
//! minute), calls per second, the server's CPU per call (from `/proc/<pid>/stat`) and
//! p50/p99 latency, for:
//! - this build, with the shared upstream layer as configured by default;
//! - this build with the cache off (`TOOLPACK_UPSTREAM_CACHE_BYTES=0`: identical requests in
//!   flight are still sent once);
//! - `LIVE_LOAD_BEFORE=PATH`, when given: another build of the server (one from before the
//!   layer, for a before-and-after in one run);
//! - 4 replicas on one throwaway PostgreSQL (when there is one here), callers round-robin:
//!   sharing the key's budget, cache and limits there, and each replica with its own
//!   (`TOOLPACK_SHARED_STATE=off`, the build before replicas shared state); CPU is summed
//!   over the replicas (the database's own is not counted).
//!
//! Run: `cargo bench -p toolpack-mcp --bench live_load`.

#[path = "support/process.rs"]
mod process;

use std::time::{Duration, Instant};

use serde_json::json;
use toolpack_testkit::{FakeUpstream, Scenario, tests_dir};

use process::{cpu_seconds, free_port, gather, percentile, spawn_healthy};

const CALLERS: usize = 1000;
const CALLS: usize = 5;
const STOPS: usize = 20;
/// How long the fake upstream takes to answer.
const UPSTREAM_MS: u64 = 80;

/// Starts `server` statelessly over HTTP against `upstream`, with `extra` settings.
async fn start(
    server: &str,
    upstream: &str,
    extra: &[(&str, &str)],
) -> (tokio::process::Child, String) {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let mut command = tokio::process::Command::new(server);
    command
        .env_clear()
        .env("TOOLPACK_RATE_LIMIT_PER_SECOND", "0")
        .env("DIGITRANSIT_API_KEY", "bench-key")
        .env("DIGITRANSIT_BASE_URL", upstream)
        .env("DIGITRANSIT_ROUTER", "hsl")
        .envs(extra.iter().copied())
        .args([
            "serve",
            "--stateless",
            "--http",
            &format!("127.0.0.1:{port}"),
        ])
        // Every caller is served: the bench measures the upstream layer, not load shedding
        // (256 calls in flight by default; the rest are refused at once as busy).
        .args(["--max-in-flight", "2000"]);
    (spawn_healthy(command, &base).await, base)
}

/// One caller: `calls` calls, starting at stop `offset`; latencies (µs) and errors.
async fn caller(
    http: reqwest::Client,
    url: String,
    calls: usize,
    offset: usize,
) -> (Vec<f64>, usize) {
    let (mut latencies, mut errors) = (Vec::with_capacity(calls), 0);
    for i in 0..calls {
        let stop = format!("HSL:{}", 1_000_000 + (offset + i) % STOPS);
        let body = json!({"jsonrpc": "2.0", "id": i, "method": "tools/call",
            "params": {"name": "get_departures",
                "arguments": {"stop": {"type": "id", "value": stop}}}});
        let started = Instant::now();
        let answered = match http
            .post(&url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-06-18")
            .body(body.to_string())
            .send()
            .await
        {
            Ok(response) => response
                .bytes()
                .await
                .is_ok_and(|b| String::from_utf8_lossy(&b).contains(r#""isError":false"#)),
            Err(_) => false,
        };
        latencies.push(started.elapsed().as_secs_f64() * 1e6);
        errors += usize::from(!answered);
    }
    (latencies, errors)
}

async fn round(
    label: &str,
    server: &str,
    fake: &FakeUpstream,
    extra: &[(&str, &str)],
    callers: usize,
) {
    replicated_round(label, server, fake, extra, callers, 1).await;
}

/// A round against `replicas` servers, callers spread over them in turn.
async fn replicated_round(
    label: &str,
    server: &str,
    fake: &FakeUpstream,
    extra: &[(&str, &str)],
    callers: usize,
    replicas: usize,
) {
    let mut children = Vec::new();
    let mut urls = Vec::new();
    for _ in 0..replicas {
        let (child, base) = start(server, &fake.base_url(), extra).await;
        children.push(child);
        urls.push(format!("{base}/mcp"));
    }
    let pids: Vec<u32> = children.iter().map(|c| c.id().unwrap()).collect();
    let cpu_of = |pids: &[u32]| pids.iter().map(|&pid| cpu_seconds(pid)).sum::<f64>();
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(callers)
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap();
    fake.clear_requests();
    let cpu_before = cpu_of(&pids);
    let started = Instant::now();
    let tasks: Vec<_> = (0..callers)
        .map(|c| tokio::spawn(caller(http.clone(), urls[c % replicas].clone(), CALLS, c)))
        .collect();
    let (latencies, errors) = gather(tasks).await;
    let wall = started.elapsed().as_secs_f64();
    let cpu = cpu_of(&pids) - cpu_before;
    let upstream = fake.requests().len();
    let total = latencies.len();
    println!(
        "{label}: {callers} callers x {CALLS} calls over {STOPS} stops = {total} in {wall:.2} s: \
upstream {upstream} requests ({:.0}/min), {:.0} calls/s, p50 {:.1} ms, p99 {:.1} ms, \
server CPU {:.0} µs/call, errors {errors}",
        upstream as f64 / wall * 60.0,
        total as f64 / wall,
        percentile(&latencies, 0.5) / 1e3,
        percentile(&latencies, 0.99) / 1e3,
        cpu * 1e6 / total as f64,
    );
    drop(children);
}

fn main() {
    // `cargo test --benches` runs bench targets without `--bench`: stay small then.
    let callers = if std::env::args().any(|a| a == "--bench") {
        CALLERS
    } else {
        STOPS
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        toolpack::http::install_crypto_provider();
        let fake = FakeUpstream::start(&tests_dir().join("fixtures"))
            .await
            .unwrap();
        fake.push_scenario(Scenario::on("/routing").delay_ms(UPSTREAM_MS));
        let this_build = env!("CARGO_BIN_EXE_toolpack-mcp");
        round("this build", this_build, &fake, &[], callers).await;
        let cache_off = [("TOOLPACK_UPSTREAM_CACHE_BYTES", "0")];
        round(
            "this build, cache off",
            this_build,
            &fake,
            &cache_off,
            callers,
        )
        .await;
        if let Ok(before) = std::env::var("LIVE_LOAD_BEFORE") {
            round(&format!("before ({before})"), &before, &fake, &[], callers).await;
        }
        let Some(cluster) = toolpack_testkit::postgres::PgCluster::start() else {
            return;
        };
        for (label, shared) in [
            ("4 replicas sharing state", "on"),
            ("4 replicas each its own (TOOLPACK_SHARED_STATE=off)", "off"),
        ] {
            let database = cluster.create_database();
            let settings = [
                ("TOOLPACK_DATABASE_URL", database.as_str()),
                ("TOOLPACK_SHARED_STATE", shared),
            ];
            replicated_round(label, this_build, &fake, &settings, callers, 4).await;
        }
    });
}
