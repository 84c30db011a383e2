//! MCP round trip of `stationToilets` over an in-process (duplex) transport: a real
//! rmcp client sends `tools/call`, the server dispatches through the catalog, and the
//! structured result comes back, over toolpack's stdio transport (`toolpack_mcp::stdio`). The typed core call is measured in the same run for
//! the ratio. `resources/read` of an MCP Apps view (the toilets page, ~330 KB) is measured
//! beside them: serving a view should cost about what a call does. `server/*` measure the
//! server alone: a raw peer sends the request line and reads the answer's bytes unparsed. Run:
//! `cargo bench -p toolpack-mcp`, then `scripts/bench-report`.

use criterion::{Criterion, criterion_group, criterion_main};
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ReadResourceRequestParams};
use serde_json::json;
use std::hint::black_box;
use toolpack::tfl::StationToiletLookupRequest;
use toolpack::{Config, Toolpack};
use toolpack_mcp::stdio;
use toolpack_mcp::{ToolpackServer, select_tools};

fn benches(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let config = Config::builder().default_rate_limit(0).build();
    let tools = select_tools(&config, None).unwrap().tools;
    let toolpack = Toolpack::new(config).unwrap();
    let server = ToolpackServer::new(toolpack.clone(), tools);
    let client = runtime.block_on(async {
        let (server_io, client_io) = tokio::io::duplex(64 * 1024);
        tokio::spawn(async move {
            let (read, write) = tokio::io::split(server_io);
            let running = stdio::serve(server, read, write).await.unwrap();
            let _ = running.waiting().await;
        });
        ().serve(client_io).await.unwrap()
    });
    let arguments = json!({"stationName": "Kings Cross"})
        .as_object()
        .unwrap()
        .clone();
    let warm =
        runtime.block_on(client.call_tool(
            CallToolRequestParams::new("stationToilets").with_arguments(arguments.clone()),
        ));
    assert_eq!(warm.unwrap().is_error, Some(false));

    let mut group = c.benchmark_group("mcp");
    group.bench_function("round_trip/station_toilets", |b| {
        b.to_async(&runtime).iter(|| async {
            let params =
                CallToolRequestParams::new("stationToilets").with_arguments(arguments.clone());
            black_box(client.call_tool(params).await.unwrap())
        })
    });
    group.bench_function("round_trip/read_view", |b| {
        b.to_async(&runtime).iter(|| async {
            let params = ReadResourceRequestParams::new("ui://toolpack/toilets");
            black_box(client.read_resource(params).await.unwrap())
        })
    });
    // The server's own cost: a raw JSON-RPC peer writes the request line and reads the
    // answer's bytes without parsing them (the rmcp client above parses ~330 KB of page).
    // `rmcp_transport/*` serve the same over rmcp's `AsyncRwTransport`, for the ratio.
    for (prefix, ours) in [("server", true), ("rmcp_transport", false)] {
        let mut raw = runtime.block_on(RawPeer::connect(&toolpack, ours));
        for (name, request) in [
            (
                "station_toilets",
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"stationToilets","arguments":{"stationName":"Kings Cross"}}}"#,
            ),
            (
                "read_view",
                r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"ui://toolpack/toilets"}}"#,
            ),
        ] {
            group.bench_function(format!("{prefix}/{name}"), |b| {
                b.iter(|| runtime.block_on(raw.ask(request)));
            });
        }
    }
    group.bench_function("typed/station_toilets", |b| {
        b.to_async(&runtime).iter(|| async {
            black_box(
                toolpack
                    .station_toilets(StationToiletLookupRequest::new("Kings Cross"))
                    .await,
            )
        })
    });
    group.finish();
}

/// A JSON-RPC peer of the server over an in-process pipe that reads answers as bytes.
struct RawPeer {
    writer: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    reader: tokio::io::BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>,
    line: Vec<u8>,
}

impl RawPeer {
    /// A server of every tool on its own pipe, initialised; over toolpack's transport
    /// (`ours`) or rmcp's.
    async fn connect(toolpack: &Toolpack, ours: bool) -> Self {
        let config = Config::builder().default_rate_limit(0).build();
        let tools = select_tools(&config, None).unwrap().tools;
        let server = ToolpackServer::new(toolpack.clone(), tools);
        let (server_io, peer_io) = tokio::io::duplex(64 * 1024);
        tokio::spawn(async move {
            let running = if ours {
                let (read, write) = tokio::io::split(server_io);
                stdio::serve(server, read, write).await
            } else {
                server.serve(server_io).await
            };
            let _ = running.unwrap().waiting().await;
        });
        let (reader, writer) = tokio::io::split(peer_io);
        let mut peer = Self {
            writer,
            reader: tokio::io::BufReader::new(reader),
            line: Vec::new(),
        };
        let initialize = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}"#;
        peer.ask(initialize).await;
        peer.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
        peer
    }

    async fn send(&mut self, message: &str) {
        use tokio::io::AsyncWriteExt;
        self.writer.write_all(message.as_bytes()).await.unwrap();
        self.writer.write_all(b"\n").await.unwrap();
    }

    /// Sends `request` and reads the answer's line; returns its length.
    async fn ask(&mut self, request: &str) -> usize {
        use tokio::io::AsyncBufReadExt;
        self.send(request).await;
        self.line.clear();
        let read = self.reader.read_until(b'\n', &mut self.line).await.unwrap();
        assert!(self.line.starts_with(b"{\"jsonrpc\""), "an answer");
        assert!(
            !self.line.windows(8).any(|w| w == b"\"error\":{"),
            "no error"
        );
        black_box(read)
    }
}

criterion_group! {
    name = mcp;
    config = Criterion::default().sample_size(100).measurement_time(std::time::Duration::from_secs(3));
    targets = benches
}
criterion_main!(mcp);
