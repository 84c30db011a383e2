#!/usr/bin/env python3
"""Added cost per tool call of each framework adapter over a bare ``call()``, for
``stationToilets`` (bundled data: the call itself is local, so the adapters' own work
shows). One run, interleaved rounds: each round times a bare ``AsyncToolpack.call``, the
LangChain tool's ``ainvoke``, the OpenAI Agents ``FunctionTool.on_invoke_tool`` and the
pydantic-ai toolset's ``call_tool``, a batch of calls each; the report gives each one's
median per call and its median added cost over the bare call of the same round.

A framework's own tool machinery costs the same whoever writes the tool, so each
framework also runs a hand-written tool whose body is the bare call (the least glue a
user could write): the adapter's own cost is its time minus that floor.

    target/py-venv/bin/python python/benches/adapters.py      # after `cargo xtask test python`
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

from agents import FunctionTool
from agents.tool_context import ToolContext
from langchain_core.tools import StructuredTool
from pydantic_ai import RunContext
from pydantic_ai.models.test import TestModel
from pydantic_ai.usage import RunUsage

import toolpack_agents as toolpack
from toolpack_agents.integrations.langchain import langchain_tools
from toolpack_agents.integrations.openai_agents import function_tools
from toolpack_agents.integrations.pydantic_ai import toolset

ARGUMENTS = {"stationName": "Kings Cross"}
ROUNDS = 300
BATCH = 50


async def main() -> None:
    client = toolpack.AsyncToolpack()
    lc_tool = langchain_tools(client, ["stationToilets"])[0]
    oa_tool = function_tools(client, ["stationToilets"])[0]
    pai_toolset = toolset(client, ["stationToilets"])
    context = RunContext(deps=None, model=TestModel(), usage=RunUsage())
    pai_tool = (await pai_toolset.get_tools(context))["stationToilets"]
    text = json.dumps(ARGUMENTS)
    tool_context: Any = ToolContext(context=None, tool_name="stationToilets", tool_call_id="c", tool_arguments=text)

    async def bare(**arguments: Any) -> Any:
        return (await client.call("stationToilets", arguments))["structuredContent"]

    async def bare_text(ctx: Any, text: str) -> str:
        return json.dumps((await client.call("stationToilets", json.loads(text)))["structuredContent"])

    schema = toolpack.Toolpack.tools()[1]["inputSchema"]
    lc_floor = StructuredTool(name="stationToilets", description="d", args_schema=schema, coroutine=bare)
    oa_floor = FunctionTool(
        name="stationToilets", description="d", params_json_schema=schema, on_invoke_tool=bare_text, strict_json_schema=False
    )
    contenders: dict[str, Callable[[], Awaitable[Any]]] = {
        "bare call()": lambda: client.call("stationToilets", ARGUMENTS),
        "langchain floor (hand-written)": lambda: lc_floor.ainvoke(ARGUMENTS),
        "openai-agents floor (hand-written)": lambda: oa_floor.on_invoke_tool(tool_context, text),
        "langchain ainvoke": lambda: lc_tool.ainvoke(ARGUMENTS),
        "openai-agents on_invoke_tool": lambda: oa_tool.on_invoke_tool(tool_context, text),  # type: ignore[union-attr]
        "pydantic-ai call_tool": lambda: pai_toolset.call_tool("stationToilets", dict(ARGUMENTS), context, pai_tool),
    }
    per_call: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(ROUNDS):
        for name, run in contenders.items():
            start = time.perf_counter()
            for _ in range(BATCH):
                await run()
            per_call[name].append((time.perf_counter() - start) / BATCH * 1e6)
    bare_times = per_call["bare call()"]
    floors = {"langchain ainvoke": "langchain floor (hand-written)",
              "openai-agents on_invoke_tool": "openai-agents floor (hand-written)",
              "pydantic-ai call_tool": "bare call()"}
    print(f"{'contender':36} {'µs/call':>9} {'added over bare':>16} {'adapter over floor':>19}")
    for name, samples in per_call.items():
        added = statistics.median(s - b for s, b in zip(samples, bare_times, strict=True))
        floor = per_call[floors[name]] if name in floors else None
        own = "" if floor is None else f"{statistics.median(s - f for s, f in zip(samples, floor, strict=True)):19.1f}"
        print(f"{name:36} {statistics.median(samples):9.1f} {added:16.1f} {own}")


if __name__ == "__main__":
    asyncio.run(main())
