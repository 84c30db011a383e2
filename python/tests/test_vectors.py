"""Every shared vector, through the typed methods and through `call`, async and sync,
against the fake upstream: the same expectations as every other surface."""

from __future__ import annotations

import asyncio
import tempfile
from typing import Any, TypeVar

import pytest

import toolpack_agents as toolpack
from conftest import FakeUpstream
from vectors import Case, keyword_arguments, load, method_name

CASES = load()
SCHEMAS = {t["name"]: t["inputSchema"] for t in toolpack.Toolpack.tools()}
PATHS = ["sync-typed", "sync-call", "async-typed", "async-call"]


def contract_code(payload: dict[str, Any]) -> Any:
    error = payload.get("error")
    return error.get("code") if isinstance(error, dict) else payload.get("code")


def typed_outcome(call: Any) -> tuple[bool, Any]:
    try:
        return False, call()
    except toolpack.ToolpackError as error:
        assert error.code == contract_code(error.payload), (error.code, error.payload)
        return True, error.payload


async def async_typed_outcome(call: Any) -> tuple[bool, Any]:
    try:
        return False, await call()
    except toolpack.ToolpackError as error:
        assert error.code == contract_code(error.payload), (error.code, error.payload)
        return True, error.payload


def mcp_outcome(result: dict[str, Any]) -> tuple[bool, Any]:
    assert set(result) == {"content", "structuredContent", "isError"}, result
    assert result["content"][0]["type"] == "text"
    return result["isError"], result["structuredContent"]


C = TypeVar("C", toolpack.Toolpack, toolpack.AsyncToolpack)


def acting_for(client: C, caller: str | None) -> C:
    """The client acting for the vector's ``caller`` (the local caller when absent)."""
    return client.for_caller(caller) if caller else client


def run(case: Case, path: str, settings: dict[str, str]) -> tuple[bool, Any] | None:
    kwargs = {name.lower(): value for name, value in settings.items()}
    arguments = case.data["arguments"]
    typed_kwargs = keyword_arguments(arguments, SCHEMAS[case.tool])
    if path.endswith("typed") and typed_kwargs is None:
        return None
    calls = case.data.get("callsBefore", 0) + 1
    method = method_name(case.tool)
    before = case.data.get("before", [])
    outcome: tuple[bool, Any] | None = None
    caller = case.data.get("caller")
    if path.startswith("sync"):
        local = toolpack.Toolpack(**kwargs)
        for setup in before:
            acting_for(local, setup.get("caller")).call(setup["tool"], setup["arguments"])
        client = acting_for(local, caller)
        for _ in range(calls):
            if path == "sync-typed":
                outcome = typed_outcome(lambda: getattr(client, method)(**typed_kwargs))
            else:
                outcome = mcp_outcome(client.call(case.tool, arguments))
        return outcome

    async def go() -> tuple[bool, Any] | None:
        local = toolpack.AsyncToolpack(**kwargs)
        result = None
        for setup in before:
            await acting_for(local, setup.get("caller")).call(setup["tool"], setup["arguments"])
        client = acting_for(local, caller)
        for _ in range(calls):
            if path == "async-typed":
                result = await async_typed_outcome(lambda: getattr(client, method)(**typed_kwargs))
            else:
                result = mcp_outcome(await client.call(case.tool, arguments))
        return result

    return asyncio.run(go())


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_vector(case: Case, path: str, fake: FakeUpstream) -> None:
    with tempfile.TemporaryDirectory() as temp_dir:
        settings = case.settings(fake.base_url, temp_dir)
        case = case.with_paths(temp_dir)
        fake.reset(case.data.get("upstream", []))
        outcome = run(case, path, settings)
    if outcome is None:
        pytest.skip("a typed call cannot express these arguments (not an object, unknown or missing fields)")
    is_error, body = outcome
    problems = fake.judge(case.id, is_error, body)
    assert problems is None, problems


def test_every_vector_file_was_loaded() -> None:
    tools = {c.tool for c in CASES}
    assert {"stationToilets", "planJourney", "plan_trip", "save_user_variable"} <= tools
    assert tools <= set(toolpack.TOOL_NAMES)
