//! `fake-upstream [--fixtures DIR] [--port N]`: serves the recorded responses on
//! 127.0.0.1, prints its base URL as the first line of stdout, and runs until killed
//! or until standard input closes.

use std::path::PathBuf;

use tokio::io::AsyncReadExt;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut fixtures = toolpack_testkit::default_fixtures_dir();
    let mut port = 0u16;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--fixtures", Some(dir)) => fixtures = PathBuf::from(dir),
            ("--port", Some(p)) => port = p.parse()?,
            _ => anyhow::bail!("usage: fake-upstream [--fixtures DIR] [--port N]"),
        }
    }
    let server = toolpack_testkit::FakeUpstream::start_on(&fixtures, port).await?;
    println!("{}", server.base_url());
    let mut sink = Vec::new();
    let mut stdin = tokio::io::stdin();
    tokio::select! {
        _ = stdin.read_to_end(&mut sink) => {}
        _ = tokio::signal::ctrl_c() => {}
    }
    Ok(())
}
