//! `planJourney` end to end against the fake upstream on loopback, beside a bare HTTP
//! GET of the same recorded 200 in the same run: the difference of the two medians is
//! the tool's own cost (validate, encode, classify, map, rank, serialise).
//! Run: `cargo bench -p toolpack --bench plan_journey`, then `scripts/bench-report`.

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use std::hint::black_box;
use toolpack::tfl::JourneyPlanRequest;
use toolpack::{Config, Toolpack};
use toolpack_testkit::FakeUpstream;

const FROM: &str = "Bank Underground Station";
const TO: &str = "Mile End Underground Station";

fn benches(c: &mut Criterion) {
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
    let warm = runtime.block_on(toolpack.plan_journey(JourneyPlanRequest::new(FROM, TO)));
    assert!(warm.success, "{warm:?}");

    let mut group = c.benchmark_group("plan_journey");
    group.bench_function("bare_http_get", |b| {
        b.to_async(&runtime).iter(|| async {
            let response = bare
                .get(&url)
                .header("app_key", "bench-key")
                .send()
                .await
                .unwrap();
            black_box(response.bytes().await.unwrap())
        })
    });
    group.bench_function("tool_typed", |b| {
        b.to_async(&runtime).iter(|| async {
            black_box(
                toolpack
                    .plan_journey(JourneyPlanRequest::new(FROM, TO))
                    .await,
            )
        })
    });
    group.bench_function("tool_catalog_json", |b| {
        b.to_async(&runtime).iter(|| async {
            black_box(
                toolpack
                    .call_json("planJourney", json!({"from": FROM, "to": TO}))
                    .await
                    .unwrap(),
            )
        })
    });
    group.finish();
    fake.clear_requests();
}

criterion_group! {
    name = plan_journey;
    config = Criterion::default().sample_size(100).measurement_time(std::time::Duration::from_secs(5));
    targets = benches
}
criterion_main!(plan_journey);
