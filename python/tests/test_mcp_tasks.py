"""``build_docs`` as an MCP task (the ``io.modelcontextprotocol/tasks`` extension) with the
official Python MCP client (PyPI ``mcp``), over stdio and stateless HTTP: a client
extension declares the tasks extension and claims the ``task`` result of ``tools/call`` on
protocol 2026-07-28; it polls ``tasks/get`` until the build is done and returns its result,
or cancels it with ``tasks/cancel``. A client without the extension gets the build's result
as a plain call. The test command sets ``TOOLPACK_MCP_BIN`` (and puts d2 on ``PATH``)."""

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


@pytest.fixture(params=["stdio", "http"])
def server(request: pytest.FixtureRequest, project: pathlib.Path) -> Iterator[Any]:
    """toolpack-mcp serving the loko tools, over stdio or stateless HTTP."""
    env = {"LOKO_ALLOWED_ROOTS": str(project.parent)}
    if request.param == "http":
        yield from start("--stateless", "--toolsets", "loko", everything=True, env=env)
        return
    from mcp import StdioServerParameters

    assert MCP_BIN
    path = {"PATH": os.environ.get("PATH", "")}
    yield StdioServerParameters(command=MCP_BIN, args=["serve", "--toolsets", "loko"], env=path | env)


@pytest.fixture
def tasks_get_names_its_task(monkeypatch: pytest.MonkeyPatch) -> None:
    """On 2026-07-28 a tasks/* request carries its taskId in the Mcp-Name header (rmcp
    requires it over HTTP); mcp 2.3.0 mirrors only tools/call, prompts/get and
    resources/read."""
    from types import MappingProxyType

    import mcp.client.session as session

    with_tasks = dict(session.NAME_BEARING_METHODS) | {"tasks/get": "taskId", "tasks/cancel": "taskId"}
    monkeypatch.setattr(session, "NAME_BEARING_METHODS", MappingProxyType(with_tasks))


class Cancelled(Exception):
    """The task ended cancelled."""


def tasks_extension(statuses: list[str], cancel: bool = False) -> Any:
    """A client extension for SEP-2663 tasks: it resolves a ``task`` result by polling
    ``tasks/get``, keeping every status message it sees; with ``cancel``, it first sends
    ``tasks/cancel`` and raises :class:`Cancelled` when the task says it is."""
    from mcp import types
    from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
    from pydantic import ConfigDict

    class TaskCreated(types.Result):
        model_config = ConfigDict(extra="allow")
        result_type: Literal["task"] = "task"

    class TaskState(types.Result):
        model_config = ConfigDict(extra="allow")

    def request(method: str, task_id: str) -> Any:
        return types.Request[dict[str, Any], str](method=method, params={"taskId": task_id})

    async def resolve(created: TaskCreated, ctx: ClaimContext) -> types.CallToolResult:
        task_id = (created.model_extra or {})["taskId"]
        if cancel:
            await ctx.session.send_request(request("tasks/cancel", task_id), TaskState)
        for _ in range(1200):
            state = await ctx.session.send_request(request("tasks/get", task_id), TaskState)
            extra = state.model_extra or {}
            statuses.append(f"{extra.get('status')}: {extra.get('statusMessage')}")
            if extra.get("status") == "completed":
                return types.CallToolResult.model_validate(extra["result"])
            if extra.get("status") == "cancelled":
                raise Cancelled()
            assert extra.get("status") == "working", extra
            await asyncio.sleep(0.025)
        raise AssertionError("the task never completed")

    class Tasks(ClientExtension):
        identifier = "io.modelcontextprotocol/tasks"

        def claims(self) -> Any:
            return (ResultClaim(result_type="task", model=TaskCreated, resolve=resolve),)

    return Tasks()


async def build(server: Any, project: pathlib.Path, extensions: list[Any]) -> dict[str, Any]:
    from mcp import Client

    arguments = {"project_path": str(project), "format": "html", "incremental": False}
    async with Client(server, mode="2026-07-28", extensions=extensions) as client:
        result = await client.call_tool("build_docs", arguments)
        assert result.structured_content is not None
        return dict(result.structured_content)


@pytest.mark.usefixtures("tasks_get_names_its_task")
def test_a_client_with_the_tasks_extension_gets_the_build_as_a_task(server: Any, project: pathlib.Path) -> None:
    statuses: list[str] = []
    body = asyncio.run(build(server, project, [tasks_extension(statuses)]))
    assert body["success"] is True, body
    assert statuses and statuses[-1].startswith("completed"), statuses
    # The build's progress reports are the task's status message.
    assert any(s.startswith("working: page ") or s.startswith("completed: page ") for s in statuses), statuses
    assert (project / "dist/index.html").exists()


@pytest.mark.usefixtures("tasks_get_names_its_task")
def test_tasks_cancel_stops_the_build(server: Any, project: pathlib.Path) -> None:
    statuses: list[str] = []
    # The client's task group hands the extension's error on in an exception group.
    with pytest.raises(BaseExceptionGroup) as raised:
        asyncio.run(build(server, project, [tasks_extension(statuses, cancel=True)]))
    assert raised.group_contains(Cancelled), raised.value
    assert statuses[-1].startswith("cancelled"), statuses


def test_a_client_without_it_gets_the_build_as_a_call(server: Any, project: pathlib.Path) -> None:
    body = asyncio.run(build(server, project, []))
    assert body["success"] is True, body
