"""Exceptions raised by the typed tool methods: one base class, one subclass per kind
of contract error. Every exception carries the contract's exact ``code`` and the
contract's error JSON as ``payload``.

The kind of each code comes from the Rust core (``toolpack::ErrorKind``), so the
same code is the same exception class in every tool family and every language.
"""

from __future__ import annotations

from typing import Any


class ToolpackError(Exception):
    """A tool call that failed with a contract error.

    Attributes:
        tool: the tool's catalog name, e.g. ``"planJourney"``.
        code: the contract's exact error code, e.g. ``"UPSTREAM_TIMEOUT"``.
        payload: the contract's error JSON (the same body an MCP client receives).
    """

    kind = "other"

    def __init__(self, tool: str, code: str, payload: dict[str, Any]) -> None:
        self.tool = tool
        self.code = code
        self.payload = payload
        super().__init__(f"{tool}: {code}: {_message_of(payload)}")


class ValidationError(ToolpackError):
    """The arguments are invalid (``VALIDATION_ERROR``, ``validation-error``)."""

    kind = "validation"


class NotFoundError(ToolpackError):
    """Nothing matches the input (``STATION_NOT_FOUND``, ``geocode-no-results``, …)."""

    kind = "not_found"


class DisambiguationRequiredError(ToolpackError):
    """The input matches several things; ``payload`` lists the candidates."""

    kind = "disambiguation_required"


class RateLimitedError(ToolpackError):
    """The local rate limit refused the call (``RATE_LIMIT_EXCEEDED``, ``rate-limited``)."""

    kind = "rate_limited"


class UpstreamTimeoutError(ToolpackError):
    """An upstream API did not answer in time (``UPSTREAM_TIMEOUT``)."""

    kind = "upstream_timeout"


class UpstreamError(ToolpackError):
    """An upstream API failed or could not be reached (``UPSTREAM_ERROR``, ``network-error``)."""

    kind = "upstream"


class DataNotAvailableError(ToolpackError):
    """Local data could not be read (``DATA_NOT_AVAILABLE``)."""

    kind = "data_not_available"


class AlreadyExistsError(ToolpackError):
    """The thing to create exists already (``ALREADY_EXISTS``); nothing was overwritten."""

    kind = "already_exists"


class PermissionDeniedError(ToolpackError):
    """A path outside what the tool may touch, or refused by the file system (``PERMISSION_DENIED``)."""

    kind = "permission_denied"


class InternalError(ToolpackError):
    """A bug inside toolpack (``INTERNAL_ERROR``)."""

    kind = "internal"


_BY_KIND: dict[str, type[ToolpackError]] = {
    cls.kind: cls
    for cls in (
        ValidationError,
        NotFoundError,
        DisambiguationRequiredError,
        RateLimitedError,
        UpstreamTimeoutError,
        UpstreamError,
        DataNotAvailableError,
        AlreadyExistsError,
        PermissionDeniedError,
        InternalError,
    )
}


def error_for(tool: str, code: str, kind: str | None, payload: dict[str, Any]) -> ToolpackError:
    """The exception for a failed call: the subclass of ``kind`` (the base class for others)."""
    return _BY_KIND.get(kind or "", ToolpackError)(tool, code, payload)


def _message_of(payload: dict[str, Any]) -> str:
    message = payload.get("message")
    if isinstance(message, str):
        return message
    error = payload.get("error")
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        return str(error["message"])
    return "the tool reported an error"
