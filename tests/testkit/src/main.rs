//! `fake-upstream [--fixtures DIR] [--port N] [--hfp-replay NAME]`: serves the recorded
//! responses on 127.0.0.1, prints its base URL as the first line of stdout, and runs until
//! killed or until standard input closes. With `--hfp-replay`, it also starts an MQTT
//! broker (mosquitto) fed with the recorded HFP messages `tests/fixtures/digitransit/hfp/NAME.jsonl`,
//! replayed in a loop 20 times faster than recorded, and prints the broker's URL (for
//! `DIGITRANSIT_HFP_URL`) as the second line.

use std::path::PathBuf;

use tokio::io::AsyncReadExt;

fn main() -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new()?;
    let served = runtime.block_on(serve());
    // Every task is dropped (a broker it started stops with it), without waiting for the
    // thread still reading standard input after a signal.
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    served
}

async fn serve() -> anyhow::Result<()> {
    let mut fixtures = toolpack_testkit::default_fixtures_dir();
    let mut port = 0u16;
    let mut hfp = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--fixtures", Some(dir)) => fixtures = PathBuf::from(dir),
            ("--port", Some(p)) => port = p.parse()?,
            ("--hfp-replay", Some(name)) => hfp = Some(name),
            _ => anyhow::bail!(
                "usage: fake-upstream [--fixtures DIR] [--port N] [--hfp-replay NAME]"
            ),
        }
    }
    let server = toolpack_testkit::FakeUpstream::start_on(&fixtures, port).await?;
    println!("{}", server.base_url());
    let _replaying = match hfp {
        Some(name) => {
            use toolpack_testkit::mqtt::{Broker, Publisher, recording};
            let broker = Broker::start().ok_or_else(|| {
                anyhow::anyhow!("--hfp-replay needs mosquitto (`cargo xtask tools apt`)")
            })?;
            let replay = Publisher::replay(broker.port(), recording(&name), 20);
            println!("{}", broker.url());
            Some((broker, replay))
        }
        None => None,
    };
    let mut sink = Vec::new();
    let mut stdin = tokio::io::stdin();
    // Ended by a signal, it still returns, so a broker it started stops with it.
    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    tokio::select! {
        _ = stdin.read_to_end(&mut sink) => {}
        _ = tokio::signal::ctrl_c() => {}
        _ = terminate.recv() => {}
    }
    Ok(())
}
