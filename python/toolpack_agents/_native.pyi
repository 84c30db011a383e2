"""Type stub of the native module (the PyO3 layer). Use ``toolpack.Toolpack`` or
``toolpack.AsyncToolpack`` instead of this module."""

from collections.abc import Awaitable, Callable

__version__: str

CallOutcome = tuple[str | None, str | None, str]

class NativeToolpack:
    def __init__(self, settings: dict[str, str], from_env: bool) -> None: ...
    def for_caller(self, id: str) -> NativeToolpack: ...
    def reporting_to(self, callback: Callable[[str], object]) -> NativeToolpack: ...
    @property
    def caller_id(self) -> str: ...
    def call(self, name: str, arguments: str, as_mcp: bool) -> CallOutcome | Awaitable[CallOutcome]:
        """The outcome when the call finished on its first poll, else an awaitable of it."""
    def call_blocking(self, name: str, arguments: str, as_mcp: bool) -> CallOutcome: ...

def tools_json() -> str: ...
def close() -> None:
    """Stops toolpack's threads from entering Python and waits for those inside; the
    package runs it at interpreter exit (``atexit``)."""
