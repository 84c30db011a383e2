"""The official Python MCP client (PyPI ``mcp``) connects to ``toolpack-mcp serve --http``
with a bearer JWT from a real authorization server (``tests/oauth/issuer.mjs`` on
npm ``oauth2-mock-server``), lists the tools and calls one; without the token it is
refused. The test command sets ``TOOLPACK_OAUTH_ISSUER_DIR`` and ``TOOLPACK_MCP_BIN``."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import urllib.parse
import urllib.request
from collections.abc import Iterator

import pytest

from mcp_http import free_port, serve_http

ISSUER_DIR = os.environ.get("TOOLPACK_OAUTH_ISSUER_DIR")
MCP_BIN = os.environ.get("TOOLPACK_MCP_BIN")
pytestmark = pytest.mark.skipif(
    not (ISSUER_DIR and MCP_BIN), reason="TOOLPACK_OAUTH_ISSUER_DIR and TOOLPACK_MCP_BIN are set by scripts/test-all"
)


@pytest.fixture
def issuer() -> Iterator[str]:
    assert ISSUER_DIR
    process = subprocess.Popen(["node", "issuer.mjs"], cwd=ISSUER_DIR, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    url = str(json.loads(process.stdout.readline())["issuer"])
    yield url
    process.terminate()
    process.wait()


@pytest.fixture
def server(issuer: str) -> Iterator[str]:
    port = free_port()
    audience = f"http://127.0.0.1:{port}/mcp"
    yield from serve_http(port, "--oauth-issuer", issuer, "--oauth-audience", audience)


def access_token(issuer: str, user: str, audience: str) -> str:
    form = urllib.parse.urlencode(
        {"grant_type": "password", "username": user, "scope": "toolpack:read toolpack:write", "aud": audience}
    ).encode()
    with urllib.request.urlopen(urllib.request.Request(f"{issuer}/token", data=form)) as answer:
        return str(json.load(answer)["access_token"])


async def first_tool_answer(url: str, headers: dict[str, str]) -> tuple[list[str], dict[str, object]]:
    from mcp import ClientSession
    from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

    async with create_mcp_http_client(headers=headers) as http:
        async with streamable_http_client(url, http_client=http) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                await session.initialize()
                tools = await session.list_tools()
                result = await session.call_tool("stationToilets", {"stationName": "Victoria"})
                assert not result.is_error
                assert result.structured_content is not None
                return [t.name for t in tools.tools], dict(result.structured_content)


def test_the_official_client_connects_with_a_bearer_jwt(issuer: str, server: str) -> None:
    url = f"{server}/mcp"
    token = access_token(issuer, "alice", url)
    names, answer = asyncio.run(first_tool_answer(url, {"Authorization": f"Bearer {token}"}))
    assert "stationToilets" in names
    assert answer["code"] == "OK" and answer["stationUniqueId"] == "HUBVIC"
    # Without a token the same client is refused (401 with the resource-metadata challenge).
    request = urllib.request.Request(url, data=b"{}", headers={"content-type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request)
    assert refused.value.code == 401
    assert "resource_metadata=" in refused.value.headers["www-authenticate"]
