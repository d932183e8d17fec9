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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from html import unescape
from typing import Any
from urllib.parse import urljoin

from markupsafe import Markup, escape

from generator.report.labels import REPORT
from generator.report.subject import Subject
from generator.report.svg import Drawn
from generator.site.labels import LABELS
from generator.site.pages import Site
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
    t, r = LABELS[site.locale], REPORT[site.locale]
    released = site.released(subject.run, said, named)
    disclosure = said(r["report.disclosure"]).format(
        source=said(r["report.source"]),
        released="; ".join(released) + "." if released else said(t["run.released.none"]),
    )
    redacted = said(r["report.redacted.run" if subject.other is None else "report.redacted.runs"])
    return f"{redacted} {disclosure}"


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
