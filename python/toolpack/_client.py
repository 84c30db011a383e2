"""The clients: ``AsyncToolpack`` (asyncio) and ``Toolpack`` (blocking), both thin
layers over the native core. Tool methods come from ``_generated.py``."""

from __future__ import annotations

import json
from collections.abc import Awaitable
from typing import Any, Self, TypedDict

from . import _native
from ._errors import error_for
from ._generated import AsyncTools, SyncTools


class ToolInfo(TypedDict):
    """One catalog tool, with MCP field names."""

    name: str
    title: str
    description: str
    toolset: str
    inputSchema: dict[str, Any]
    outputSchema: dict[str, Any]
    annotations: dict[str, Any]


Setting = str | int | float | None


def _settings(values: dict[str, Setting]) -> dict[str, str]:
    """Keyword settings (``tfl_api_key=...``) as the core's environment names
    (``TFL_API_KEY``); ``None`` leaves a setting at its default."""
    return {name.upper(): str(value) for name, value in values.items() if value is not None}


def _decode(tool: str, outcome: _native.CallOutcome) -> Any:
    code, kind, body = outcome
    payload = json.loads(body)
    if code is not None:
        raise error_for(tool, code, kind, payload)
    return payload


async def _finished(pending: _native.CallOutcome | Awaitable[_native.CallOutcome]) -> _native.CallOutcome:
    """The outcome of an async native call: local tools finish at once (a tuple), calls
    that wait on I/O give an awaitable."""
    return pending if isinstance(pending, tuple) else await pending


class _Client:
    _native: _native.NativeToolpack

    def __init__(self, **settings: Setting) -> None:
        """A client configured only by ``settings``: the core's setting names in lower
        case (``tfl_api_key``, ``tfl_api_base_url``, ``toolpack_upstream_timeout_ms``, …),
        with the same meaning as the environment variables. The environment is not read.
        An unknown name or a bad value raises ``ValueError`` naming it."""
        self._native = _native.NativeToolpack(_settings(settings), False)

    @classmethod
    def from_env(cls, **overrides: Setting) -> Self:
        """A client configured from the process environment (``TFL_API_KEY``, …), with
        ``overrides`` (lower-case setting names) applied on top."""
        client = cls.__new__(cls)
        client._native = _native.NativeToolpack(_settings(overrides), True)
        return client

    def for_caller(self, caller_id: str) -> Self:
        """A client of the same kind, on the same toolpack (state, caches, limits), that acts
        for ``caller_id``: one of the application's own users. Each caller has its own saved
        places and its own rate-limit budgets; a client made without ``for_caller`` acts for
        the local caller. ``caller_id`` is 1..512 bytes without control characters, else
        ``ValueError``."""
        client = type(self).__new__(type(self))
        client._native = self._native.for_caller(caller_id)
        return client

    @property
    def caller_id(self) -> str:
        """The id of the caller this client acts for (``"local"`` by default)."""
        return self._native.caller_id

    @staticmethod
    def tools() -> list[ToolInfo]:
        """Every tool: name, title, description, toolset, input and output JSON schema,
        and MCP annotations, for an agent framework's tool list."""
        tools: list[ToolInfo] = json.loads(_native.tools_json())
        return tools


class AsyncToolpack(AsyncTools, _Client):
    """The asyncio client: one awaitable method per tool, plus ``call`` and ``tools``.

    Rust does the work on its own threads; the event loop is never blocked.
    """

    async def call(self, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """Calls tool ``name`` and returns the MCP ``CallToolResult`` JSON exactly as an
        MCP client gets it (``content``, ``structuredContent``, ``isError``). Contract
        errors are returned, not raised; an unknown tool raises ``LookupError``."""
        outcome = await _finished(self._native.call(name, json.dumps(arguments), True))
        result: dict[str, Any] = json.loads(outcome[2])
        return result

    async def _typed(self, name: str, arguments: dict[str, Any]) -> Any:
        return _decode(name, await _finished(self._native.call(name, json.dumps(arguments), False)))


class Toolpack(SyncTools, _Client):
    """The blocking client: one method per tool, plus ``call`` and ``tools``.

    The GIL is released while Rust works, so other Python threads keep running.
    """

    def call(self, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """Calls tool ``name`` and returns the MCP ``CallToolResult`` JSON exactly as an
        MCP client gets it (``content``, ``structuredContent``, ``isError``). Contract
        errors are returned, not raised; an unknown tool raises ``LookupError``."""
        outcome = self._native.call_blocking(name, json.dumps(arguments), True)
        result: dict[str, Any] = json.loads(outcome[2])
        return result

    def _typed(self, name: str, arguments: dict[str, Any]) -> Any:
        return _decode(name, self._native.call_blocking(name, json.dumps(arguments), False))
