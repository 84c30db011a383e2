//! Start-up of the built `toolpack-mcp` binary: from spawning it over stdio to the first
//! answered `stationToilets` call (initialize, tools/call, bundled station data loaded),
//! median of 20 runs, and the size of the binary.
//! Run: `cargo bench -p toolpack-mcp --bench startup`.

use std::time::Instant;

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::json;

fn main() {
    let runs = if std::env::args().any(|a| a == "--bench") {
        20
    } else {
        2
    };
    let binary = env!("CARGO_BIN_EXE_toolpack-mcp");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut samples: Vec<f64> = runtime.block_on(async {
        let mut samples = Vec::new();
        for _ in 0..runs {
            let mut command = tokio::process::Command::new(binary);
            command.env_clear().stderr(std::process::Stdio::null());
            let started = Instant::now();
            let client = ().serve(TokioChildProcess::new(command).unwrap()).await.unwrap();
            let mut arguments = serde_json::Map::new();
            arguments.insert("stationName".into(), json!("Kings Cross"));
            let answer = client
                .call_tool(CallToolRequestParams::new("stationToilets").with_arguments(arguments))
                .await
                .unwrap();
            assert_eq!(answer.is_error, Some(false));
            samples.push(started.elapsed().as_secs_f64() * 1e3);
            client.cancel().await.ok();
        }
        samples
    });
    samples.sort_by(f64::total_cmp);
    let size = std::fs::metadata(binary).map_or(0, |m| m.len());
    println!(
        "toolpack-mcp: spawn to first answered call over stdio, median of {runs}: {:.1} ms; binary {:.1} MiB ({binary})",
        samples[samples.len() / 2],
        size as f64 / (1024.0 * 1024.0)
    );
}
