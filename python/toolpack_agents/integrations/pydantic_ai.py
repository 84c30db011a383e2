"""A pydantic-ai toolset from the toolpack catalog: ``toolset(client, tools=None)``, for
``Agent(toolsets=[...])``.

The toolset gives each model the schema form it accepts: toolpack's strict schema (with
``strict=True``) to OpenAI models, the Gemini function-declaration form to Google models,
the plain inlined schema to the others. A contract error is the tool's return value (its
error JSON), so the model can act on it; a failure of the call itself is raised, which
ends the run. pydantic-ai has no channel for a tool's progress: give the client an
``on_report`` callback to see it.

Requires ``pydantic-ai-slim`` (``pip install toolpack-agents[pydantic-ai]``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

try:
    from pydantic_ai import RunContext, ToolDefinition
    from pydantic_ai.toolsets import AbstractToolset, ToolsetTool
    from pydantic_core import SchemaValidator, core_schema
except ImportError as missing:  # pragma: no cover - depends on the environment
    raise ImportError(
        "toolpack_agents.integrations.pydantic_ai needs pydantic-ai: pip install 'toolpack-agents[pydantic-ai]'"
    ) from missing

from .._client import ToolInfo
from ._common import Client, call_async, selected_tools

_ARGUMENTS = SchemaValidator(core_schema.dict_schema(core_schema.str_schema(), core_schema.any_schema()))
"""Arguments pass as a dict: toolpack checks them against the tool's schema itself and
answers the contract's validation error, which the model sees."""


def _definition(tool: ToolInfo, system: str) -> ToolDefinition:
    """The tool's definition in the schema form the model's provider accepts."""
    strict = tool["strictInputSchema"]
    if system.startswith("google"):
        return ToolDefinition(
            name=tool["name"], description=tool["description"], parameters_json_schema=tool["geminiInputSchema"]
        )
    if system == "openai" and strict is not None:
        return ToolDefinition(
            name=tool["name"], description=tool["description"], parameters_json_schema=strict, strict=True
        )
    return ToolDefinition(name=tool["name"], description=tool["description"], parameters_json_schema=tool["inputSchema"])


class ToolpackToolset(AbstractToolset[Any]):
    """Catalog tools as a pydantic-ai toolset."""

    def __init__(self, client: Client, tools: list[ToolInfo]) -> None:
        self._client = client
        self._tools = tools

    @property
    def id(self) -> str:
        return "toolpack"

    async def get_tools(self, ctx: RunContext[Any]) -> dict[str, ToolsetTool[Any]]:
        system = getattr(ctx.model, "system", "") or ""
        return {
            tool["name"]: ToolsetTool(
                toolset=self, tool_def=_definition(tool, system), max_retries=1, args_validator=_ARGUMENTS
            )
            for tool in self._tools
        }

    async def call_tool(
        self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any], tool: ToolsetTool[Any]
    ) -> Any:
        return await call_async(self._client, name, tool_args)


def toolset(client: Client, tools: Iterable[str] | None = None) -> ToolpackToolset:
    """A toolset of the catalog tools named in ``tools`` (every tool for ``None``),
    calling ``client`` (its caller, its reports)."""
    return ToolpackToolset(client, selected_tools(tools))
