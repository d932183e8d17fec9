"""``runsite report --board SUITE``: a suite's board as one file to hand over (the site's board
page in the report's shell) or as a Markdown summary, from redacted runs only, and searched for
every payload string of the runs read for it, as a run's report is."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup

from generator.account.board import Board, board_of, contender_of
from generator.document.redacted import RedactedRun
from generator.errors import Refused
from generator.report.labels import REPORT
from generator.report.markdown import name, text
from generator.report.page import ASSETS, SCRIPT, Page, asset, linked, released_line
from generator.report.subject import Origin
from generator.report.svg import Drawn
from generator.site.labels import LABELS
from generator.site.pages import Site
from generator.site.templates import environment
from generator.site.writer import board_path


def suite_board(runs: Sequence[RedactedRun], suite: str) -> Board:
    """The board of a suite's redacted ``runs``; refused where they measured one target."""
    board = board_of([contender_of(run) for run in runs])
    if len(board.entrants) + len(board.apart) < 2:
        raise Refused(
            f"--board {suite}: its runs measured one target, so there is nothing to set beside it"
        )
    return board


def _released(site: Site, runs: Sequence[RedactedRun]) -> str:
    """What the archive's disclosure released in any of ``runs``, said once."""
    lines = list(dict.fromkeys(line for run in runs for line in site.released(run)))
    return f"{REPORT[site.locale]['report.redacted.runs']} {released_line(lines, site.locale)}"


def board_html(board: Board, runs: Sequence[RedactedRun], origin: Origin, locale: str) -> Page:
    """The board as one HTML file in ``locale``."""
    env = environment()
    site = Site(env, locale, Drawn())
    t, r = LABELS[locale], REPORT[locale]
    title = t["board.title"].format(suite=f"{board.tenant} · {board.suite}")
    path = board_path(board.tenant, board.suite)
    shown = {e.run.key for e in (*board.entrants, *board.apart)}
    styles = "\n".join(asset(n) for n in ASSETS)
    values: Mapping[str, Any] = {
        "locale": locale,
        "t": t,
        "r": r,
        "title": title,
        "site_name": origin.name,
        "disclosed": _released(site, [run for run in runs if run.key in shown]),
        "body": Markup(linked(site.board_body(board, title), origin.address(locale, path))),
        "withheld": [],
        "said_below": False,
        "verdict": None,
        "released": [],
        "copyright": Markup(origin.look.copyright or ""),
        "styles": Markup(styles),
        "script": Markup(asset(SCRIPT)),
    }
    template = env.get_template("report/report.html")
    html = template.render(values)
    return Page(html, template.render({**values, "styles": "", "script": ""}))


def board_markdown(board: Board, origin: Origin, locale: str) -> str:
    """The board as a summary for a pull request or a CI job: each target's pass rate and
    interval, cost and latency per case, and the checks it is best at or tied with the best on."""
    t, r = LABELS[locale], REPORT[locale]
    f = Site(environment(), locale).f
    heading = t["board.title"].format(suite=f"{name(board.tenant)} · {name(board.suite)}")
    columns = [
        t["board.target"],
        t["column.rate_95"],
        t["board.cost"],
        t["board.latency"],
        t["board.best_or_tied"],
    ]
    lines = [f"### {heading}", "", text(t["board.legend"]), ""]
    lines += ["| " + " | ".join(text(c) for c in columns) + " |", "|" + " --- |" * len(columns)]
    for e in board.entrants:
        went = e.run.tally.verdicts
        bounds = went.bounds
        rate = f.share(went.rate) if went.rate is not None else "—"
        if bounds is not None:
            rate += f" ({f.share(bounds.low)}–{f.share(bounds.high)})"
        cost = f.money(e.run.cost) if e.run.cost is not None else f.unknown
        level = [name(s.figures.name, cell=True) for s in e.checks if s.tied]
        mark = " ◆" if e.pareto else ""
        latency = text(f.latency(e.run.latency_ms))
        cells = [name(e.label, cell=True) + mark, text(rate), text(cost), latency]
        cells.append(", ".join(level) or "—")
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", f"◆ {text(t['board.pareto'])}", ""]
    address = origin.address(locale, board_path(board.tenant, board.suite))
    if address is not None:
        lines += [f"[{text(r['summary.board_page'])}](<{address}>)", ""]
    return "\n".join(lines)
