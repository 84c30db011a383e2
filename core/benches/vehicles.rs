//! `vehicle_positions` answered from a held subscription: a real broker (mosquitto) on
//! loopback, 200 vehicles published into it, OTP's route from the fake upstream (cached
//! after the first call). Each round times the typed call and the catalog's JSON call: the
//! tool's work with the positions at hand (bound: 50 µs, median), first with 20 of the 200
//! on the route asked for (the rest heading to stops also followed), then all 200 on it.
//! Then the cost of holding 20 subscriptions with no callers: 20 vehicles each, published
//! at HSL's rate (each vehicle once a second), and the process's processor time over 10 s.
//! Run: `cargo bench -p toolpack --bench vehicles` (needs mosquitto).
#![allow(
    clippy::disallowed_methods,
    reason = "a benchmark reading its own processor time from /proc, outside any server's path"
)]

mod support;

use std::hint::black_box;
use std::time::{Duration, Instant};

use serde_json::json;
use toolpack::digitransit::{VehiclePositions, VehiclePositionsRequest};
use toolpack::{Config, Toolpack};
use toolpack_testkit::mqtt::{Broker, Publisher};

/// Vehicles held for the timed calls.
const VEHICLES: u32 = 200;
/// Subscriptions held for the cost of holding (stops: the fake upstream answers every
/// stop id, and each stop is a subscription of its own, as each route is).
const HELD: u32 = 20;
/// Vehicles per subscription while holding (HSL's busiest lines run about this many).
const PER_SUBSCRIPTION: u32 = 20;

fn topic(route: u32, vehicle: u32, next_stop: u32) -> String {
    format!(
        "/hfp/v2/journey/ongoing/vp/tram/0040/{vehicle:05}/{route}/1/Keilaniemi (M)/06:54/{next_stop}/3/60;24/18/82/47"
    )
}

fn payload(route: u32, vehicle: u32) -> String {
    json!({"VP": {"desi": "15", "dir": "1", "oper": 40, "veh": vehicle,
        "tst": "2026-09-29T04:53:23.251Z", "spd": 5.46, "hdg": 127, "lat": 60.184519,
        "long": 24.827023, "dl": -217, "route": route.to_string(), "occu": 0}})
    .to_string()
}

/// User plus system processor time of this process.
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap()
        .split_whitespace()
        .collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    Duration::from_millis(ticks * 10)
}

/// Waits until the feed holds `count` positions.
async fn settle(toolpack: &Toolpack, count: usize) {
    while toolpack.vehicle_feed_counts().vehicles < count {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Times the typed and the JSON call for `request`, whose answer carries `shown` vehicles.
async fn time(
    toolpack: &Toolpack,
    request: &VehiclePositionsRequest,
    arguments: &serde_json::Value,
    shown: usize,
    rounds: usize,
    what: &str,
) {
    let mut laps = support::Laps::new(&["typed call, held", "catalog JSON, held"], rounds);
    for round in 0..laps.total_rounds(rounds) {
        let t0 = Instant::now();
        let answer = toolpack.call::<VehiclePositions>(request.clone()).await;
        let t1 = Instant::now();
        let json = toolpack
            .call_json("vehicle_positions", arguments.clone())
            .await;
        let t2 = Instant::now();
        assert_eq!(
            answer.into_result().expect("an answer").vehicles.len(),
            shown
        );
        black_box(json.unwrap());
        laps.record(round, &[t0, t1, t2]);
    }
    laps.report(&format!(
        "vehicle_positions, {VEHICLES} vehicles held, {what}"
    ));
}

fn main() {
    let rounds = support::rounds();
    let runtime = support::runtime();
    let fake = support::fake_upstream(&runtime);
    let broker = Broker::start().expect("mosquitto (`cargo xtask tools apt`)");
    let config = Config::from_pairs([
        ("DIGITRANSIT_API_KEY", "bench-key"),
        ("DIGITRANSIT_BASE_URL", fake.base_url().as_str()),
        ("DIGITRANSIT_ROUTER", "hsl"),
        ("DIGITRANSIT_HFP_URL", broker.url().as_str()),
        ("TOOLPACK_RATE_LIMIT_PER_SECOND", "0"),
    ])
    .unwrap();
    let toolpack = Toolpack::new(config).unwrap();
    runtime.block_on(async {
        let publisher = Publisher::new(broker.port());
        let request = VehiclePositionsRequest::route("15");
        let arguments = json!({"route": "15"});
        black_box(toolpack.call::<VehiclePositions>(request.clone()).await);
        // 200 held: 20 on the route asked for, 180 heading to nine stops also followed.
        for stop in 0..9 {
            let asked = VehiclePositionsRequest::stop(format!("HSL:{}", 4_000_000 + stop));
            black_box(toolpack.call::<VehiclePositions>(asked).await);
        }
        for vehicle in 0..VEHICLES {
            let (route, next_stop) = if vehicle < 20 {
                (2015, 2_222_405)
            } else {
                (3000, 4_000_000 + vehicle % 9)
            };
            publisher.publish(&topic(route, vehicle, next_stop), payload(route, vehicle)).await;
        }
        settle(&toolpack, VEHICLES as usize).await;
        time(&toolpack, &request, &arguments, 20, rounds, "20 of the route asked for among them").await;
        // Then all 200 on the route asked for: the answer carries every one.
        for vehicle in 20..VEHICLES {
            publisher.publish(&topic(2015, vehicle, 2_222_405), payload(2015, vehicle)).await;
        }
        settle(&toolpack, VEHICLES as usize + 180).await;
        time(&toolpack, &request, &arguments, VEHICLES as usize, rounds, "all of them on the route asked for").await;

        let holding = Toolpack::new(toolpack.config().clone()).unwrap();
        for stop in 0..HELD {
            let asked = VehiclePositionsRequest::stop(format!("HSL:{}", 4_000_000 + stop));
            black_box(holding.call::<VehiclePositions>(asked).await);
        }
        let feeding = tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_secs(1));
            loop {
                every.tick().await;
                for stop in 0..HELD {
                    for vehicle in 0..PER_SUBSCRIPTION {
                        let (topic, payload) = (topic(3000, vehicle, 4_000_000 + stop), payload(3000, vehicle));
                        publisher.publish(&topic, payload).await;
                    }
                }
            }
        });
        tokio::time::sleep(Duration::from_secs(2)).await;
        let (cpu0, wall0) = (cpu_time(), Instant::now());
        tokio::time::sleep(Duration::from_secs(10)).await;
        let (cpu, wall) = (cpu_time() - cpu0, wall0.elapsed());
        feeding.abort();
        let counts = holding.vehicle_feed_counts();
        println!(
            "holding {HELD} subscriptions ({} positions held, {} messages kept), no callers: {:.1} ms of processor a second ({} ms over {:.1} s; the publisher's share included)",
            counts.vehicles,
            counts.held,
            cpu.as_secs_f64() * 1000.0 / wall.as_secs_f64(),
            cpu.as_millis(),
            wall.as_secs_f64()
        );
    });
}
