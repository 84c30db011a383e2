//! `planJourney` end to end against the fake upstream on loopback, beside a bare HTTP
//! GET of the same recorded 200, **interleaved**: each round times one bare GET, one
//! typed call and one catalog (JSON) call back to back, so machine noise hits all three
//! alike. It prints the median of each and the median of the paired differences: the
//! tool's own cost (validate, encode, classify, map, rank, serialise).
//! Run: `cargo bench -p toolpack --bench plan_journey`.

use std::hint::black_box;
use std::time::Instant;

use serde_json::json;
use toolpack::tfl::JourneyPlanRequest;
use toolpack::{Config, Toolpack};
use toolpack_testkit::FakeUpstream;

const FROM: &str = "Bank Underground Station";
const TO: &str = "Mile End Underground Station";
const WARM_UP: usize = 500;
const ROUNDS: usize = 5_000;

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn main() {
    // `cargo test --benches` runs bench targets with `--bench` absent: stay quick then.
    let rounds = if std::env::args().any(|a| a == "--bench") {
        ROUNDS
    } else {
        10
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let fake = runtime
        .block_on(FakeUpstream::start(
            &toolpack_testkit::default_fixtures_dir(),
        ))
        .unwrap();
    let config = Config::builder()
        .tfl_api_base_url(fake.base_url())
        .tfl_api_key("bench-key")
        // Rate limits off: the benchmark calls far faster than 5 per second.
        .default_rate_limit(0)
        .build();
    let toolpack = Toolpack::new(config).unwrap();
    let bare = reqwest::Client::new();
    let url = format!(
        "{}/Journey/JourneyResults/{}/to/{}",
        fake.base_url(),
        toolpack::tfl::encode_segment(FROM),
        toolpack::tfl::encode_segment(TO)
    );
    let (mut bare_us, mut typed_us, mut json_us) = (Vec::new(), Vec::new(), Vec::new());
    runtime.block_on(async {
        for round in 0..WARM_UP.min(rounds) + rounds {
            let t0 = Instant::now();
            let response = bare
                .get(&url)
                .header("app_key", "bench-key")
                .send()
                .await
                .unwrap();
            black_box(response.bytes().await.unwrap());
            let t1 = Instant::now();
            let typed = toolpack
                .plan_journey(JourneyPlanRequest::new(FROM, TO))
                .await;
            assert!(typed.success);
            let t2 = Instant::now();
            let json = toolpack
                .call_json("planJourney", json!({"from": FROM, "to": TO}))
                .await
                .unwrap();
            black_box(json);
            let t3 = Instant::now();
            if round >= WARM_UP.min(rounds) {
                bare_us.push((t1 - t0).as_secs_f64() * 1e6);
                typed_us.push((t2 - t1).as_secs_f64() * 1e6);
                json_us.push((t3 - t2).as_secs_f64() * 1e6);
            }
            if round % 1000 == 0 {
                fake.clear_requests();
            }
        }
    });
    let paired = |tool: &[f64]| median(tool.iter().zip(&bare_us).map(|(t, b)| t - b).collect());
    let (bare_p50, typed_p50, json_p50) = (
        median(bare_us.clone()),
        median(typed_us.clone()),
        median(json_us.clone()),
    );
    println!("planJourney vs bare GET of the same recorded 200, {rounds} interleaved rounds:");
    println!("  bare HTTP GET            median {bare_p50:9.1} µs");
    for (label, p50, samples) in [
        ("tool, typed", typed_p50, &typed_us),
        ("tool, catalog JSON", json_p50, &json_us),
    ] {
        println!(
            "  {label:24} median {p50:9.1} µs  ratio {:.2}x  added (median of paired differences) {:7.1} µs",
            p50 / bare_p50,
            paired(samples)
        );
    }
}
