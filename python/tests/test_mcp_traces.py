"""OpenTelemetry traces of ``toolpack-mcp serve --http``: a small OTLP/HTTP receiver
here decodes the real protobuf export (PyPI ``opentelemetry-proto``) and checks the span
names, kinds and parent links. A call carrying a W3C ``traceparent`` in its HTTP
headers, or in the MCP request's ``_meta``, continues that trace: ``tools/call <tool>``
(server) under the client's span, ``execute_tool <tool>`` under it, and the upstream
request (``GET tfl``, client) or the d2 renders (``d2 render``) under that. The test
command sets ``TOOLPACK_MCP_BIN``; d2 is on ``PATH``."""

from __future__ import annotations

import http.server
import json
import os
import pathlib
import secrets
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from conftest import FakeUpstream
from mcp_http import free_port, serve_http

MCP_BIN = os.environ.get("TOOLPACK_MCP_BIN")
pytestmark = pytest.mark.skipif(not MCP_BIN, reason="TOOLPACK_MCP_BIN is set by scripts/test-all")
TOKEN = "trace-test-token-61c2"


class Receiver:
    """An OTLP/HTTP trace receiver on loopback: every span it was sent, decoded."""

    def __init__(self) -> None:
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
            ExportTraceServiceRequest,
            ExportTraceServiceResponse,
        )

        self.spans: list[Any] = []
        self.paths: set[str] = set()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the http.server name)
                body = self.rfile.read(int(self.headers["content-length"]))
                export = ExportTraceServiceRequest()
                export.ParseFromString(body)
                receiver.paths.add(f"{self.path} {self.headers['content-type']}")
                for resource in export.resource_spans:
                    for scope in resource.scope_spans:
                        receiver.spans.extend(scope.spans)
                answer = ExportTraceServiceResponse().SerializeToString()
                self.send_response(200)
                self.send_header("content-type", "application/x-protobuf")
                self.send_header("content-length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def named(self, name: str) -> list[Any]:
        return [span for span in self.spans if span.name == name]

    def wait_for(self, names: list[str], timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(self.named(name) for name in names):
                return
            time.sleep(0.05)
        seen = sorted({span.name for span in self.spans})
        raise AssertionError(f"spans {names} not all received; got {seen}")


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver()
    yield found
    found.server.shutdown()


@pytest.fixture
def server(receiver: Receiver, fake: FakeUpstream, tmp_path: pathlib.Path) -> Iterator[str]:
    assert MCP_BIN
    fake.reset()
    env = {
        "TOOLPACK_HTTP_TOKENS": f"alice:{TOKEN}",
        "TFL_API_KEY": "trace-tfl-key-0c4d",
        "TFL_API_BASE_URL": fake.base_url,
        "LOKO_ALLOWED_ROOTS": str(tmp_path),
        "CHROMIUM_BIN": str(tmp_path / "no-chromium"),
        "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.url,
        "OTEL_BSP_SCHEDULE_DELAY": "100",
    }
    yield from serve_http(free_port(), "--stateless", env=env)


def call(base: str, tool: str, arguments: dict[str, Any], headers: dict[str, str] | None = None,
         meta: dict[str, str] | None = None) -> dict[str, Any]:
    params: dict[str, Any] = {"name": tool, "arguments": arguments}
    if meta:
        params["_meta"] = meta
    request = urllib.request.Request(
        f"{base}/mcp",
        data=json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params}).encode(),
        headers={
            "content-type": "application/json",
            "accept": "application/json, text/event-stream",
            "mcp-protocol-version": "2025-06-18",
            "authorization": f"Bearer {TOKEN}",
            **(headers or {}),
        },
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        text = answer.read().decode()
    # JSON, or an event stream when the call sent notifications first.
    lines = [line[5:] for line in text.splitlines() if line.startswith("data:")] or [text]
    result: dict[str, Any] = json.loads(lines[-1])["result"]
    assert result.get("isError") is not True, result
    return result


def traceparent() -> tuple[str, str, str]:
    trace_id, span_id = secrets.token_hex(16), secrets.token_hex(8)
    return trace_id, span_id, f"00-{trace_id}-{span_id}-01"


def one(spans: list[Any], trace_id: str) -> Any:
    found = [span for span in spans if span.trace_id.hex() == trace_id]
    assert len(found) == 1, [span.name for span in spans]
    return found[0]


def test_spans_continue_the_callers_trace_from_headers_and_meta(
    server: str, receiver: Receiver, tmp_path: pathlib.Path
) -> None:
    from opentelemetry.proto.trace.v1.trace_pb2 import Span

    journey_trace, journey_parent, header = traceparent()
    call(server, "planJourney", {"from": "Bank Underground Station", "to": "Mile End Underground Station"},
         headers={"traceparent": header})
    call(server, "create_system", {"project_path": str(tmp_path), "system_name": "Shop"})
    build_trace, build_parent, in_meta = traceparent()
    _, _, ignored_header = traceparent()
    built = call(server, "build_docs", {"project_path": str(tmp_path), "format": "html"},
                 headers={"traceparent": ignored_header}, meta={"traceparent": in_meta})
    rendered = built["structuredContent"]["build"]["diagrams_rendered"]
    receiver.wait_for(["tools/call planJourney", "execute_tool planJourney", "GET tfl",
                       "tools/call build_docs", "execute_tool build_docs", "d2 render",
                       "tools/call create_system"])
    assert all(path.startswith("/v1/traces application/x-protobuf") for path in receiver.paths), receiver.paths

    # From the HTTP header: the call's server span is the child of the caller's span.
    mcp_span = one(receiver.named("tools/call planJourney"), journey_trace)
    assert mcp_span.parent_span_id.hex() == journey_parent
    assert mcp_span.kind == Span.SPAN_KIND_SERVER
    tool_span = one(receiver.named("execute_tool planJourney"), journey_trace)
    assert tool_span.parent_span_id == mcp_span.span_id
    upstream = one(receiver.named("GET tfl"), journey_trace)
    assert upstream.parent_span_id == tool_span.span_id
    assert upstream.kind == Span.SPAN_KIND_CLIENT
    attributes = {a.key: a.value for a in upstream.attributes}
    assert attributes["http.response.status_code"].int_value == 200
    assert "trace-tfl-key" not in str(upstream), "no key in a span"

    # From the request's _meta (which wins over the header): d2 renders under the tool.
    mcp_span = one(receiver.named("tools/call build_docs"), build_trace)
    assert mcp_span.parent_span_id.hex() == build_parent
    tool_span = one(receiver.named("execute_tool build_docs"), build_trace)
    assert tool_span.parent_span_id == mcp_span.span_id
    renders = [s for s in receiver.named("d2 render") if s.trace_id.hex() == build_trace]
    assert len(renders) == rendered > 0
    assert all(render.parent_span_id == tool_span.span_id for render in renders)

    # No traceparent at all: a new trace, with the server span at its root.
    fresh = receiver.named("tools/call create_system")[0]
    assert fresh.trace_id.hex() not in {journey_trace, build_trace}
    parents = {s.span_id: s.name for s in receiver.spans}
    assert fresh.parent_span_id == b"", parents.get(fresh.parent_span_id)
