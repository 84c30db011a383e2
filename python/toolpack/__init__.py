"""toolpack: agent tools for London transport (TfL), Finnish public transport
(Digitransit) and C4 architecture docs (loko), from one Rust core.

    from toolpack import Toolpack, AsyncToolpack

    tp = Toolpack.from_env()
    tp.station_toilets(station_name="King's Cross")

Typed methods return the contract's JSON as plain dicts (typed with ``TypedDict``s)
and raise a ``ToolpackError`` subclass on a contract error; ``call(name, args)``
returns the MCP result JSON and never raises for a contract error.
"""

from ._client import AsyncToolpack, ToolInfo, Toolpack
from ._errors import (
    AlreadyExistsError,
    DataNotAvailableError,
    PermissionDeniedError,
    DisambiguationRequiredError,
    InternalError,
    NotFoundError,
    RateLimitedError,
    ToolpackError,
    UpstreamError,
    UpstreamTimeoutError,
    ValidationError,
)
from ._generated import TOOL_NAMES
from ._native import __version__

__all__ = [
    "AsyncToolpack",
    "AlreadyExistsError",
    "DataNotAvailableError",
    "PermissionDeniedError",
    "DisambiguationRequiredError",
    "InternalError",
    "NotFoundError",
    "RateLimitedError",
    "TOOL_NAMES",
    "ToolInfo",
    "Toolpack",
    "ToolpackError",
    "UpstreamError",
    "UpstreamTimeoutError",
    "ValidationError",
    "__version__",
]
