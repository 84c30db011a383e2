"""OpenAI Agents SDK tools from the toolpack catalog: ``function_tools(client, tools=None)``.

Each tool is a ``FunctionTool``. Where the tool's input allows it, the tool is strict
(``strict_json_schema=True``) with toolpack's strict schema: every property required,
the optional ones nullable (toolpack reads ``null`` as "not given"). A contract error is
the tool's result (its error JSON text); a failure of the call itself is raised, which
ends the run with the SDK's error. The SDK has no channel for a function tool's progress:
give the client an ``on_report`` callback to see it.

Requires ``openai-agents`` (``pip install toolpack-agents[openai-agents]``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

try:
    from agents import FunctionTool, Tool
    from agents.tool_context import ToolContext
except ImportError as missing:  # pragma: no cover - depends on the environment
    raise ImportError(
        "toolpack_agents.integrations.openai_agents needs openai-agents: pip install 'toolpack-agents[openai-agents]'"
    ) from missing

from .._client import ToolInfo
from ._common import Client, call_async, json_text, selected_tools


def _function_tool(client: Client, tool: ToolInfo) -> FunctionTool:
    name = tool["name"]
    strict = tool["strictInputSchema"]

    async def invoke(context: ToolContext[Any], arguments: str) -> str:
        parsed = json.loads(arguments) if arguments else {}
        return json_text(await call_async(client, name, parsed))

    return FunctionTool(
        name=name,
        description=tool["description"],
        params_json_schema=strict if strict is not None else tool["inputSchema"],
        on_invoke_tool=invoke,
        strict_json_schema=strict is not None,
    )


def function_tools(client: Client, tools: Iterable[str] | None = None) -> list[Tool]:
    """``FunctionTool``s for the catalog tools named in ``tools`` (every tool for ``None``),
    calling ``client`` (its caller, its reports)."""
    return [_function_tool(client, tool) for tool in selected_tools(tools)]
