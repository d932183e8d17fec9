"""Inspect AI's evaluation logs (``.eval`` and ``.json``), read without inspect_ai.

``claims`` knows a log by its name (``.eval``) or by how its JSON begins (a ``.json`` log opens
with Inspect's ``version``, where a digline document's sorted keys never do); ``read`` turns one
log into one run document (see ``run`` for what maps to what).
"""

from __future__ import annotations

import re
from pathlib import Path

from generator.archive import Arrival
from generator.document.codec import read_run
from generator.errors import DocumentRefused
from generator.importers.inspect_ai.container import open_eval_log, open_json_log
from generator.importers.inspect_ai.run import canonical_run, run_of
from generator.importers.options import Options

NAME = "inspect_ai"
_JSON_LOG = re.compile(rb'\A\s*\{\s*"version"\s*:')
_SNIFF = 64
"""Bytes read to tell a .json log from another JSON document."""
BESIDE_LOGS = frozenset({"logs.json", "eval-set.json", ".eval-set-id"})
"""What Inspect writes into a log folder beside the logs (the folder's listing, an eval set's
tasks and id): none is a log, and Inspect's own listing of a folder leaves them out."""


def claims(path: Path) -> bool:
    """Whether ``path`` is an Inspect log."""
    if path.suffix == ".eval":
        return True
    if path.suffix != ".json":
        return False
    try:
        with path.open("rb") as file:
            return bool(_JSON_LOG.match(file.read(_SNIFF)))
    except OSError:
        return False


def read(path: Path, options: Options) -> list[Arrival]:
    """One log as one run document; a refusal names the file and the key. The run arrives as
    its bytes read back, so what the archive holds and what the import reports are one run."""
    try:
        opened = open_eval_log if path.suffix == ".eval" else open_json_log
        data = canonical_run(run_of(opened(path, options.limits), options), options.limits)
        reading = read_run(data)
    except DocumentRefused as refused:
        raise refused.located(str(path)) from None
    return [Arrival(str(path), data, reading)]
