"""The official Python MCP client (PyPI ``mcp``) answers toolpack-mcp's question when a
station name means two stations: over stdio and an HTTP session the server asks with
``elicitation/create`` (accept, decline, cancel, and a client that cannot be asked);
on protocol 2026-07-28 over stateless HTTP it answers with the input-required result
and the client's retry completes the call. Every answer is a valid contract answer.
The test command sets ``TOOLPACK_MCP_BIN``."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from typing import Any

import pytest

from mcp_http import free_port, serve_http

MCP_BIN = os.environ.get("TOOLPACK_MCP_BIN")
pytestmark = pytest.mark.skipif(not MCP_BIN, reason="TOOLPACK_MCP_BIN is set by the test command")

EDGWARE_ROAD = {"stationName": "Edgware Road"}


def start(*flags: str, everything: bool = False, env: dict[str, str] | None = None) -> Iterator[str]:
    """``toolpack-mcp serve --http`` with ``flags``: only stationToilets, or every tool
    served without keys (``everything``), with ``env`` besides ``PATH``; its ``/mcp`` URL."""
    tools = [] if everything else ["--tools", "stationToilets"]
    for base in serve_http(free_port(), *tools, *flags, env=env):
        yield f"{base}/mcp"


@pytest.fixture(scope="module")
def sessions() -> Iterator[str]:
    yield from start()


@pytest.fixture(scope="module")
def stateless() -> Iterator[str]:
    yield from start("--stateless")


class Person:
    """Answers each form as a person would, and keeps the forms it was shown."""

    def __init__(self, action: str, pick: str | None = None) -> None:
        self.action, self.pick = action, pick
        self.forms: list[Any] = []

    async def __call__(self, context: Any, params: Any) -> Any:
        from mcp import types

        self.forms.append(params)
        content = {"choice": self.pick} if self.action == "accept" else None
        return types.ElicitResult(action=self.action, content=content)


def stdio() -> Any:
    from mcp import StdioServerParameters

    assert MCP_BIN
    return StdioServerParameters(
        command=MCP_BIN, args=["serve", "--tools", "stationToilets"], env={"PATH": os.environ.get("PATH", "")}
    )


async def toilets(server: Any, person: Person | None, mode: str = "legacy") -> dict[str, Any]:
    from mcp import Client

    callback = person if person is not None else None
    async with Client(server, mode=mode, elicitation_callback=callback) as client:
        result = await client.call_tool("stationToilets", EDGWARE_ROAD)
        assert result.structured_content is not None
        return dict(result.structured_content)


def assert_todays_answer(body: dict[str, Any]) -> None:
    assert body["success"] is False and body["code"] == "DISAMBIGUATION_REQUIRED", body
    ids = [s["stationUniqueId"] for s in body["stationDisambiguation"]]
    assert ids == ["940GZZLUERB", "940GZZLUERC"]


def assert_the_form(person: Person) -> None:
    assert len(person.forms) == 1
    form = person.forms[0]
    assert form.message == 'Which station do you mean by "Edgware Road"?'
    choice = form.requested_schema["properties"]["choice"]
    assert [o["const"] for o in choice["oneOf"]] == ["940GZZLUERB", "940GZZLUERC"]
    assert all(o["title"].startswith("Edgware Road — ") for o in choice["oneOf"])


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_a_pick_answers_ok_in_the_same_call(transport: str, sessions: str) -> None:
    person = Person("accept", "940GZZLUERC")
    server = stdio() if transport == "stdio" else sessions
    body = asyncio.run(toilets(server, person))
    assert body["code"] == "OK" and body["stationUniqueId"] == "940GZZLUERC", body
    assert_the_form(person)


@pytest.mark.parametrize("action", ["decline", "cancel"])
@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_a_decline_or_cancel_gets_todays_answer(action: str, transport: str, sessions: str) -> None:
    person = Person(action)
    server = stdio() if transport == "stdio" else sessions
    assert_todays_answer(asyncio.run(toilets(server, person)))
    assert len(person.forms) == 1


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_a_client_without_elicitation_gets_todays_answer(transport: str, sessions: str) -> None:
    server = stdio() if transport == "stdio" else sessions
    assert_todays_answer(asyncio.run(toilets(server, None)))


def test_a_2026_07_28_client_completes_the_call_by_retrying(stateless: str) -> None:
    person = Person("accept", "940GZZLUERB")
    body = asyncio.run(toilets(stateless, person, mode="2026-07-28"))
    assert body["code"] == "OK" and body["stationUniqueId"] == "940GZZLUERB", body
    assert_the_form(person)


def test_a_2026_07_28_decline_gets_todays_answer(stateless: str) -> None:
    person = Person("decline")
    assert_todays_answer(asyncio.run(toilets(stateless, person, mode="2026-07-28")))
    assert len(person.forms) == 1


def test_the_2026_07_28_round_trip_as_a_client_sees_it(stateless: str) -> None:
    """The first round by hand: the input-required result, then the retry with the answer
    and the state as it came."""
    from mcp import Client

    async def rounds() -> tuple[Any, Any]:
        async with Client(stateless, mode="2026-07-28", elicitation_callback=Person("accept", "x")) as client:
            first = await client.session.call_tool("stationToilets", EDGWARE_ROAD, allow_input_required=True)
            answer = {"action": "accept", "content": {"choice": "940GZZLUERC"}}
            second = await client.session.call_tool(
                "stationToilets",
                EDGWARE_ROAD,
                allow_input_required=True,
                input_responses={"stationName": answer},
                request_state=first.request_state,
            )
            return first, second

    first, second = asyncio.run(rounds())
    assert first.result_type == "input_required"
    request = first.input_requests["stationName"]
    assert request.method == "elicitation/create"
    assert isinstance(first.request_state, str) and first.request_state
    assert second.structured_content["code"] == "OK"
    assert second.structured_content["stationUniqueId"] == "940GZZLUERC"
