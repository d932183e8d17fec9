"""A report as one HTML file: the run page (or the comparison page) the site shows, inside a
small shell of its own, with everything it needs inside it.

The body is the site's own (``Site.run``, ``Site.diff``), with its charts drawn as SVG where the
site leaves them to plotly.js (``svg.Drawn``). The styles (the site's ``runsite.css`` and the
report's) and the site's ``charts.js`` (which, with no chart data on the page, only runs the
tables' filters and opens every table for print) are inlined; nothing is loaded from anywhere,
not even a favicon. The body names the run in the header of every printed page. Links to the
site's pages become addresses on the site where its ``site_url`` is known, and plain text where
it is not: a file opened from a mail has no site beside it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import unescape
from typing import Any
from urllib.parse import urljoin

from markupsafe import Markup, escape

from generator.account.run import account_of
from generator.account.tally import Status
from generator.reading import catalog
from generator.reading.facts import Reading
from generator.reading.render import sentence
from generator.report.labels import REPORT
from generator.report.subject import Subject
from generator.report.svg import Drawn
from generator.site.labels import LABELS
from generator.site.pages import ComparisonPage, Site
from generator.site.readings import alone
from generator.site.templates import TEMPLATES, environment

ASSETS = ("assets/runsite.css", "report/report.css")
SCRIPT = "assets/charts.js"
_CLOSES = re.compile(r"</(style|script)|<!--", re.IGNORECASE)
"""What would end an inlined stylesheet or script before its end."""


def asset(name: str) -> str:
    return (TEMPLATES / name).read_text(encoding="utf-8")


_LINK = re.compile(r'<a href="([^"#][^"]*)">')


def linked(html: str, address: str | None) -> str:
    """``html`` (a page written for ``address``) with each relative link to another page made
    absolute, or, with no address, left as text."""

    def link(found: re.Match[str]) -> str:
        if address is None:
            return "<a>"
        return f'<a href="{escape(urljoin(address, unescape(found[1])))}">'

    return _LINK.sub(link, html)


def disclosed(
    subject: Subject,
    site: Site,
    said: Callable[[str], str] = str,
    named: Callable[[str], str] = str,
) -> str:
    """How a report was made: from redacted runs only, and what the archive's disclosure
    released beyond what always travels; its words as ``said`` writes them, and each name as
    ``named`` does."""
    r = REPORT[site.locale]
    redacted = said(r["report.redacted.run" if subject.other is None else "report.redacted.runs"])
    return f"{redacted} {released_line(site.released(subject.run, said, named), site.locale, said)}"


def released_line(released: Sequence[str], locale: str, said: Callable[[str], str] = str) -> str:
    """What a disclosure released (``Site.released``'s lines), as a stakeholder reads it: what
    was published beyond what always travels, or that nothing was."""
    r = REPORT[locale]
    if not released:
        return said(r["report.disclosure.none"])
    return said(r["report.disclosure"]).format(released="; ".join(released) + ".")


def verdict(subject: Subject, compared: ComparisonPage | None, locale: str) -> tuple[Status, str]:
    """A report's first words: how the run went, as its page's status says (against the
    previous run, worse than it where a check got worse), and the fact its exit code comes
    from, where there is one."""
    t, r = LABELS[locale], REPORT[locale]
    tally = account_of(subject.run).tally
    reading: Reading | None
    if compared is None:
        status, reading = tally.status(subject.worse()), alone(subject.run)
        word = t[f"status.{status}"]
    else:
        reading = compared.reading
        previous = subject.role == "previous"
        status = tally.status(None if previous else compared.worse)
        word = t[f"status.{status}"]
        if previous and compared.worse:
            status, word = "worse", r["report.status.worse.previous"]
    said = r["report.verdict"].format(status=word)
    deciding = reading.deciding() if reading is not None else None
    if deciding is not None:
        said += " " + sentence(deciding, catalog(locale))
    return status, said


@dataclass(frozen=True)
class Page:
    """A report's HTML, and what of it the leak scan reads: all of it but the assets runsite
    ships, verbatim (a stylesheet's or a script's words are no run's)."""

    html: str
    scanned: str


def html_report(subject: Subject, locale: str) -> Page:
    """The report of ``subject`` in ``locale``."""
    env = environment()
    site = Site(env, locale, Drawn())
    t, r = LABELS[locale], REPORT[locale]
    run, other = subject.run, subject.other
    reference = subject.reference.key if subject.reference else None
    compared = subject.compared()
    if other is None or compared is None or subject.role is None:
        body = site.run(run, subject.previous, reference, subject.worse())
    else:
        body = site.diff(run, other, compared, subject.role)
    withheld: list[tuple[str, list[str]]] = []
    if other is not None:
        withheld = [
            (t["diff.this_run"], site.withheld(run)),
            (t[f"diff.role.{subject.role}"], site.withheld(other)),
        ]
    styles = "\n".join(asset(name) for name in ASSETS)
    script = asset(SCRIPT)
    if _CLOSES.search(styles + script):
        raise ValueError("an asset of the report would close its own element")
    values: Mapping[str, Any] = {
        "locale": locale,
        "t": t,
        "r": r,
        "title": body.title,
        "site_name": subject.origin.name,
        "disclosed": disclosed(subject, site),
        "verdict": verdict(subject, compared, locale),
        "body": Markup(linked(body.html, subject.origin.address(locale, subject.path))),
        "withheld": withheld,
        "said_below": True,
        "released": site.released(run),
        "copyright": Markup(subject.origin.look.copyright or ""),
        "styles": Markup(styles),
        "script": Markup(script),
    }
    html = env.get_template("report/report.html").render(values)
    scanned = env.get_template("report/report.html").render({**values, "styles": "", "script": ""})
    return Page(html, scanned)
