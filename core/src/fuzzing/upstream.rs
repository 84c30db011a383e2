//! Upstream bodies from the fuzzer: a server on loopback answers every request with the
//! input (its first byte picks the status), and a tool that reads that upstream is called
//! through the catalog, so the whole path runs: the HTTP client's caps, the status
//! handling, the body's parser and the answer's contract shape.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use serde_json::{Value, json};

use super::harness::{check_answer, scratch, within_budget};
use crate::{Config, Toolpack};

/// The statuses an input's first byte picks from: the ones a parser sees (no 5xx or 429,
/// which the client retries with backoff; their handling is not a parser's).
const STATUSES: [u16; 6] = [200, 200, 300, 400, 403, 404];

/// What the server answers now: status and body.
static ANSWER: Mutex<(u16, Vec<u8>)> = Mutex::new((200, Vec::new()));

/// Makes the loopback server answer `status` and `body` from now on; its base URL.
pub fn serve(status: u16, body: &[u8]) -> &'static str {
    *ANSWER.lock().unwrap_or_else(|p| p.into_inner()) = (status, body.to_vec());
    base_url()
}

/// The server's base URL, started on first use: one thread, one connection at a time, each
/// request read whole (headers and `content-length` body) and answered with [`ANSWER`].
fn base_url() -> &'static str {
    static URL: OnceLock<String> = OnceLock::new();
    URL.get_or_init(|| {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let url = format!("http://{}", listener.local_addr().expect("an address"));
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
                let _ = answer(stream);
            }
        });
        url
    })
}

fn answer(stream: std::net::TcpStream) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut request_body = vec![0; length];
    reader.read_exact(&mut request_body)?;
    let (status, body) = ANSWER.lock().unwrap_or_else(|p| p.into_inner()).clone();
    let mut stream = stream;
    write!(
        stream,
        "HTTP/1.1 {status} Fuzzed\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    )?;
    stream.write_all(&body)?;
    stream.flush()
}

/// The toolpack every fuzz body calls: its upstreams are the loopback server, its loko
/// tools may touch the scratch directory only and find no `d2` or Chromium to run.
pub(crate) fn toolpack() -> &'static Toolpack {
    static TOOLPACK: OnceLock<Toolpack> = OnceLock::new();
    TOOLPACK.get_or_init(|| {
        let url = base_url();
        let missing = scratch().join("missing");
        let config = Config::builder()
            .loko_allowed_roots([scratch().clone()])
            .tfl_api_base_url(url)
            .tfl_api_key("fuzz-key")
            .digitransit_base_url(url)
            .digitransit_api_key("fuzz-key")
            .data_dir(scratch().join("data"))
            .d2_bin(missing.join("d2"))
            .chromium_bin(missing.join("chromium"))
            .upstream_timeout(Duration::from_secs(3))
            .default_rate_limit(0)
            // A fuzz run makes thousands of requests a minute: TfL's key budget (500 a
            // minute) would make all but the first 500 wait for it.
            .upstream_budget_per_minute(crate::Toolset::Tfl, 0)
            // Every input reads a new body for the same request: no cached answer.
            .upstream_cache_bytes(0)
            .build();
        Toolpack::new(config).expect("a toolpack")
    })
}

/// Calls `tool` with `arguments` while the upstream answers `data` (status byte, body).
fn call_with_upstream(tool: &str, arguments: Value, data: &[u8]) {
    let Some((&first, body)) = data.split_first() else {
        return;
    };
    serve(STATUSES[usize::from(first) % STATUSES.len()], body);
    let answer =
        within_budget(tool, toolpack().call_json(tool, arguments.clone())).expect("a catalog tool");
    check_answer(tool, &arguments, &answer);
}

/// `planJourney` over a fuzzed TfL Journey Planner answer.
#[cfg(feature = "tfl")]
pub fn tfl_journey(data: &[u8]) {
    let arguments =
        json!({"from": "Bank Underground Station", "to": "Mile End Underground Station"});
    call_with_upstream("planJourney", arguments, data);
}

/// The station data parser over two fuzzed CSVs (stations, then toilets, split at the
/// first NUL byte), and every station's toilets when it parses.
#[cfg(feature = "tfl")]
pub fn station_data(data: &[u8]) {
    let (stations, toilets) = match data.iter().position(|&b| b == 0) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &[][..]),
    };
    if let Ok(parsed) = crate::tfl::StationData::parse(stations, toilets) {
        for station in parsed.stations() {
            let _ = parsed.toilets_of(&station.unique_id);
        }
    }
}

/// `geocode_address` over a fuzzed Pelias answer.
#[cfg(feature = "digitransit")]
pub fn pelias(data: &[u8]) {
    call_with_upstream("geocode_address", json!({"text": "kamppi"}), data);
}

/// `plan_trip` over a fuzzed OTP `planConnection` answer (every search of the call gets it).
#[cfg(feature = "digitransit")]
pub fn otp_plan(data: &[u8]) {
    let arguments = json!({
        "origin": {"type": "coords", "value": {"lat": 60.170384, "lon": 24.939846}},
        "destination": {"type": "coords", "value": {"lat": 60.194445, "lon": 24.904976}},
        "when": {"type": "depart", "time": "2021-06-29T17:05:00+03:00"}
    });
    call_with_upstream("plan_trip", arguments, data);
}

/// `get_departures` over a fuzzed OTP stop answer.
#[cfg(feature = "digitransit")]
pub fn otp_departures(data: &[u8]) {
    call_with_upstream(
        "get_departures",
        json!({"stop": {"type": "id", "value": "HSL:2434202"}}),
        data,
    );
}

/// HSL's HFP messages: the bytes up to the first newline are the topic, the rest the
/// payload. Reading never panics, and what it reads is a position a vehicle can have:
/// coordinates on Earth, a GTFS direction, a heading on the compass, no negative speed,
/// an occupancy in percent, and the topic's own route and next stop.
#[cfg(feature = "digitransit")]
pub fn hfp(data: &[u8]) {
    use crate::digitransit::hfp::{Watched, read};
    let split = data.iter().position(|b| *b == b'\n').unwrap_or(data.len());
    let topic = String::from_utf8_lossy(&data[..split]);
    let payload = data.get(split + 1..).unwrap_or_default();
    let Ok(sighting) = read(&topic, payload) else {
        return;
    };
    assert!((-90.0..=90.0).contains(&sighting.lat) && (-180.0..=180.0).contains(&sighting.lon));
    assert!(sighting.direction.is_none_or(|d| d <= 1));
    assert!(sighting.heading.is_none_or(|h| (0.0..=360.0).contains(&h)));
    assert!(sighting.speed.is_none_or(|s| s >= 0.0));
    assert!(sighting.occupancy.is_none_or(|o| o <= 100));
    assert!(Watched::Route(sighting.route.clone()).sees(&sighting));
    if let Some(stop) = &sighting.next_stop {
        assert!(Watched::NextStop(stop.clone()).sees(&sighting));
    }
}
