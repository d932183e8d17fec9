"""The leak guard: what an output would write is searched for the payload of the runs it was
made from, and a hit refuses the output before it is published.

Outputs are built from redacted runs only; this is the "checked anyway" half. A run's payload
(what a model said, tool arguments, ...: ``document.payload``) is sought in any form a page
may carry it, escaped, encoded, cased or split by markup, and a hit names the output and the
field of the full document the string came from.

One entry point, ``leaks``: the site's build calls it with each run's payload and the files
its sieves say may carry it, ``runsite report`` with the payload of the runs it shows and the
report's text. The build, whose archive's payload is far too large to seek whole in every
file, narrows the search first, with the modules it imports where it needs them:

- ``scan``: the exact search, ``leaks`` itself, and which files need none (``shipped``);
- ``sieve``: which runs' payload a file may carry, from 16-byte keys; ``sieving``: the sieve
  of every run of the archive, kept from one build to the next;
- ``kept``, ``kept_check``: the check of the pages a build keeps, in a process of its own.

The guard knows strings and bytes, not the run document: its callers hand it the payload, and
it imports nothing of runsite but itself. Importing this package loads nothing heavy, as
``runsite build`` starts ``kept_check``'s process before anything else, so that the check's
own imports run beside the build's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from generator.guard.scan import leaks

__all__ = ["leaks"]


def __getattr__(name: str) -> Any:
    """``leaks``, found when asked for (``scan``): importing the package stays light."""
    if name == "leaks":
        from generator.guard.scan import leaks

        return leaks
    raise AttributeError(f"module 'generator.guard' has no attribute {name!r}")
