"""runsite: run or import LLM evaluation suites, archive every run, publish a redacted site."""

from importlib.metadata import PackageNotFoundError, version

from generator.suite.collect import record_call

__all__ = ["__version__", "record_call"]

try:
    __version__ = version("runsite")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"
