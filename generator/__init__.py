"""runsite: run or import LLM evaluation suites, archive every run, publish a redacted site."""

import os
from typing import TYPE_CHECKING, Any

# GitPython refuses to be imported when it finds no git to run; runsite says so itself, in one
# line, when a command needs git (generator.archive.head), and the others work without it.
os.environ.setdefault("GIT_PYTHON_REFRESH", "quiet")

__all__ = ["__version__", "record_call"]

if TYPE_CHECKING:
    from generator.suite.collect import record_call

    __version__: str


def __getattr__(name: str) -> Any:
    """``__version__`` and ``record_call``, found when asked for: every command imports this
    package, and few need either (looking up the version and importing the suite's collector
    were 5 % of the imports of ``runsite build``)."""
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("runsite")
        except PackageNotFoundError:  # running from a source tree that was never installed
            return "0+unknown"
    if name == "record_call":
        from generator.suite.collect import record_call

        return record_call
    raise AttributeError(f"module 'generator' has no attribute {name!r}")
