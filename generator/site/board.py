"""A suite's board page: its targets side by side (``account.board``), made from the runs'
summaries as the suite's own page is, for a suite whose runs measured more than one target.

The page says which target passes most of each check and which gaps to it are beyond chance,
draws each target's pass rate (with its Wilson interval) against its cost per case, the ones
no other beats on both marked, and lists the cases where the targets' verdicts differ, each
cell a link to that case in that run's page.
"""

from __future__ import annotations

from typing import Any

from generator.account.board import Board, Entrant, Standing, board_of
from generator.account.charts import STATUS_LETTER
from generator.site.cases import case_anchor
from generator.site.history import HistoryPages, SuiteRuns
from generator.site.shell import placeholder_markdown
from generator.site.writer import Page, board_path, href, run_path, suite_path, yaml_title

LETTER_STATUS = {letter: status for status, letter in STATUS_LETTER.items()}
"""A status letter of a case's verdicts (``Contender.verdicts``) back to its status."""


def board_for(history: SuiteRuns) -> Board | None:
    """The suite's board; None where its runs measured one target only."""
    if history.targets < 2:
        return None
    return board_of([run.contender for run in history.runs if run.contender is not None])


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
            chart["most_text"] = f.money(chart["most"])
            chart["zero_text"] = f.money(0.0)
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
            p = f"p = {self.f.p_value(found.p)} ({self.f.p_value(found.p_holm)})"
        return {
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


LEFT, RIGHT, TOP, BOTTOM = 56, 380, 20, 220
"""The plot's edges in the chart's 400 × 260 units: the axes' labels take the rest."""


def _chart(board: Board) -> dict[str, Any] | None:
    """Where each target with a known cost falls: its pass rate (and Wilson interval) against
    its cost per case, in the chart's units (``LEFT`` … ``BOTTOM``); None where fewer than two
    have a known cost."""
    placed = [
        e
        for e in board.entrants
        if e.run.cost is not None and e.run.tally.verdicts.rate is not None
    ]
    if len(placed) < 2:
        return None
    most = max(e.run.cost or 0.0 for e in placed) or 1.0
    points = []
    for e in placed:
        went = e.run.tally.verdicts
        bounds = went.bounds
        assert e.run.cost is not None and went.rate is not None and bounds is not None
        points.append(
            {
                "label": e.label,
                "x": round(LEFT + (RIGHT - LEFT) * e.run.cost / most, 2),
                "y": _height(went.rate),
                "low": _height(bounds.low),
                "high": _height(bounds.high),
                "pareto": e.pareto,
            }
        )
    return {
        "points": points,
        "most": most,
        "edges": {"left": LEFT, "right": RIGHT, "top": TOP, "bottom": BOTTOM},
        "half": _height(0.5),
    }


def _height(rate: float) -> float:
    return round(BOTTOM - (BOTTOM - TOP) * rate, 2)
