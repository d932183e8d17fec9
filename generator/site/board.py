"""A suite's board page: its targets side by side (``account.board``), made from the runs'
summaries as the suite's own page is, for a suite whose runs measured more than one target.

The page says which target passes most of each check and which gaps to it are beyond chance,
draws each target's pass rate (with its Wilson interval) against its cost per case, the ones
no other beats on both marked, and lists the cases where the targets' verdicts differ, each
cell a link to that case in that run's page.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from markupsafe import Markup

from generator.account.board import Board, Entrant, Standing, board_of
from generator.account.charts import STATUS_LETTER
from generator.site.cases import case_anchor
from generator.site.history import HistoryPages, SuiteRuns
from generator.site.shell import placeholder_markdown
from generator.site.writer import Page, board_path, href, run_path, suite_path, yaml_title

LETTER_STATUS = {letter: status for status, letter in STATUS_LETTER.items()}
"""A status letter of a case's verdicts (``Contender.verdicts``) back to its status."""


def board_for(history: SuiteRuns) -> Board | None:
    """The suite's board, of its recent runs (``history.RECENT``: the latest run of a target
    measured only before them is left off, where ``runsite board`` reads the whole history);
    None where they measured one target only."""
    if history.targets < 2:
        return None
    return board_of([run.contender for run in history.recent])


class BoardPages(HistoryPages):
    """A suite's board page in one language."""

    def board(self, history: SuiteRuns, body: str | None = None) -> Page | None:
        """The board page of ``history``; ``body`` is its article as a build kept it."""
        board = board_for(history)
        if board is None:
            return None
        title = self.t["board.title"].format(suite=history.heading)
        if body is None:
            body = self.board_body(board, title)
        return Page(
            board_path(board.tenant, board.suite), placeholder_markdown(yaml_title(title)), body
        )

    def board_text(self, history: SuiteRuns) -> str:
        """The article of ``history``'s board, for a build to keep (one there is: ``board``)."""
        board = board_for(history)
        assert board is not None
        return self.board_body(board, self.t["board.title"].format(suite=history.heading))

    def board_body(self, board: Board, title: str) -> str:
        path = board_path(board.tenant, board.suite)
        f = self.f

        def run_href(entrant: Entrant, case: str | None = None) -> str:
            page = href(path, run_path(board.tenant, board.suite, entrant.run.key))
            return f"{page}#{case_anchor(case)}" if case else page

        targets = [
            {
                "label": e.label,
                "href": run_href(e),
                "measured": self.when(e.run.created_at),
                "rate": self.rate(e.run.tally.verdicts),
                "bounds": self._bounds(e),
                "cost": f.money(e.run.cost) if e.run.cost is not None else f.unknown,
                "latency": f.latency(e.run.latency_ms),
                "pareto": e.pareto,
            }
            for e in board.entrants
        ]
        checks = [
            {"name": name, "cells": [self._standing(e, name) for e in board.entrants]}
            for name in board.checks
        ]
        cases = [
            {
                "case": row.case,
                "disagree": row.disagree,
                "cells": [
                    self._case_cell(letters, board.checks, run_href(e, row.case))
                    for e, letters in zip(board.entrants, row.statuses, strict=True)
                ],
            }
            for row in board.cases
        ]
        chart = _chart(board)
        if chart is not None:
            for tick in chart["ticks"]:
                tick["text"] = f.money(tick["cost"])
            for tick in chart["rates"]:
                tick["text"] = f.share(tick["rate"])
        return self._body(
            "board",
            path,
            title,
            title=title,
            suite_href=href(path, suite_path(board.tenant, board.suite)),
            suite=f"{board.tenant} · {board.suite}",
            config_hash=board.config_hash,
            targets=targets,
            checks=checks,
            cases=cases,
            differing=sum(row.disagree for row in board.cases),
            check_names=", ".join(board.checks),
            chart=chart,
            apart=[{"label": e.label, "href": run_href(e)} for e in board.apart],
        ).html

    def _bounds(self, e: Entrant) -> str:
        bounds = e.run.tally.verdicts.bounds
        return "" if bounds is None else f"{self.f.share(bounds.low)}–{self.f.share(bounds.high)}"

    def _standing(self, e: Entrant, name: str) -> dict[str, Any] | None:
        found: Standing | None = next((s for s in e.checks if s.figures.name == name), None)
        if found is None:
            return None
        counts = found.figures.counts
        bounds = counts.bounds
        said = "best" if found.best else "tied" if found.tied else "behind"
        if not found.best and not found.pairs:
            said = "unpaired"
        p = ""
        if found.p is not None and found.p_holm is not None:
            raw = self.f.p_value(found.p)
            p = f"p {raw if raw.startswith('<') else f'= {raw}'} ({self.f.p_value(found.p_holm)})"
        figures = found.figures
        mean = ""
        if figures.score is not None:
            mean = self.t["board.mean"].format(score=self.f.figure(figures.score, figures.places))
            if (spread := figures.mean_bounds) is not None:
                low, high = (self.f.score(v, figures.places) for v in (spread.low, spread.high))
                mean += f" <small>{low}–{high}</small>"
        return {
            "mean": Markup(mean),
            "rate": "" if counts.rate is None else self.f.share(counts.rate),
            "bounds": ""
            if bounds is None
            else f"{self.f.share(bounds.low)}–{self.f.share(bounds.high)}",
            "standing": said,
            "p": p,
        }

    def _case_cell(self, letters: str | None, names: tuple[str, ...], link: str) -> dict[str, Any]:
        if letters is None:
            return {"href": None, "marks": []}
        marks = [
            (name, LETTER_STATUS[letter])
            for name, letter in zip(names, letters, strict=True)
            if letter != "-"
        ]
        return {"href": link, "marks": marks}


WIDTH, HEIGHT = 360, 236
LEFT, RIGHT, TOP, BOTTOM = 44, 344, 14, 192
"""The plot's edges in the chart's ``WIDTH`` × ``HEIGHT`` units: the axes' labels take the
rest. The units are near a phone's pixels, so its text reads at the size a page's does."""
CHAR, LINE = 6.2, 13
"""A label's width per character and its height, in those units: enough to keep two apart."""


def _chart(board: Board) -> dict[str, Any] | None:
    """Where each target with a known cost falls: its pass rate (and Wilson interval) against
    its cost per case, in the chart's units; None where fewer than two have a known cost.

    Costs a decade or more apart go on a logarithmic axis (a model ten times dearer is common,
    and on a linear axis the cheaper ones would sit on top of each other); the rate axis starts
    at the tenth below the lowest interval, so close rates stay apart."""
    placed = [
        e
        for e in board.entrants
        if e.run.cost is not None and e.run.tally.verdicts.bounds is not None
    ]
    if len(placed) < 2:
        return None
    costs = [e.run.cost or 0.0 for e in placed]
    x, ticks = _cost_axis(min(costs), max(costs))
    lows = [e.run.tally.verdicts.bounds.low for e in placed if e.run.tally.verdicts.bounds]
    floor = math.floor(min(lows) * 10) / 10
    y = _rate_axis(floor)
    points = []
    for e, cost in zip(placed, costs, strict=True):
        went = e.run.tally.verdicts
        assert went.rate is not None and went.bounds is not None
        points.append(
            {
                "label": e.label,
                "x": x(cost),
                "y": y(went.rate),
                "low": y(went.bounds.low),
                "high": y(went.bounds.high),
                "pareto": e.pareto,
            }
        )
    _place_labels(points)
    return {
        "points": points,
        "ticks": [{"x": x(at), "cost": at} for at in ticks],
        "rates": [{"y": y(at), "rate": at} for at in (floor, (floor + 1) / 2, 1.0)],
        "edges": {"left": LEFT, "right": RIGHT, "top": TOP, "bottom": BOTTOM},
        "size": {"width": WIDTH, "height": HEIGHT},
        "log": ticks[0] > 0,
    }


def _cost_axis(least: float, most: float) -> tuple[Callable[[float], float], list[float]]:
    """Where a cost falls across the plot, and the costs to mark under it."""
    inner_left, inner_right = LEFT + 12, RIGHT - 12
    if least > 0 and most / least >= 10:
        low, high = math.floor(math.log10(least)), math.ceil(math.log10(most))

        def logarithmic(cost: float) -> float:
            share = (math.log10(cost) - low) / (high - low)
            return round(inner_left + (inner_right - inner_left) * share, 2)

        return logarithmic, [10.0**n for n in range(low, high + 1)]
    top = most or 1.0

    def linear(cost: float) -> float:
        return round(inner_left + (inner_right - inner_left) * cost / top, 2)

    return linear, [0.0, top]


def _rate_axis(floor: float) -> Callable[[float], float]:
    def height(rate: float) -> float:
        return round(BOTTOM - (BOTTOM - TOP) * (rate - floor) / (1 - floor), 2)

    return height


def _place_labels(points: list[dict[str, Any]]) -> None:
    """Give each point's label a place beside it (``label_x``, ``label_y``, ``anchor``) that no
    other label and no marker covers: on the side with room, then down (or up) a line at a time
    until clear. The same points always get the same places."""
    taken: list[tuple[float, float, float, float]] = [
        (p["x"] - 6, p["y"] - 6, p["x"] + 6, p["y"] + 6) for p in points
    ]
    for p in sorted(points, key=lambda p: (p["y"], p["x"])):
        width = CHAR * len(p["label"])
        right = p["x"] + 8 + width <= RIGHT
        left_edge = p["x"] + 8 if right else p["x"] - 8 - width
        for step in [0, *(n * sign for n in range(1, 8) for sign in (1, -1))]:
            base = p["y"] + 4 + step * LINE
            box = (left_edge, base - LINE + 2, left_edge + width, base + 2)
            if box[1] >= 0 and box[3] <= BOTTOM and not any(_overlap(box, t) for t in taken):
                break
        taken.append(box)
        p["label_x"] = round(left_edge if right else left_edge + width, 2)
        p["label_y"] = round(base, 2)
        p["anchor"] = "start" if right else "end"


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
