"""runsite: run or import LLM evaluation suites, archive every run, publish a redacted site."""

import os
from importlib.metadata import PackageNotFoundError, version

# GitPython refuses to be imported when it finds no git to run; runsite says so itself, in one
# line, when a command needs git (generator.archive.store), and the others work without it.
os.environ.setdefault("GIT_PYTHON_REFRESH", "quiet")

from generator.suite.collect import record_call

__all__ = ["__version__", "record_call"]

try:
    __version__ = version("runsite")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"
