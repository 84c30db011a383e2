"""``build_docs`` as an MCP task (the ``io.modelcontextprotocol/tasks`` extension) with the
official Python MCP client (PyPI ``mcp``): a client extension declares the tasks
extension and claims the ``task`` result of ``tools/call`` on protocol 2026-07-28; it polls
``tasks/get`` until the build is done and returns its result. A client without the
extension gets the build's result as a plain call. The test command sets
``TOOLPACK_MCP_BIN`` (and puts d2 on ``PATH``)."""

from __future__ import annotations

import asyncio
import os
import pathlib
import shutil
from collections.abc import Iterator
from typing import Any, Literal

import pytest

from test_mcp_elicitation import start

MCP_BIN = os.environ.get("TOOLPACK_MCP_BIN")
pytestmark = pytest.mark.skipif(not MCP_BIN, reason="TOOLPACK_MCP_BIN is set by the test command")

TESTS = pathlib.Path(os.environ.get("TOOLPACK_TESTS_DIR", pathlib.Path(__file__).resolve().parents[2] / "tests"))


@pytest.fixture
def project(tmp_path: pathlib.Path) -> pathlib.Path:
    shutil.copytree(TESTS / "data/loko/v03-graph", tmp_path / "project")
    return tmp_path / "project"


@pytest.fixture
def stateless(project: pathlib.Path) -> Iterator[str]:
    yield from start("--stateless", "--toolsets", "loko", everything=True, env={"LOKO_ALLOWED_ROOTS": str(project.parent)})


def tasks_extension(statuses: list[str]) -> Any:
    """A client extension for SEP-2663 tasks: it resolves a ``task`` result by polling
    ``tasks/get``, keeping every status it sees."""
    from mcp import types
    from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
    from pydantic import ConfigDict

    class TaskCreated(types.Result):
        model_config = ConfigDict(extra="allow")
        result_type: Literal["task"] = "task"

    class TaskState(types.Result):
        model_config = ConfigDict(extra="allow")

    async def resolve(created: TaskCreated, ctx: ClaimContext) -> types.CallToolResult:
        task_id = (created.model_extra or {})["taskId"]
        for _ in range(600):
            request = types.Request[dict[str, Any], str](method="tasks/get", params={"taskId": task_id})
            state = await ctx.session.send_request(request, TaskState)
            extra = state.model_extra or {}
            statuses.append(str(extra.get("status")))
            if extra.get("status") == "completed":
                return types.CallToolResult.model_validate(extra["result"])
            assert extra.get("status") == "working", extra
            await asyncio.sleep(0.05)
        raise AssertionError("the task never completed")

    class Tasks(ClientExtension):
        identifier = "io.modelcontextprotocol/tasks"

        def claims(self) -> Any:
            return (ResultClaim(result_type="task", model=TaskCreated, resolve=resolve),)

    return Tasks()


async def build(url: str, project: pathlib.Path, extensions: list[Any]) -> dict[str, Any]:
    from mcp import Client

    arguments = {"project_path": str(project), "format": "html", "incremental": False}
    async with Client(url, mode="2026-07-28", extensions=extensions) as client:
        result = await client.call_tool("build_docs", arguments)
        assert result.structured_content is not None
        return dict(result.structured_content)


def test_a_client_with_the_tasks_extension_gets_the_build_as_a_task(
    stateless: str, project: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # On 2026-07-28 a tasks/* request carries its taskId in the Mcp-Name header (rmcp
    # requires it); mcp 2.3.0 mirrors only tools/call, prompts/get and resources/read.
    from types import MappingProxyType

    import mcp.client.session as session

    with_tasks = dict(session.NAME_BEARING_METHODS) | {"tasks/get": "taskId", "tasks/cancel": "taskId"}
    monkeypatch.setattr(session, "NAME_BEARING_METHODS", MappingProxyType(with_tasks))
    statuses: list[str] = []
    body = asyncio.run(build(stateless, project, [tasks_extension(statuses)]))
    assert body["success"] is True, body
    assert statuses and statuses[-1] == "completed", statuses
    assert (project / "dist/index.html").exists()


def test_a_client_without_it_gets_the_build_as_a_call(stateless: str, project: pathlib.Path) -> None:
    body = asyncio.run(build(stateless, project, []))
    assert body["success"] is True, body
