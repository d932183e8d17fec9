"""What every page of the site is written with: a page's address and its links, its text or
body, and the labels and figures of one language.

Home and suite pages are markdown for mkdocs (they sit in the navigation and the search
index); run and comparison pages are HTML bodies that a shell of the theme's wraps (see
``shell``). Either way a page's markup is written by jinja2 with autoescaping, so a name or a
case id is always text, never markup. Page addresses are made of tenant, suite and run key, so
no later build moves a page a stakeholder was sent.
"""

from __future__ import annotations

import html
import json
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal
from urllib.parse import quote

from jinja2 import Environment
from markupsafe import Markup

from generator.account.tally import Counts, tally_of
from generator.document.redacted import RedactedRun
from generator.reading import catalog
from generator.reading.facts import Reading
from generator.reading.formats import Formats, formats
from generator.reading.locales import against_previous
from generator.reading.plurals import worded
from generator.reading.render import sentence
from generator.site.charts import Drawer
from generator.site.labels import LABELS


@dataclass(frozen=True)
class Page:
    """A page of one language: its path under that language's folder, and its text."""

    path: str
    text: str
    body: str | None = None
    """The article's HTML where runsite writes it itself: ``text`` is then a placeholder mkdocs
    renders in the navigation, and the body goes in after (Python-Markdown's pass over raw
    HTML costs seconds on a suite page of a thousand runs, and finds nothing to do)."""


def served(path: str) -> list[str]:
    """The segments of the folder a page path is served as: mkdocs serves ``<folder>/index.md``
    as the folder itself (none for the home page), any other ``<name>.md`` as a folder of its
    own."""
    segments = path.removesuffix(".md").split("/")
    return segments[:-1] if segments[-1] == "index" else segments


def page_address(path: str) -> str:
    """A page path (``runs/<tenant>/<suite>/<key>.md``) as the site serves it, each segment
    quoted as a link carries it."""
    return "".join(f"{quote(part, safe='')}/" for part in served(path))


def run_path(tenant: str, suite: str, key: str) -> str:
    return f"runs/{tenant}/{suite}/{key}.md"


INDEXES = frozenset({"index", "readme"})
"""Names mkdocs takes a page of for its folder's index (``index.md``, ``README.md``), whatever
their case, in case a file system or an engine ignores it."""


def suite_path(tenant: str, suite: str) -> str:
    """A suite's page: ``<suite>.md`` in its tenant's folder, or ``<suite>/index.md`` for a suite
    named as mkdocs names a folder's index, which is served at the same address,
    ``suites/<tenant>/<suite>/``, where ``<suite>.md`` would have been its tenant's folder."""
    if suite.casefold() in INDEXES:
        return f"suites/{tenant}/{suite}/index.md"
    return f"suites/{tenant}/{suite}.md"


def older_path(tenant: str, suite: str, block: int) -> str:
    """Block ``block`` of a suite's older runs: ``suites/<tenant>/<suite>/older/<block>/``,
    under the address its suite's page is served at."""
    return f"suites/{tenant}/{suite}/older/{block}.md"


def board_path(tenant: str, suite: str) -> str:
    """A suite's board: ``boards/<tenant>/<suite>/``, served as a suite's page is."""
    if suite.casefold() in INDEXES:
        return f"boards/{tenant}/{suite}/index.md"
    return f"boards/{tenant}/{suite}.md"


def cases_path(tenant: str, suite: str) -> str:
    """A suite's page of cases: ``cases/<tenant>/<suite>/``, served as a suite's page is."""
    if suite.casefold() in INDEXES:
        return f"cases/{tenant}/{suite}/index.md"
    return f"cases/{tenant}/{suite}.md"


def diff_path(tenant: str, suite: str, key: str, other: str) -> str:
    return f"diffs/{tenant}/{suite}/{key}/{other}.md"


Role = Literal["previous", "reference", "both"]
"""What the run a comparison compares with is to the run."""


def diff_role(other: str, previous: str | None, reference: str | None) -> Role:
    """The role of run ``other`` beside a run whose previous and reference runs are the keys
    given: any run that is not the previous one is read as a reference, as ``explain`` reads
    a run compared ``--against``."""
    if other == previous:
        return "both" if other == reference else "previous"
    return "reference"


def href(source: str, target: str) -> str:
    """A relative link from page ``source`` to page ``target`` (both page paths), as the
    site serves them: each page is a folder of its own.

    Worked out from the two paths' segments: ``posixpath.relpath``, which makes both absolute
    (asking the system for the working folder each time), took 27 µs a link, and a suite page
    links every run of its suite. A path with a segment that is empty, ``.`` or ``..`` (no page
    runsite writes has one) is left to it."""
    to, at = served(target), served(source)
    if any(part in ("", ".", "..") for part in (*to, *at)):
        parts = posixpath.relpath("/".join(to) or ".", "/".join(at) or ".").split("/")
    else:
        common = len(posixpath.commonprefix([to, at]))
        parts = [".."] * (len(at) - common) + to[common:] or ["."]
    return "/".join(map(_quoted, parts)) + "/"


@lru_cache(maxsize=1 << 11)
def _quoted(part: str) -> str:
    """A segment as a link carries it; kept, as a suite's links share their tenant and suite
    (a run's key is its own: a larger bound held every key a process wrote)."""
    return quote(part, safe="")


def chart_json(data: Mapping[str, Any]) -> Markup:
    """Chart data for a ``<script type="application/json">``: nothing in it can close the tag."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def yaml_title(text: str) -> str:
    """A front-matter title: escaped as the theme prints it raw, quoted as YAML reads it (every
    character outside ASCII as ``\\u`` escapes, so no line break YAML knows can end it)."""
    return json.dumps(html.escape(text))


def counts(went: Counts, labels: Mapping[str, str], figures: Formats) -> str:
    """How many verdicts passed, failed and could not be judged, each count in the form its
    language gives it: "1 superato, 2 non superati, 0 non giudicati"; and how many were
    measured on a scale of their own, where any was."""
    said = [("passed", went.passed), ("failed", went.failed), ("errored", went.unjudged)]
    said += [("measured", went.measured)] if went.measured else []
    return ", ".join(worded(labels, f"summary.{key}", n, figures) for key, n in said)


def tallied(run: RedactedRun, locale: str) -> str:
    """How ``run``'s verdicts went, on one line of ``locale`` (``account.tally``)."""
    return counts(tally_of(run).verdicts, LABELS[locale], formats(locale))


def reading_sections(
    reading: Reading,
    locale: str,
    shown_elsewhere: str | None = None,
    instead: str | None = None,
    previous: bool = False,
) -> list[tuple[str, list[str]]]:
    """The reading's facts under their headings, in ``locale``; facts whose kind starts with
    ``shown_elsewhere`` are left out, for the sentence ``instead`` where there were some. A
    reading against the run before (``previous``) names it so rather than "the reference"."""
    phrases = against_previous(locale) if previous else catalog(locale)
    sections = []
    for section, facts in reading.sections():
        kept = [f for f in facts if not (shown_elsewhere and f.kind.startswith(shown_elsewhere))]
        sentences = [sentence(f, phrases) for f in kept]
        if instead is not None and len(kept) < len(facts):
            sentences.append(instead)
        if sentences or len(kept) == len(facts):
            sections.append((phrases[f"heading.{section}"], sentences or [phrases["nothing"]]))
    return sections


@dataclass(frozen=True)
class Body:
    """A run or comparison page before its shell: its title and the article's HTML."""

    path: str
    title: str
    html: str


def rate_text(went: Counts, figures: Formats) -> str:
    """A pass rate (``Counts.rate``), for a place that shows the counts beside it; nothing
    where none was judged."""
    return "" if went.rate is None else figures.share(went.rate)


def rate_noted(went: Counts, labels: Mapping[str, str], figures: Formats) -> str:
    """A pass rate for a place that shows it alone: saying how many verdicts it leaves out as
    not judged."""
    share = rate_text(went, figures)
    if not share or not went.unjudged:
        return share
    return worded(labels, "rate.unjudged", went.unjudged, figures, rate=share)


class Writer:
    """Writes pages in one language: its labels, its figures, the templates."""

    def __init__(self, environment: Environment, locale: str, drawer: Drawer | None = None) -> None:
        self.locale = locale
        self.t = LABELS[locale]
        self.f = formats(locale)
        self.env = environment
        self.drawer = drawer
        """Draws the charts where the page is made (a report's SVG); None leaves them to
        ``charts.js``."""

    def _body(self, template: str, path: str, heading: str, **values: Any) -> Body:
        page = self.env.get_template(f"pages/{template}.html")
        return Body(path, heading, page.render(t=self.t, counted=self.counted, **values))

    def counts(self, went: Counts) -> str:
        return counts(went, self.t, self.f)

    def counted(self, key: str, n: int, **params: str) -> str:
        """The label ``key`` for the count ``n`` (``plurals.worded``), for a template."""
        return worded(self.t, key, n, self.f, **params)

    def rate(self, went: Counts) -> str:
        return rate_text(went, self.f)

    def rate_noted(self, went: Counts) -> str:
        return rate_noted(went, self.t, self.f)

    def when(self, iso: str) -> Markup:
        """A moment as the language writes it, its exact value one hover away."""
        return Markup('<time datetime="{0}" title="{0}">{1}</time>').format(iso, self.f.moment(iso))

    def when_short(self, iso: str, seconds: bool) -> Markup:
        """A moment in a table or on an axis."""
        return Markup('<time datetime="{0}" title="{0}">{1}</time>').format(
            iso, self.f.moment_short(iso, seconds)
        )
