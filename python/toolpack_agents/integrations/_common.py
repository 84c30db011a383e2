"""What every adapter shares: choosing tools from the catalog, calling one so that its
result is the contract JSON, and the clients' two kinds."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from .._client import AsyncToolpack, OnReport, Report, ToolInfo, Toolpack

Client = AsyncToolpack | Toolpack
"""Either client: the adapters call async where the framework awaits, blocking where it
does not, on the same toolpack and caller."""


def selected_tools(tools: Iterable[str] | None) -> list[ToolInfo]:
    """The catalog's tools named in ``tools`` (all of them for ``None``), in catalog
    order. An unknown name raises ``ValueError`` naming it and the known ones."""
    catalog = Toolpack.tools()
    if tools is None:
        return catalog
    wanted = list(tools)
    known = {tool["name"] for tool in catalog}
    unknown = [name for name in wanted if name not in known]
    if unknown:
        raise ValueError(f"unknown tools {unknown}; the catalog has {sorted(known)}")
    return [tool for tool in catalog if tool["name"] in wanted]


def async_client(client: Client) -> AsyncToolpack:
    """The asyncio client on ``client``'s toolpack, caller and reports."""
    return client if isinstance(client, AsyncToolpack) else client._twin(AsyncToolpack)


def sync_client(client: Client) -> Toolpack:
    """The blocking client on ``client``'s toolpack, caller and reports."""
    return client if isinstance(client, Toolpack) else client._twin(Toolpack)


def contract_json(result: dict[str, Any]) -> dict[str, Any]:
    """The contract JSON of an MCP call result: the success body, or the contract's error
    JSON for a contract error (what the model should see either way)."""
    body: dict[str, Any] = result["structuredContent"]
    return body


async def call_async(
    client: Client,
    name: str,
    arguments: dict[str, Any],
    on_report: Callable[[Report], Awaitable[None]] | None = None,
) -> dict[str, Any]:
    """Calls ``name`` and returns its contract JSON; each report of the call is awaited
    through ``on_report`` while the call runs, and all of them before this returns."""
    tool_client = async_client(client)
    if on_report is None:
        return contract_json(await tool_client.call(name, arguments))
    queue: asyncio.Queue[Report] = asyncio.Queue()
    call = asyncio.ensure_future(tool_client.call(name, arguments, on_report=queue.put_nowait))
    while not call.done():
        report = asyncio.ensure_future(queue.get())
        await asyncio.wait({call, report}, return_when=asyncio.FIRST_COMPLETED)
        if report.done():
            await on_report(report.result())
        else:
            report.cancel()
    while not queue.empty():
        await on_report(queue.get_nowait())
    return contract_json(call.result())


def call_sync(
    client: Client, name: str, arguments: dict[str, Any], on_report: OnReport | None = None
) -> dict[str, Any]:
    """Calls ``name``, blocking, and returns its contract JSON; reports go to
    ``on_report`` (on the thread that reports)."""
    return contract_json(sync_client(client).call(name, arguments, on_report=on_report))


def json_text(body: dict[str, Any]) -> str:
    """``body`` as compact JSON text, for frameworks whose tool results are strings."""
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"))
