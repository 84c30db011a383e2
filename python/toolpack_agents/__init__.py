"""toolpack: agent tools for London transport (TfL), Finnish public transport
(Digitransit) and C4 architecture docs (loko), from one Rust core.

    from toolpack_agents import Toolpack, AsyncToolpack

    tp = Toolpack.from_env()
    tp.station_toilets(station_name="King's Cross")

Typed methods return the contract's JSON as plain dicts (typed with ``TypedDict``s)
and raise a ``ToolpackError`` subclass on a contract error; ``call(name, args)``
returns the MCP result JSON and never raises for a contract error.
"""

from ._client import AsyncToolpack, Choice, OnChoice, OnReport, Question, Report, ToolInfo, Toolpack
from . import _errors
from ._errors import *  # noqa: F403 (one class per error kind, generated)
from ._generated import TOOL_NAMES
from ._native import __version__

__all__ = [
    "AsyncToolpack",
    "Choice",
    "OnChoice",
    "OnReport",
    "Question",
    "Report",
    "TOOL_NAMES",
    "ToolInfo",
    "Toolpack",
    "__version__",
]
__all__ += _errors.__all__
