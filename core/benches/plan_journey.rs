//! `planJourney` end to end against the fake upstream on loopback, beside a bare HTTP
//! GET of the same recorded 200, interleaved (see `support`): the tool's own cost
//! (validate, encode, classify, map, rank, serialise), and the same call with every
//! planning option (time, modes, step-free wishes, via, walking). The last two laps ask a
//! toolpack with the shared cache on, plain and with every option, each answered from its
//! cache: their difference is the options' own cost on a call (checking them, London's
//! time, the query they add), without the fake upstream parsing a longer request.
//! Run: `cargo bench -p toolpack --bench plan_journey`.

mod support;

use std::hint::black_box;
use std::time::Instant;

use serde_json::json;
use toolpack::tfl::{
    AccessibilityWish, JourneyMode, JourneyPlanRequest, JourneyPreference, TimeIs, WalkingSpeed,
};
use toolpack::{Config, Toolpack};

const FROM: &str = "Bank Underground Station";
const TO: &str = "Mile End Underground Station";

/// The request with every planning option: arrive by nine, step-free, no buses, via a
/// chosen place, walking slowly and little.
fn with_every_option() -> JourneyPlanRequest {
    JourneyPlanRequest {
        time: Some("2026-12-05T09:00:00Z".into()),
        time_is: Some(TimeIs::Arriving),
        modes: Some(vec![JourneyMode::Tube, JourneyMode::ElizabethLine]),
        accessibility: Some(vec![AccessibilityWish::NoSolidStairs]),
        via: Some("1000007".into()),
        walking_speed: Some(WalkingSpeed::Slow),
        max_walking_minutes: Some(10),
        journey_preference: Some(JourneyPreference::LeastWalking),
        ..JourneyPlanRequest::new(FROM, TO).accessible(true)
    }
}

fn main() {
    let rounds = support::rounds();
    let runtime = support::runtime();
    let fake = support::fake_upstream(&runtime);
    let config = Config::builder()
        .tfl_api_base_url(fake.base_url())
        .tfl_api_key("bench-key")
        // Rate limits, the key's budget and the shared cache off: the benchmark calls far
        // faster than 5 per second, and measures the tool's work on every answer.
        .default_rate_limit(0)
        .upstream_budget_per_minute(toolpack::Toolset::Tfl, 0)
        .upstream_cache_bytes(0)
        .build();
    let cached = Toolpack::new(config.to_builder().upstream_cache_bytes(64 << 20).build()).unwrap();
    let toolpack = Toolpack::new(config).unwrap();
    toolpack::http::install_crypto_provider();
    let bare = reqwest::Client::new();
    let url = format!(
        "{}/Journey/JourneyResults/{}/to/{}",
        fake.base_url(),
        FROM.replace(' ', "%20"),
        TO.replace(' ', "%20")
    );
    let mut laps = support::Laps::new(
        &[
            "bare HTTP GET",
            "tool, typed",
            "tool, catalog JSON",
            "tool, typed, every option",
            "typed, a cache hit",
            "typed, a cache hit, every option",
        ],
        rounds,
    );
    runtime.block_on(async {
        for round in 0..laps.total_rounds(rounds) {
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
            let planned = toolpack.plan_journey(with_every_option()).await;
            assert!(planned.success, "{}", planned.message);
            let t4 = Instant::now();
            black_box(cached.plan_journey(JourneyPlanRequest::new(FROM, TO)).await);
            let t5 = Instant::now();
            black_box(cached.plan_journey(with_every_option()).await);
            laps.record(round, &[t0, t1, t2, t3, t4, t5, Instant::now()]);
            if round % 1000 == 0 {
                fake.clear_requests();
            }
        }
    });
    laps.report("planJourney vs bare GET of the same recorded 200");
}
