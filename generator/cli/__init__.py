"""The ``runsite`` command: parse, make one call into the package, print, return an exit code.

One handler serves every command: a refusal prints one line on stderr and exits 64; a click
usage error exits 64 as well (2 means "could not be judged" here); a full disk says so and exits
74 (what an archive's command had done is finished by the next one, and a build published
nothing); Ctrl-C says so and exits 130, as a shell counts an interrupt; anything else is a
defect of runsite, printed with its traceback, exit 70.
"""

from __future__ import annotations

import gc

# Each area's commands register themselves on the group when imported.
from generator.cli import archive, document, reading, report, site, suite
from generator.cli.group import cli


def main() -> None:
    """The console entry point. Whatever the command made is left for the process's end to
    free: frozen, the interpreter's last collections do not scan it, which took 0.3 s of a
    2.6 s rebuild."""
    try:
        cli.main(prog_name="runsite")
    finally:
        gc.freeze()


__all__ = ["archive", "cli", "document", "main", "reading", "report", "site", "suite"]
