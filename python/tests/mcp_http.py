"""``toolpack-mcp serve --http`` for a test: the one way the MCP tests start the server on a
free loopback port and wait for its health check. The test command sets
``TOOLPACK_MCP_BIN``."""

from __future__ import annotations

import os
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve_http(port: int, *flags: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """Runs ``toolpack-mcp serve --http 127.0.0.1:{port}`` with ``flags`` and ``env`` (and
    ``PATH``) until the generator is closed; yields its base URL once it answers ``/healthz``."""
    binary = os.environ.get("TOOLPACK_MCP_BIN")
    assert binary, "TOOLPACK_MCP_BIN is set by the test command"
    base = f"http://127.0.0.1:{port}"
    args = [binary, "serve", "--http", f"127.0.0.1:{port}", *flags]
    process = subprocess.Popen(args, env={"PATH": os.environ.get("PATH", ""), **(env or {})}, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(f"{base}/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.05)
        yield base
    finally:
        process.terminate()
        process.wait()
