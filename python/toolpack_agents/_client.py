"""The clients: ``AsyncToolpack`` (asyncio) and ``Toolpack`` (blocking), both thin
layers over the native core. Tool methods come from ``_generated.py``."""

from __future__ import annotations

import asyncio
import atexit
import json
import threading
from collections.abc import Awaitable, Callable
from typing import Any, Literal, Self, TypedDict, TypeVar

from . import _native
from ._native import NativeToolpack
from ._errors import error_for
from ._generated import AsyncTools, SyncTools


class ToolInfo(TypedDict):
    """One catalog tool, with MCP field names. ``inputSchema`` has no ``$ref``;
    ``strictInputSchema`` is its OpenAI strict-mode form (``None`` when the input has
    none) and ``geminiInputSchema`` its Gemini function-declaration form."""

    name: str
    title: str
    description: str
    toolset: str
    inputSchema: dict[str, Any]
    strictInputSchema: dict[str, Any] | None
    geminiInputSchema: dict[str, Any]
    outputSchema: dict[str, Any]
    annotations: dict[str, Any]


class Report(TypedDict, total=False):
    """What a running tool reports, as MCP notifications carry it: progress
    (``type="progress"``, ``progress``, ``total``, ``message``) or a log event
    (``type="log"``, ``level``, ``logger``, ``message``)."""

    type: Literal["progress", "log"]
    progress: float
    total: float | None
    level: str
    logger: str
    message: str | None


OnReport = Callable[[Report], object]
"""A callback that receives each report of a call (see ``Report``)."""


class Choice(TypedDict):
    """One place a person may pick: ``value`` is what the tool goes on with (a stop id, a
    journey planner token), ``title`` what the person reads ("Edgware Road — Bakerloo")."""

    value: str
    title: str


class Question(TypedDict):
    """Which of several places an argument means: ``field`` is the argument (``from``,
    ``to``, ``stop``, ``stationName``, ``station``), ``message`` the question to show."""

    field: str
    message: str
    choices: list[Choice]


OnChoice = Callable[[Question], str | None]
"""A callback that asks a person (see ``Question``): it returns the picked choice's
``value``, or ``None`` to answer as without it (``DISAMBIGUATION_REQUIRED``)."""


def _asking(native: NativeToolpack, on_choice: OnChoice | None) -> NativeToolpack:
    """``native`` asking ``on_choice`` when a name means several places."""
    if on_choice is None:
        return native
    return native.asking(lambda text: on_choice(json.loads(text)))

# Calls still running at exit must not enter the finalizing interpreter (see `close`).
atexit.register(_native.close)

_Kind = TypeVar("_Kind", bound="_Client")


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
    _on_report: OnReport | None = None

    def __init__(
        self, *, on_report: OnReport | None = None, on_choice: OnChoice | None = None, **settings: Setting
    ) -> None:
        """A client configured only by ``settings``: the core's setting names in lower
        case (``tfl_api_key``, ``tfl_api_base_url``, ``toolpack_upstream_timeout_ms``, …),
        with the same meaning as the environment variables. The environment is not read.
        An unknown name or a bad value raises ``ValueError`` naming it. ``on_report``
        receives every call's progress and log reports (see ``reporting_to``).

        ``on_choice`` is asked when a place name means several places (``planJourney``'s
        ``from`` and ``to``, ``arrivals``' ``stop``, ``stationToilets``, ``liftOutages``):
        it gets a ``Question`` and returns the picked ``value``, and the call goes on with
        it; ``None`` (or an exception, sent to ``sys.unraisablehook``) gives the answer
        without it, ``DISAMBIGUATION_REQUIRED`` with the candidates. It runs on a toolpack
        worker thread, never on the event loop, so it may wait for a person."""
        self._native = _asking(_native.NativeToolpack(_settings(settings), False), on_choice)
        self._on_report = on_report

    @classmethod
    def from_env(
        cls, *, on_report: OnReport | None = None, on_choice: OnChoice | None = None, **overrides: Setting
    ) -> Self:
        """A client configured from the process environment (``TFL_API_KEY``, …), with
        ``overrides`` (lower-case setting names) applied on top."""
        native = _asking(_native.NativeToolpack(_settings(overrides), True), on_choice)
        return cls._made(native, on_report)

    @classmethod
    def _made(cls, native: NativeToolpack, on_report: OnReport | None) -> Self:
        """A client of this kind over ``native``, reporting to ``on_report``: the one place
        a client is made without ``__init__`` (another handle on the same toolpack)."""
        client = cls.__new__(cls)
        client._native = native
        client._on_report = on_report
        return client

    def reporting_to(self, on_report: OnReport) -> Self:
        """A client of the same kind, on the same toolpack and caller, whose calls hand
        their progress and log reports (the ones MCP sends as notifications) to
        ``on_report``, one ``Report`` dict each, in order. The asyncio client calls it on
        the event loop; the blocking client on the thread that reports (the caller's, or a
        toolpack worker). An exception in the callback never fails the call: it goes to
        ``sys.unraisablehook``."""
        return type(self)._made(self._native, on_report)

    def _twin(self, kind: type[_Kind]) -> _Kind:
        """A client of ``kind`` (asyncio or blocking) on the same toolpack, caller and
        reports: what the framework adapters use where a framework wants the other kind."""
        return kind._made(self._native, self._on_report)

    def _handle(self, on_report: OnReport | None) -> NativeToolpack:
        """The native handle for one call: reporting to ``on_report``, else to the
        client's callback, else nowhere."""
        callback = on_report or self._on_report
        return self._native if callback is None else self._reporting(self._native, callback)

    @staticmethod
    def _reporting(native: NativeToolpack, on_report: OnReport) -> NativeToolpack:
        return native.reporting_to(lambda text: on_report(json.loads(text)))

    def for_caller(self, caller_id: str) -> Self:
        """A client of the same kind, on the same toolpack (state, caches, limits), that acts
        for ``caller_id``: one of the application's own users. Each caller has its own saved
        places and its own rate-limit budgets; a client made without ``for_caller`` acts for
        the local caller. ``caller_id`` is 1..512 bytes without control characters, else
        ``ValueError``."""
        return type(self)._made(self._native.for_caller(caller_id), self._on_report)

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

    @staticmethod
    def resources() -> list[dict[str, Any]]:
        """The MCP Apps views (``ui://toolpack/...``) as MCP ``resources/list`` entries:
        ``uri``, ``name``, ``title``, ``description``, ``mimeType`` and ``_meta.ui`` (the
        CSP), for a host that serves toolpack's tools in process."""
        resources: list[dict[str, Any]] = json.loads(_native.resources_json())
        return resources

    @staticmethod
    def read_resource(uri: str) -> dict[str, Any]:
        """The MCP ``resources/read`` result of the view at ``uri``: ``contents`` with one
        item holding the HTML page. Raises ``LookupError`` for an unknown URI."""
        text = _native.read_resource_json(uri)
        if text is None:
            raise LookupError(f"no resource '{uri}'")
        result: dict[str, Any] = json.loads(text)
        return result


class AsyncToolpack(AsyncTools, _Client):
    """The asyncio client: one awaitable method per tool, plus ``call`` and ``tools``.

    Rust does the work on its own threads; the event loop is never blocked.
    """

    async def call(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        on_report: OnReport | None = None,
    ) -> dict[str, Any]:
        """Calls tool ``name`` and returns the MCP ``CallToolResult`` JSON exactly as an
        MCP client gets it (``content``, ``structuredContent``, ``isError``). Contract
        errors are returned, not raised; an unknown tool raises ``LookupError``.
        ``on_report`` receives this call's reports (instead of the client's)."""
        outcome = await _finished(self._handle(on_report).call(name, json.dumps(arguments), True))
        result: dict[str, Any] = json.loads(outcome[2])
        return result

    async def _typed(self, name: str, arguments: dict[str, Any]) -> Any:
        outcome = await _finished(self._handle(None).call(name, json.dumps(arguments), False))
        return _decode(name, outcome)

    @staticmethod
    def _reporting(native: NativeToolpack, on_report: OnReport) -> NativeToolpack:
        """Reports reach ``on_report`` on the event loop that made the call, in order and
        before the call's result (a report from another thread is queued on the loop ahead
        of the result)."""
        loop = asyncio.get_running_loop()
        loop_thread = threading.get_ident()

        def deliver(text: str) -> None:
            report: Report = json.loads(text)
            if threading.get_ident() == loop_thread:
                on_report(report)
                return
            try:
                loop.call_soon_threadsafe(on_report, report)
            except RuntimeError:  # the loop has closed: nobody is listening any more
                pass

        return native.reporting_to(deliver)


class Toolpack(SyncTools, _Client):
    """The blocking client: one method per tool, plus ``call`` and ``tools``.

    The GIL is released while Rust works, so other Python threads keep running.
    """

    def call(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        on_report: OnReport | None = None,
    ) -> dict[str, Any]:
        """Calls tool ``name`` and returns the MCP ``CallToolResult`` JSON exactly as an
        MCP client gets it (``content``, ``structuredContent``, ``isError``). Contract
        errors are returned, not raised; an unknown tool raises ``LookupError``.
        ``on_report`` receives this call's reports (instead of the client's)."""
        outcome = self._handle(on_report).call_blocking(name, json.dumps(arguments), True)
        result: dict[str, Any] = json.loads(outcome[2])
        return result

    def _typed(self, name: str, arguments: dict[str, Any]) -> Any:
        return _decode(name, self._handle(None).call_blocking(name, json.dumps(arguments), False))
