"""Shared fixtures: the repository paths and the fake upstream (the Rust testkit's
`fake-upstream` binary on loopback, driven through its admin API)."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
TESTS_DIR = REPO / "tests"


class FakeUpstream:
    """The running fake upstream: base URL plus its admin API."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url

    def _send(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base_url + path, data=data, method=method,
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            text = response.read()
        return json.loads(text) if text else None

    def reset(self, scenarios: list[dict[str, Any]] = ()) -> None:  # type: ignore[assignment]
        """Clears scenarios and the request log, then installs `scenarios`."""
        self._send("DELETE", "/__fake/scenarios")
        self._send("DELETE", "/__fake/requests")
        for scenario in scenarios:
            self._send("POST", "/__fake/scenarios", scenario)

    def requests(self) -> list[dict[str, Any]]:
        """Every request received since the last reset."""
        received: list[dict[str, Any]] = self._send("GET", "/__fake/requests")
        return received

    def judge(self, case_id: str, is_error: bool, body: Any) -> str | None:
        """The testkit's verdict on an answer to the shared vector case `case_id`
        (`<tool>: <name>`), with the requests received since the last reset: None when it
        passes, else every way it differs."""
        verdict = self._send("POST", "/__vectors/judge", {"case": case_id, "isError": is_error, "body": body})
        return None if verdict["ok"] else str(verdict["problems"])


def fake_upstream_binary() -> pathlib.Path:
    explicit = os.environ.get("TOOLPACK_FAKE_UPSTREAM_BIN")
    if explicit:
        return pathlib.Path(explicit)
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    return target / "debug" / "fake-upstream"


@pytest.fixture(scope="session")
def fake() -> Iterator[FakeUpstream]:
    binary = fake_upstream_binary()
    if not binary.exists():
        pytest.fail(f"{binary} is missing: run `cargo build -p toolpack-testkit` first")
    process = subprocess.Popen(
        [str(binary), "--fixtures", str(TESTS_DIR / "fixtures")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    assert process.stdout is not None
    base_url = process.stdout.readline().strip()
    assert base_url.startswith("http://127.0.0.1:"), base_url
    try:
        yield FakeUpstream(base_url)
    finally:
        process.terminate()
        process.wait(timeout=10)
