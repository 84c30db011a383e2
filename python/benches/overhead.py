#!/usr/bin/env python3
"""Per-call overhead of the Python layer over the Rust call, for `stationToilets`.

In one run: the Rust catalog call (`Toolpack::call_json`, what the binding calls) is
measured by the core's criterion benchmark, then the same call through the installed
Python package, sync and async (typed methods and `call`). Each Python figure is the
median of many single calls; the overhead is the Python median minus the Rust median.

    target/py-venv/bin/python python/benches/overhead.py
"""

from __future__ import annotations

import asyncio
import json
import pathlib
import statistics
import subprocess
import time

import toolpack_agents as toolpack

REPO = pathlib.Path(__file__).resolve().parents[2]
CASES = {"exact_victoria": "Victoria", "kings_cross": "Kings Cross"}
ROUNDS = 20_000


def rust_medians_ns() -> dict[str, float]:
    subprocess.run(
        ["cargo", "bench", "-q", "-p", "toolpack", "--bench", "station_toilets", "--",
         "station_toilets/catalog_json/"],
        cwd=REPO, check=True, stdout=subprocess.DEVNULL,
    )
    root = REPO / "target" / "criterion" / "station_toilets"
    return {
        case: json.loads((root / f"catalog_json_{case}" / "new" / "estimates.json").read_text())["median"]["point_estimate"]
        for case in CASES
    }


def p50(samples: list[int]) -> float:
    return statistics.median(samples)


def sync_medians(name: str) -> tuple[float, float]:
    tp = toolpack.Toolpack(toolpack_rate_limit_per_second=0)
    typed, call = [], []
    for _ in range(ROUNDS):
        t0 = time.perf_counter_ns()
        tp.station_toilets(station_name=name)
        t1 = time.perf_counter_ns()
        tp.call("stationToilets", {"stationName": name})
        t2 = time.perf_counter_ns()
        typed.append(t1 - t0)
        call.append(t2 - t1)
    return p50(typed), p50(call)


def async_medians(name: str) -> tuple[float, float]:
    async def run() -> tuple[float, float]:
        tp = toolpack.AsyncToolpack(toolpack_rate_limit_per_second=0)
        typed, call = [], []
        for _ in range(ROUNDS // 4):
            t0 = time.perf_counter_ns()
            await tp.station_toilets(station_name=name)
            t1 = time.perf_counter_ns()
            await tp.call("stationToilets", {"stationName": name})
            t2 = time.perf_counter_ns()
            typed.append(t1 - t0)
            call.append(t2 - t1)
        return p50(typed), p50(call)

    return asyncio.run(run())


def main() -> None:
    rust = rust_medians_ns()
    print(f"{'case':16} {'rust call_json':>15} {'sync typed':>12} {'sync call':>12} {'async typed':>12} {'async call':>12}")
    for case, name in CASES.items():
        st, sc = sync_medians(name)
        at, ac = async_medians(name)
        r = rust[case]
        print(f"{case:16} {r / 1000:12.2f} µs {st / 1000:9.2f} µs {sc / 1000:9.2f} µs {at / 1000:9.2f} µs {ac / 1000:9.2f} µs")
        print(f"{'  added by Python':16} {'':15} {(st - r) / 1000:9.2f} µs {(sc - r) / 1000:9.2f} µs {(at - r) / 1000:9.2f} µs {(ac - r) / 1000:9.2f} µs")


if __name__ == "__main__":
    main()
