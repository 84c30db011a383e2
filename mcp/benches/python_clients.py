#!/usr/bin/env python3
"""What a client sees: the official Python MCP client (PyPI ``mcp``) against the built
``toolpack-mcp`` over HTTP, with sessions (SSE) and ``--stateless`` (JSON) in the same run.
4 client processes x 250 ``stationToilets`` calls each; reports calls per second, the
clients' CPU per call and the server's CPU per call (Linux ``/proc``).

    python -m pip install 'mcp>=1.20'
    cargo build --release -p toolpack-mcp
    python mcp/benches/python_clients.py [--binary target/release/toolpack-mcp]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pathlib
import resource
import socket
import subprocess
import sys
import time
import urllib.request

PROCESSES = 4
CALLS = 250
STATIONS = ["Kings Cross", "Victoria", "Abbey Wood", "Bank"]


async def client(url: str, calls: int) -> None:
    from mcp import ClientSession
    from mcp.client import streamable_http

    # `streamable_http_client` (mcp 2.x) or `streamablehttp_client` (1.x).
    connect = getattr(streamable_http, "streamable_http_client", None) or getattr(
        streamable_http, "streamablehttp_client")
    async with connect(url) as streams:
        async with ClientSession(streams[0], streams[1]) as session:
            await session.initialize()
            started = time.perf_counter()
            for i in range(calls):
                result = await session.call_tool("stationToilets", {"stationName": STATIONS[i % 4]})
                assert not getattr(result, "is_error", getattr(result, "isError", False)), result
            wall = time.perf_counter() - started
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"wall": wall, "cpu": usage.ru_utime + usage.ru_stime}))


def server_cpu(pid: int) -> float:
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(binary: str, stateless: bool) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    args = [binary, "serve", "--http", f"127.0.0.1:{port}"] + (["--stateless"] if stateless else [])
    env = {"PATH": os.environ.get("PATH", ""), "TOOLPACK_RATE_LIMIT_PER_SECOND": "0"}
    server = subprocess.Popen(args, env=env, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.05)
        url = f"http://127.0.0.1:{port}/mcp"
        subprocess.run([sys.executable, __file__, "--client", url, "--calls", "10"], check=True,
                       stdout=subprocess.DEVNULL)
        cpu_before = server_cpu(server.pid)
        started = time.perf_counter()
        children = [subprocess.Popen([sys.executable, __file__, "--client", url, "--calls", str(CALLS)],
                                     stdout=subprocess.PIPE, text=True) for _ in range(PROCESSES)]
        reports = [json.loads(c.communicate()[0]) for c in children]
        wall = time.perf_counter() - started
        calls = PROCESSES * CALLS
        server_us = (server_cpu(server.pid) - cpu_before) * 1e6 / calls
        client_us = sum(r["cpu"] for r in reports) * 1e6 / calls
        mode = "stateless (JSON)" if stateless else "sessions (SSE)"
        print(f"{mode:18} {PROCESSES} processes x {CALLS} calls: {calls / wall:6.0f} calls/s, "
              f"client CPU {client_us:5.0f} us/call (whole process, start-up included), "
              f"server CPU {server_us:4.0f} us/call")
    finally:
        server.terminate()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(pathlib.Path(__file__).resolve().parents[2]
                                                 / "target" / "release" / "toolpack-mcp"))
    parser.add_argument("--client", help=argparse.SUPPRESS)
    parser.add_argument("--calls", type=int, default=CALLS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        asyncio.run(client(args.client, args.calls))
        return
    run(args.binary, stateless=False)
    run(args.binary, stateless=True)


if __name__ == "__main__":
    main()
