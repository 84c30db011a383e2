"""LangChain tools from the toolpack catalog: ``langchain_tools(client, tools=None)``.

Each tool is a ``BaseTool`` with the tool's real (inlined) argument schema, working with
``invoke`` and ``ainvoke`` on either client. A contract error is the tool's result (its
error JSON, as the ``ToolMessage`` content); a failure of the call itself raises
``ToolException`` (set ``handle_tool_error`` on a tool to hand it to the model instead).
Progress and log reports are dispatched as LangChain custom events named
``toolpack_report`` (``on_custom_event`` in callback handlers, ``astream_events``), with
the report's fields plus ``tool``.

Requires ``langchain-core`` (``pip install toolpack-agents[langchain]``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

try:
    from langchain_core.callbacks import (
        AsyncCallbackManagerForToolRun,
        CallbackManagerForToolRun,
        adispatch_custom_event,
        dispatch_custom_event,
    )
    from langchain_core.tools import BaseTool, ToolException
except ImportError as missing:  # pragma: no cover - depends on the environment
    raise ImportError(
        "toolpack_agents.integrations.langchain needs langchain-core: pip install 'toolpack-agents[langchain]'"
    ) from missing

from .._client import Report
from ._common import Client, call_async, call_sync, selected_tools

REPORT_EVENT = "toolpack_report"
"""The name of the custom events that carry a tool's progress and log reports."""


class ToolpackTool(BaseTool):
    """One toolpack tool as a LangChain tool."""

    client: Any
    """The toolpack client (``AsyncToolpack`` or ``Toolpack``) the tool calls."""

    def _run(self, run_manager: CallbackManagerForToolRun | None = None, **arguments: Any) -> Any:
        def report(item: Report) -> None:
            if run_manager is not None:
                data = {**item, "tool": self.name}
                dispatch_custom_event(REPORT_EVENT, data, config={"callbacks": run_manager.get_child()})

        try:
            return call_sync(self.client, self.name, arguments, on_report=report)
        except Exception as error:
            raise ToolException(f"{self.name}: {error}") from error

    async def _arun(
        self, run_manager: AsyncCallbackManagerForToolRun | None = None, **arguments: Any
    ) -> Any:
        async def report(item: Report) -> None:
            if run_manager is not None:
                data = {**item, "tool": self.name}
                await adispatch_custom_event(REPORT_EVENT, data, config={"callbacks": run_manager.get_child()})

        try:
            return await call_async(self.client, self.name, arguments, on_report=report)
        except Exception as error:
            raise ToolException(f"{self.name}: {error}") from error


def langchain_tools(client: Client, tools: Iterable[str] | None = None) -> list[BaseTool]:
    """LangChain tools for the catalog tools named in ``tools`` (every tool for ``None``),
    calling ``client`` (its caller, its reports)."""
    return [
        ToolpackTool(
            name=tool["name"],
            description=tool["description"],
            args_schema=tool["inputSchema"],
            client=client,
        )
        for tool in selected_tools(tools)
    ]
