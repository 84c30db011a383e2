//! A cache hit across replicas: `get_departures` answered from this process's own cache
//! (a local hit, what every hit costs without shared state), beside the same call on a
//! replica without a cache of its own (`TOOLPACK_UPSTREAM_CACHE_BYTES=0`), answered from the
//! answer another replica shared in PostgreSQL (a throwaway cluster on loopback): one round
//! trip to the database; and a local hit of a caller whose limit the replicas share (one
//! round trip for the limit). Interleaved rounds (see `support`); the bound is a shared hit at
//! most 1 ms more than a local one. Skips, saying so, where there is no PostgreSQL.
//! Run: `cargo bench -p toolpack --bench shared_state`.

mod support;

use std::hint::black_box;
use std::time::Instant;

use serde_json::json;
use toolpack::{Config, Toolpack};
use toolpack_testkit::postgres::PgCluster;

fn replica(base: &str, database: &str, cache_bytes: &str, per_second: &str) -> Toolpack {
    let config = Config::from_pairs([
        ("DIGITRANSIT_API_KEY", "bench-key"),
        ("DIGITRANSIT_BASE_URL", base),
        ("DIGITRANSIT_ROUTER", "hsl"),
        ("TOOLPACK_RATE_LIMIT_PER_SECOND", per_second),
        ("TOOLPACK_DATABASE_URL", database),
        ("TOOLPACK_UPSTREAM_CACHE_BYTES", cache_bytes),
    ])
    .unwrap()
    .to_builder()
    .database(toolpack_postgres::engine())
    .build();
    Toolpack::new(config).unwrap()
}

fn main() {
    let Some(cluster) = PgCluster::start() else {
        return;
    };
    let database = cluster.create_database();
    let runtime = support::runtime();
    let fake = support::fake_upstream(&runtime);
    let base = fake.base_url();
    let fetching = replica(&base, &database, "67108864", "0");
    let uncached = replica(&base, &database, "0", "0");
    // A caller limit no bench reaches: every call asks the shared limit (one round trip).
    let limited = replica(&base, &database, "67108864", "1000000");
    let arguments = json!({"stop": {"type": "id", "value": "HSL:2434202"}});
    let rounds = support::rounds();
    let mut laps = support::Laps::new(
        &["local hit", "shared hit", "local hit, caller limit shared"],
        rounds,
    );
    runtime.block_on(async {
        let call = |toolpack: &Toolpack| {
            let (toolpack, arguments) = (toolpack.clone(), arguments.clone());
            async move {
                let answer = toolpack.call_json("get_departures", arguments).await;
                assert!(
                    answer
                        .as_ref()
                        .is_ok_and(|a| a.body["departures"].is_array())
                );
                let _ = black_box(answer);
            }
        };
        call(&fetching).await;
        for round in 0..laps.total_rounds(rounds) {
            let marks = [
                Instant::now(),
                {
                    call(&fetching).await;
                    Instant::now()
                },
                {
                    call(&uncached).await;
                    Instant::now()
                },
                {
                    call(&limited).await;
                    Instant::now()
                },
            ];
            laps.record(round, &marks);
        }
    });
    assert_eq!(fake.requests().len(), 1, "one upstream request in all");
    let medians = laps.medians();
    println!("get_departures, a cache hit, {rounds} interleaved rounds:");
    for (label, median) in &medians {
        println!("  {label:32} median {median:8.1} µs");
    }
    println!(
        "  shared hit - local hit: median of paired differences {:.1} µs (bound: 1,000 µs)",
        laps.added(1)
    );
    println!(
        "  a caller's limit held across replicas, on a local hit: {:.1} µs more (paired)",
        laps.added(2)
    );
}
