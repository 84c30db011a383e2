//! MCP round trip of `stationToilets` over an in-process (duplex) transport: a real
//! rmcp client sends `tools/call`, the server dispatches through the catalog, and the
//! structured result comes back. The typed core call is measured in the same run for
//! the ratio. `resources/read` of an MCP Apps view (the toilets page, ~330 KB) is measured
//! beside them: serving a view should cost about what a call does. Run:
//! `cargo bench -p toolpack-mcp`, then `scripts/bench-report`.

use criterion::{Criterion, criterion_group, criterion_main};
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ReadResourceRequestParams};
use serde_json::json;
use std::hint::black_box;
use toolpack::tfl::StationToiletLookupRequest;
use toolpack::{Config, Toolpack};
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
            let running = server.serve(server_io).await.unwrap();
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

criterion_group! {
    name = mcp;
    config = Criterion::default().sample_size(100).measurement_time(std::time::Duration::from_secs(3));
    targets = benches
}
criterion_main!(mcp);
