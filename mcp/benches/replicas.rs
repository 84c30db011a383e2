//! Load across two `toolpack-mcp serve --http --stateless` replicas on one real
//! PostgreSQL (a throwaway cluster on loopback, testkit `PgCluster`): 40 clients, each its
//! own caller (a static token each), alternate their calls between the replicas, one save
//! (`save_user_variable`) to three reads (`get_user_variables`). Reports calls per second,
//! p50/p99, errors and both replicas' CPU per call, for three pairs of replicas in the same
//! run, their rounds interleaved:
//! - `--no-metrics`, no trace export (the baseline);
//! - metrics on, scraped every second, no trace export;
//! - metrics on and scraped, every span exported over OTLP/HTTP to a sink on loopback.
//!
//! Run: `cargo bench -p toolpack-mcp --bench replicas` (needs PostgreSQL:
//! `cargo xtask tools apt`; without it the bench says so and stops).

#[path = "support/process.rs"]
mod process;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use toolpack_testkit::postgres::PgCluster;

use process::{cpu_seconds, free_port, gather, percentile, spawn_healthy};

const CLIENTS: usize = 40;
const CALLS: usize = 250;
const ROUNDS: usize = 3;

/// One way of running the replicas.
struct Mode {
    label: &'static str,
    flags: &'static [&'static str],
    traces: bool,
    scrape: bool,
}

const MODES: [Mode; 3] = [
    Mode {
        label: "metrics off, traces off",
        flags: &["--no-metrics"],
        traces: false,
        scrape: false,
    },
    Mode {
        label: "metrics on (scraped 1/s)",
        flags: &[],
        traces: false,
        scrape: true,
    },
    Mode {
        label: "metrics on + traces exported",
        flags: &[],
        traces: true,
        scrape: true,
    },
];

/// A replica: its process (killed on drop), pid and base URL.
struct Replica {
    _child: tokio::process::Child,
    pid: u32,
    base: String,
}

fn token(client: usize) -> String {
    format!("bench-token-{client:03}-5e7a")
}

async fn replica(
    mode: &Mode,
    database_url: &str,
    tokens_file: &std::path::Path,
    sink: &str,
) -> Replica {
    let port = free_port();
    let data = std::env::temp_dir().join(format!("toolpack-replica-bench-{port}"));
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_toolpack-mcp"));
    command
        .args([
            "serve",
            "--http",
            &format!("127.0.0.1:{port}"),
            "--stateless",
        ])
        .args(mode.flags)
        .env_clear()
        .env(
            "TOOLPACK_HTTP_TOKENS",
            format!("@{}", tokens_file.display()),
        )
        .env("TOOLPACK_DATABASE_URL", database_url)
        .env("TOOLPACK_DATA_DIR", &data);
    if mode.traces {
        command.env("OTEL_EXPORTER_OTLP_ENDPOINT", sink);
    }
    let base = format!("http://127.0.0.1:{port}");
    let child = spawn_healthy(command, &base).await;
    Replica {
        pid: child.id().unwrap(),
        _child: child,
        base,
    }
}

/// An OTLP/HTTP sink on loopback: accepts every export and drops it.
async fn otlp_sink() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let app = axum::Router::new().route(
        "/v1/traces",
        axum::routing::post(|_: axum::body::Bytes| async { "" }),
    );
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    url
}

/// Whether a JSON-RPC answer (JSON, or an event stream ending with it) is a successful
/// tool result.
fn succeeded(text: &str) -> bool {
    let answer = text
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .next_back()
        .unwrap_or(text);
    serde_json::from_str::<Value>(answer)
        .is_ok_and(|v| v["result"].is_object() && v["result"]["isError"] != json!(true))
}

/// One client: `calls` calls alternating between the replicas (a save, then three
/// reads); the latencies (µs) and the error count.
async fn client(bases: [String; 2], client: usize, calls: usize) -> (Vec<f64>, usize) {
    toolpack::http::install_crypto_provider();
    let http = reqwest::Client::new();
    let authorization = format!("Bearer {}", token(client));
    let (mut latencies, mut errors) = (Vec::with_capacity(calls), 0);
    for i in 0..calls {
        let (tool, arguments) = if i % 4 == 0 {
            let value = json!({"lat": 60.17, "lon": 24.94, "name": format!("place {i}")});
            (
                "save_user_variable",
                json!({"key": format!("k{}", i % 5), "type": "location", "value": value}),
            )
        } else {
            ("get_user_variables", json!({}))
        };
        let body = json!({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                          "params": {"name": tool, "arguments": arguments}});
        let started = Instant::now();
        let answer = http
            .post(format!("{}/mcp", bases[(client + i) % 2]))
            .header("authorization", &authorization)
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-06-18")
            .json(&body)
            .send()
            .await;
        let ok = match answer {
            Ok(response) if response.status().is_success() => {
                response.text().await.is_ok_and(|t| succeeded(&t))
            }
            _ => false,
        };
        latencies.push(started.elapsed().as_secs_f64() * 1e6);
        errors += usize::from(!ok);
    }
    (latencies, errors)
}

/// One round's figures.
struct Round {
    calls_per_second: f64,
    p50: f64,
    p99: f64,
    errors: usize,
    cpu_per_call: f64,
}

async fn round(pair: &[Replica; 2], scrape: bool, clients: usize, calls: usize) -> Round {
    let bases = [pair[0].base.clone(), pair[1].base.clone()];
    let cpu = || cpu_seconds(pair[0].pid) + cpu_seconds(pair[1].pid);
    let scraper = scrape.then(|| {
        let bases = bases.clone();
        tokio::spawn(async move {
            toolpack::http::install_crypto_provider();
            let http = reqwest::Client::new();
            loop {
                for base in &bases {
                    let _ = http
                        .get(format!("{base}/metrics"))
                        .bearer_auth(token(0))
                        .send()
                        .await;
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        })
    });
    let cpu_before = cpu();
    let started = Instant::now();
    let tasks: Vec<_> = (0..clients)
        .map(|c| tokio::spawn(client(bases.clone(), c, calls)))
        .collect();
    let (latencies, errors) = gather(tasks).await;
    let wall = started.elapsed().as_secs_f64();
    let cpu_after = cpu();
    if let Some(scraper) = scraper {
        scraper.abort();
    }
    let total = latencies.len();
    Round {
        calls_per_second: total as f64 / wall,
        p50: percentile(&latencies, 0.5),
        p99: percentile(&latencies, 0.99),
        errors,
        cpu_per_call: (cpu_after - cpu_before) * 1e6 / total as f64,
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let (clients, calls, rounds) = if std::env::args().any(|a| a == "--bench") {
        (CLIENTS, CALLS, ROUNDS)
    } else {
        (4, 8, 1)
    };
    let Some(cluster) = PgCluster::start() else {
        return;
    };
    let database_url = cluster.create_database();
    let dir = tempfile::tempdir().unwrap();
    let tokens_file = dir.path().join("tokens");
    let lines: Vec<String> = (0..clients)
        .map(|c| format!("caller-{c} {}", token(c)))
        .collect();
    std::fs::write(&tokens_file, lines.join("\n")).unwrap();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let sink = otlp_sink().await;
        let mut pairs = Vec::new();
        for mode in &MODES {
            let pair = [
                replica(mode, &database_url, &tokens_file, &sink).await,
                replica(mode, &database_url, &tokens_file, &sink).await,
            ];
            // Warm up: connection pools, migrations, every caller's first rows.
            round(&pair, false, clients, 8).await;
            pairs.push(pair);
        }
        let mut results: Vec<Vec<Round>> = MODES.iter().map(|_| Vec::new()).collect();
        for n in 1..=rounds {
            for (m, mode) in MODES.iter().enumerate() {
                let r = round(&pairs[m], mode.scrape, clients, calls).await;
                println!(
                    "round {n}, {}: {clients} clients x {calls} calls: {:.0} calls/s, p50 {:.0} µs, p99 {:.0} µs, errors {}, CPU {:.0} µs/call (both replicas)",
                    mode.label, r.calls_per_second, r.p50, r.p99, r.errors, r.cpu_per_call
                );
                results[m].push(r);
            }
        }
        println!(
            "two stateless replicas on one PostgreSQL, 1 save : 3 reads, medians of {rounds} interleaved rounds:"
        );
        let baseline = median(results[0].iter().map(|r| r.cpu_per_call).collect());
        for (mode, rounds) in MODES.iter().zip(&results) {
            let cpu = median(rounds.iter().map(|r| r.cpu_per_call).collect());
            println!(
                "  {:30} {:6.0} calls/s  p50 {:5.0} µs  p99 {:6.0} µs  errors {}  CPU {:4.0} µs/call  ratio {:.2}x",
                mode.label,
                median(rounds.iter().map(|r| r.calls_per_second).collect()),
                median(rounds.iter().map(|r| r.p50).collect()),
                median(rounds.iter().map(|r| r.p99).collect()),
                rounds.iter().map(|r| r.errors).sum::<usize>(),
                cpu,
                cpu / baseline
            );
        }
    });
    drop(cluster);
}
