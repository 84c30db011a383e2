//! `stationToilets` speed: first load of the bundled data, a warm lookup through the
//! typed API, and the same lookup through the catalog (JSON in → JSON out), so the
//! dispatch overhead is the difference of two medians measured in one run; and the
//! completion of a station argument of a prompt (offline, from the same data).
//! Run: `cargo bench -p toolpack --bench station_toilets`, then `scripts/bench-report`.

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use std::hint::black_box;
use toolpack::tfl::{StationData, StationDataSource, StationToiletLookupRequest};
use toolpack::{Config, Toolpack};

fn benches(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    // Rate limits off: the benchmark calls far faster than 5 per second.
    let toolpack = Toolpack::new(Config::builder().default_rate_limit(0).build()).unwrap();
    let warm =
        runtime.block_on(toolpack.station_toilets(StationToiletLookupRequest::new("Abbey Wood")));
    assert!(warm.success);

    let mut group = c.benchmark_group("station_toilets");
    group.bench_function("first_load_bundled", |b| {
        b.iter(|| black_box(StationData::load(&StationDataSource::Bundled).unwrap()))
    });
    for (label, name) in [
        ("kings_cross", "Kings Cross"),
        ("exact_victoria", "Victoria"),
        ("ambiguous_edgware_road", "Edgware Road"),
    ] {
        group.bench_function(format!("typed/{label}"), |b| {
            b.to_async(&runtime).iter(|| async {
                black_box(
                    toolpack
                        .station_toilets(StationToiletLookupRequest::new(name))
                        .await,
                )
            })
        });
        group.bench_function(format!("catalog_json/{label}"), |b| {
            b.to_async(&runtime).iter(|| async {
                black_box(
                    toolpack
                        .call_json("stationToilets", json!({ "stationName": name }))
                        .await
                        .unwrap(),
                )
            })
        });
    }
    // A prompt's station argument completed from the station data: a few letters, a word
    // inside names, and nothing typed (the first hundred names).
    let empty = std::collections::BTreeMap::new();
    for (label, typed) in [("edgw", "edgw"), ("cross", "cross"), ("nothing", "")] {
        group.bench_function(format!("complete_station/{label}"), |b| {
            b.to_async(&runtime).iter(|| async {
                black_box(
                    toolpack
                        .complete(toolpack::prompts::Source::TflStation, typed, &empty)
                        .await
                        .unwrap(),
                )
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = station_toilets;
    config = Criterion::default().sample_size(100).measurement_time(std::time::Duration::from_secs(3));
    targets = benches
}
criterion_main!(station_toilets);
