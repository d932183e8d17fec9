"""``runsite report``: one file to hand over, of one run or of one comparison, redacted by
construction and checked anyway.

``gather`` reads the runs from the archive and redacts them under its disclosure, keeping the
payload strings of every run it read; ``made`` writes the report from the redacted runs alone
(``page`` for HTML, ``markdown`` for a summary) and has the leak guard search it for those
strings as the site's build has it search its pages (``guard.leaks``): a hit is refused,
naming the field, before a byte is written.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from generator.document.redacted import RedactedRun
from generator.errors import Refused
from generator.guard import leaks
from generator.reading import exit_reason
from generator.report.board import board_html, board_markdown, suite_board
from generator.report.markdown import markdown_summary, unescaped
from generator.report.page import html_report
from generator.report.runs import gather, gather_suite
from generator.report.subject import Origin, Subject
from generator.site.readings import alone

Format = Literal["html", "markdown"]

__all__ = [
    "Format",
    "Report",
    "ReportLeaked",
    "Subject",
    "gather",
    "gather_suite",
    "made",
    "made_board",
    "write",
]


class ReportLeaked(Refused):
    """The report would carry a payload string; nothing was written."""


@dataclass(frozen=True)
class Report:
    """A report's bytes, the exit code of its reading (as ``explain`` gives it), and why it is
    not 0 (in the report's language, as ``explain`` says it)."""

    data: bytes
    exit_code: int
    reason: str | None


def made(
    subject: Subject, payload: Mapping[str, str], locale: str, kind: Format, name: str
) -> Report:
    """The report of ``subject`` in ``locale``, searched for ``payload`` (each string by the
    field it came from); ``name`` says where it was going, for the refusal."""
    if kind == "html":
        page = html_report(subject, locale)
        data, scanned = page.html, [page.scanned]
    else:
        data = markdown_summary(subject, locale)
        scanned = [data, unescaped(data)]
    _unleaked(payload, [(name, text.encode()) for text in scanned], name)
    compared = subject.compared()
    if compared is None:
        reading = alone(subject.run)
    elif compared.reading is None:
        return Report(data.encode("utf-8"), 2, f"exit 2: {compared.reason}")
    else:
        reading = compared.reading
    return Report(data.encode("utf-8"), reading.exit_code, exit_reason(reading, locale))


def made_board(
    suite: str,
    runs: Sequence[RedactedRun],
    payload: Mapping[str, str],
    origin: Origin,
    locale: str,
    kind: Format,
    name: str,
) -> Report:
    """The board of ``suite`` (its redacted ``runs``) in ``locale``, searched for ``payload``
    as a run's report is; exit 0."""
    board = suite_board(runs, suite)
    if kind == "html":
        page = board_html(board, runs, origin, locale)
        data, scanned = page.html, [page.scanned]
    else:
        data = board_markdown(board, origin, locale)
        scanned = [data, unescaped(data)]
    _unleaked(payload, [(name, text.encode()) for text in scanned], name)
    return Report(data.encode("utf-8"), 0, None)


def _unleaked(payload: Mapping[str, str], outputs: list[tuple[str, bytes]], name: str) -> None:
    """Refuse a report that would carry any of ``payload``, naming the field."""
    found = sorted({leak.field for leak in leaks(payload, outputs)})
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise ReportLeaked(
            f"{name}: would carry the payload of {found[0]}{more}; nothing was written"
        )


def write(data: bytes, out: Path) -> None:
    """``data`` in the file ``out``, whole or not at all."""
    if not out.parent.is_dir():
        raise Refused(f"{out}: no such folder to write the report in")
    partial = out.with_name(f".{out.name}.{secrets.token_hex(8)}.partial")
    made = False
    try:
        # Made here ("x"): never a file or link left under that name, written through or removed.
        with open(partial, "xb") as opened:
            made = True
            opened.write(data)
        os.replace(partial, out)
    except OSError as error:
        if made:
            partial.unlink(missing_ok=True)
        raise Refused(f"{out}: cannot be written ({error.strerror or error})") from None
