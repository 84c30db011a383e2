#![warn(missing_docs)]
//! Test support shared by every surface: the [`fake_upstream`] server and the
//! [`vectors`] (shared test cases) loader and checker.

pub mod fake_upstream;
pub mod fuzz_inputs;
pub mod loko_project;
pub mod mqtt;
pub mod postgres;
pub mod vectors;

pub use fake_upstream::{BodyMode, FakeUpstream, RecordedRequest, Scenario};

/// The repository's `tests/` directory (absolute).
pub fn tests_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("testkit lives in tests/")
        .to_path_buf()
}

/// A free loopback port (free when asked: a server started next takes it).
pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

/// A test's answer to a real server it needs but the machine lacks: it fails when the
/// test command set `require_variable` (the server must run there), else it skips, saying
/// so (always `None`).
pub(crate) fn missing<T>(require_variable: &str, missing: &str, what: &str) -> Option<T> {
    if std::env::var_os(require_variable).is_some() {
        panic!(
            "{what} is required ({require_variable}) but {missing}; run `cargo xtask tools apt`"
        );
    }
    eprintln!("skipped: {what} is not installed (`cargo xtask tools apt`)");
    None
}

/// The recorded upstream responses (`tests/fixtures`).
pub fn default_fixtures_dir() -> std::path::PathBuf {
    tests_dir().join("fixtures")
}

/// Waits (up to 10 s) until the HTTP server at `base` (`http://host:port`) answers
/// `GET /healthz` with 200; whether it did.
pub async fn wait_until_healthy(base: &str) -> bool {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let address = base.trim_start_matches("http://").trim_end_matches('/');
    for _ in 0..400 {
        if let Ok(mut stream) = tokio::net::TcpStream::connect(address).await {
            let request =
                format!("GET /healthz HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
            let mut head = [0u8; 12];
            if stream.write_all(request.as_bytes()).await.is_ok()
                && stream.read_exact(&mut head).await.is_ok()
                && head.ends_with(b" 200")
            {
                return true;
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    false
}
