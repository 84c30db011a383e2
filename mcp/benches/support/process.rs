//! What the load benchmarks read of a server process (Linux `/proc`), and their
//! latency percentiles.

#![allow(dead_code)]

/// User + system CPU seconds of `pid`.
pub fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    let ticks: f64 = [11, 12]
        .iter()
        .filter_map(|i| fields.get(*i).and_then(|f| f.parse::<f64>().ok()))
        .sum();
    ticks / 100.0
}

/// Resident memory of `pid` in MiB.
pub fn rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// The `p` quantile (0..=1) of `sorted`.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// A free loopback port.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts `command` (stderr discarded, killed on drop) and waits until the server it runs
/// answers its health check at `base`.
pub async fn spawn_healthy(
    mut command: tokio::process::Command,
    base: &str,
) -> tokio::process::Child {
    let child = command
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    assert!(
        toolpack_testkit::wait_until_healthy(base).await,
        "the server at {base} did not start"
    );
    child
}

/// Waits for every caller's task: all their latencies, sorted, and their errors in all.
pub async fn gather(tasks: Vec<tokio::task::JoinHandle<(Vec<f64>, usize)>>) -> (Vec<f64>, usize) {
    let (mut latencies, mut errors) = (Vec::new(), 0);
    for task in tasks {
        let (l, e) = task.await.unwrap();
        latencies.extend(l);
        errors += e;
    }
    latencies.sort_by(f64::total_cmp);
    (latencies, errors)
}
