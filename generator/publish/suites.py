"""The pages that span many runs, from the runs' summaries: the home page, each suite's page and
the page of its cases, and the search entries; and what a build makes of each suite's history
that the next build can keep: the articles of those pages and the suite's search entries, in
each language, and each run's count of checks worse than the suite's reference.

Each is kept in the cache under a digest of the suite's history (its runs' blobs, its
reference, what got worse against it: a run's summary is its blob's, for this code), and made
again only when that history moved, which after one more run is the one suite it arrived in.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence

from generator.publish.cache import RunCache
from generator.publish.plan import Plan, digest
from generator.publish.source import Listed
from generator.site.board import board_for
from generator.site.history import SuiteRuns
from generator.site.pages import Site
from generator.site.summary import RunSummary
from generator.site.writer import Page


def histories(
    plan: Plan, summaries: Mapping[str, RunSummary], worse: Mapping[str, int]
) -> list[SuiteRuns]:
    """Each suite's runs in order, as summaries, with its reference and what got worse against
    it (``worse``, by blob id)."""
    return [
        SuiteRuns(
            tenant,
            suite,
            tuple(summaries[r.blob] for r in runs),
            plan.references[(tenant, suite)].key if (tenant, suite) in plan.references else None,
            {r.key: worse[r.blob] for r in runs if r.blob in worse},
        )
        for (tenant, suite), runs in plan.suites.items()
    ]


def home_and_suites(
    cache: RunCache, sites: Sequence[Site], history: Sequence[SuiteRuns], plan: Plan
) -> tuple[list[tuple[str, Page]], dict[str, list[dict[str, str]]]]:
    """The home page and each suite's page in each language, and each language's search
    entries: the home page's first, then each suite's."""
    pages = []
    searched = {}
    for site in sites:
        pages.append((site.locale, site.home(history)))
        entries = [site.search_home(history)]
        for h in history:
            runs = plan.suites[(h.tenant, h.suite)]
            pages.append((site.locale, suite_page(cache, site, h, runs)))
            board = board_page(cache, site, h, runs)
            if board is not None:
                pages.append((site.locale, board))
            pages.append((site.locale, cases_page(cache, site, h, runs)))
            entries += search_entries(cache, site, h, runs)
        searched[site.locale] = entries
    return pages, searched


def suite_page(cache: RunCache, site: Site, history: SuiteRuns, runs: Sequence[Listed]) -> Page:
    """A suite's page, its article written again only when the suite's history moved."""
    return site.suite(history, _kept(cache, "suite", site, history, runs, site.suite_body))


def board_page(
    cache: RunCache, site: Site, history: SuiteRuns, runs: Sequence[Listed]
) -> Page | None:
    """A suite's board page, where its runs measured more than one target; its article written
    again only when the suite's history moved."""
    if board_for(history) is None:
        return None
    return site.board(history, _kept(cache, "board", site, history, runs, site.board_text))


def cases_page(cache: RunCache, site: Site, history: SuiteRuns, runs: Sequence[Listed]) -> Page:
    """The page of a suite's cases, its article written again only when the suite's history
    moved."""
    return site.cases(history, _kept(cache, "cases", site, history, runs, site.cases_body))


def search_entries(
    cache: RunCache, site: Site, history: SuiteRuns, runs: Sequence[Listed]
) -> list[dict[str, str]]:
    """A suite's search entries, made again only when the suite's history moved."""

    def made(history: SuiteRuns) -> str:
        return json.dumps(site.search_suite(history), ensure_ascii=False)

    entries: list[dict[str, str]] = json.loads(_kept(cache, "search", site, history, runs, made))
    return entries


def _kept(
    cache: RunCache,
    kind: str,
    site: Site,
    history: SuiteRuns,
    runs: Sequence[Listed],
    make: Callable[[SuiteRuns], str],
) -> str:
    """The text of ``kind`` the cache holds for this history of the suite, else ``make``'s."""
    name = f"{kind}-" + digest(site.locale, history.tenant, history.suite)
    inputs = digest([r.blob for r in runs], history.reference, sorted(history.worse.items()))
    kept = cache.text(name, inputs)
    if kept is None:
        kept = make(history)
        cache.keep_text(name, inputs, kept)
    return kept


def worse_known(plan: Plan, known: Mapping[tuple[str, str], int]) -> dict[str, int | None]:
    """For each run with a reference other than itself, its checks worse than the reference as
    the cache knows them (None where it does not)."""
    found: dict[str, int | None] = {}
    for suite, runs in plan.suites.items():
        reference = plan.references.get(suite)
        for listed in runs:
            if reference is not None and reference.key != listed.key:
                found[listed.blob] = known.get((listed.blob, reference.blob))
    return found
