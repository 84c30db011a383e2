"""The official Python MCP client (PyPI ``mcp``) lists toolpack-mcp's prompts, gets one
rendered with its arguments, and completes a station argument from the bundled station
data, over stdio and HTTP (a session, and stateless on protocol 2026-07-28). The server
is started without keys, so the prompts whose tools need none are offered. The test
command sets ``TOOLPACK_MCP_BIN``."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from typing import Any

import pytest

from test_mcp_elicitation import start

MCP_BIN = os.environ.get("TOOLPACK_MCP_BIN")
pytestmark = pytest.mark.skipif(not MCP_BIN, reason="TOOLPACK_MCP_BIN is set by the test command")

# Over HTTP the loko tools are not served to remote callers without LOKO_ALLOWED_ROOTS,
# and neither is the prompt that needs them.
KEYLESS_PROMPTS = {
    "stdio": ["station_facilities", "next_trains", "explain_loko_project"],
    "http": ["station_facilities", "next_trains"],
    "stateless-2026-07-28": ["station_facilities", "next_trains"],
}


@pytest.fixture(scope="module")
def sessions() -> Iterator[str]:
    yield from start(everything=True)


@pytest.fixture(scope="module")
def stateless() -> Iterator[str]:
    yield from start("--stateless", everything=True)


def server_for(transport: str, sessions: str, stateless: str) -> tuple[Any, str]:
    from mcp import StdioServerParameters

    if transport == "stdio":
        assert MCP_BIN
        env = {"PATH": os.environ.get("PATH", "")}
        return StdioServerParameters(command=MCP_BIN, args=["serve"], env=env), "legacy"
    if transport == "http":
        return sessions, "legacy"
    return stateless, "2026-07-28"


async def prompts(server: Any, mode: str) -> tuple[list[str], str, list[str], str]:
    from mcp import Client, types

    async with Client(server, mode=mode) as client:
        listed = await client.list_prompts()
        prompt = await client.get_prompt("station_facilities", {"station": "Edgware Road"})
        text = prompt.messages[0].content.text
        completion = await client.complete(types.PromptReference(name="next_trains"), {"name": "station", "value": "edgw"})
        try:
            await client.get_prompt("station_facilities", {})
            refused = ""
        except Exception as error:  # the SDK raises the server's JSON-RPC error
            refused = str(error)
        return [p.name for p in listed.prompts], text, completion.completion.values, refused


@pytest.mark.parametrize("transport", ["stdio", "http", "stateless-2026-07-28"])
def test_prompts_list_render_and_complete(transport: str, sessions: str, stateless: str) -> None:
    server, mode = server_for(transport, sessions, stateless)
    names, text, values, refused = asyncio.run(prompts(server, mode))
    assert names == KEYLESS_PROMPTS[transport]
    assert text.startswith("What facilities does Edgware Road station have?"), text
    assert values == ["Edgware", "Edgware Road"]
    assert "needs the argument 'station'" in refused
