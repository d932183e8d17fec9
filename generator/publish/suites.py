"""The pages that span many runs, from the runs' summaries: the home page, each suite's page,
the pages of its cases and its board, its blocks of older runs, and the search entries; and what
a build makes of each suite's history that the next build can keep: the articles of those pages
and the suite's search entries, in each language, and each run's count of checks worse than the
suite's reference.

A suite's pages span its recent runs (``history.RECENT``), and each is kept in the cache under a
digest of what they show (those runs' blobs, the reference, what got worse against it: a run's
summary is its blob's, for this code), made again only when that moved, which after one more
run is the one suite it arrived in. Its runs' search entries are kept a block at a time
(``history.BLOCK``), so what one more run costs does not grow with the suite's history; the
pages of its full blocks are written and kept as a run's page is (``plan.Plan.older``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import overload

from generator.publish.cache import RunCache
from generator.publish.plan import PageJob, Plan, digest
from generator.publish.source import Listed
from generator.site.board import board_for
from generator.site.history import BLOCK, RECENT, SuiteRuns
from generator.site.labels import LOCALES
from generator.site.pages import Site
from generator.site.rewrite import entries_json
from generator.site.summary import RunSummary
from generator.site.writer import Body, Page

HELD = 3 * BLOCK
"""Summaries the suites' runs keep of those they read, every suite's together (``Stored``):
what the pages of one suite ask for, its recent runs and a block of older ones, as a build
makes one suite's pages after the other's. Kept by each suite, they grew with the archive
until every suite held this many: 4,000 summaries at 10,000 runs."""


class Stored(Sequence[RunSummary]):
    """A suite's runs in order, as summaries read when a page asks for them (``summaries``
    gives those of some blob ids), the last ``HELD`` read by any suite's kept in ``held``: a
    build holds the summaries of the pages it writes, not every run's."""

    def __init__(
        self,
        blobs: Sequence[str],
        summaries: Callable[[Sequence[str]], Mapping[str, RunSummary]],
        held: dict[str, RunSummary],
    ) -> None:
        self._blobs = tuple(blobs)
        self._summaries = summaries
        self._held = held

    def __len__(self) -> int:
        return len(self._blobs)

    def _read(self, blobs: Sequence[str]) -> dict[str, RunSummary]:
        """The summaries of ``blobs``, the last ``HELD`` asked for kept: a suite's pages ask for
        its newest runs a few times over, in each language."""
        wanted = [blob for blob in blobs if blob not in self._held]
        if wanted:
            self._held.update(self._summaries(wanted))
        found = {blob: self._held[blob] for blob in blobs}
        for blob in list(self._held)[: max(0, len(self._held) - HELD)]:
            del self._held[blob]
        return found

    @overload
    def __getitem__(self, index: int) -> RunSummary: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[RunSummary, ...]: ...

    def __getitem__(self, index: int | slice) -> RunSummary | tuple[RunSummary, ...]:
        if isinstance(index, slice):
            blobs = self._blobs[index]
            found = self._read(blobs)
            return tuple(found[blob] for blob in blobs)
        blob = self._blobs[index]
        return self._read([blob])[blob]


def histories(
    plan: Plan,
    summaries: Callable[[Sequence[str]], Mapping[str, RunSummary]],
    worse: Mapping[str, int],
    created: Mapping[str, str],
) -> list[SuiteRuns]:
    """Each suite's runs in order, as summaries (``Stored``: ``summaries`` gives those of some
    blob ids), with its reference, what got worse against it (``worse``, by blob id) and when
    each was measured (``created``, by blob id: each one's ``created_at``)."""
    held: dict[str, RunSummary] = {}
    return [
        SuiteRuns(
            tenant,
            suite,
            Stored([r.blob for r in runs], summaries, held),
            plan.references[(tenant, suite)].key if (tenant, suite) in plan.references else None,
            {r.key: worse[r.blob] for r in runs if r.blob in worse},
            tuple(r.key for r in runs),
            tuple(created[r.blob] for r in runs),
        )
        for (tenant, suite), runs in plan.suites.items()
    ]


@dataclass(frozen=True)
class Inputs:
    """What a suite's pages over many runs are made of, worked out once for both languages."""

    recent: str
    """The digest of its recent runs (``RECENT``), its reference and what got worse against
    it: what its page, its cases and board pages, and its search entries but its runs' show."""
    blocks: tuple[str, ...]
    """The same digest of each of its full blocks of runs."""

    @classmethod
    def of(cls, history: SuiteRuns, runs: Sequence[Listed]) -> Inputs:
        """``history``'s inputs, its runs as ``runs`` lists them."""
        return cls(
            _shown(history, runs[-RECENT:]),
            tuple(
                _shown(history, runs[n * BLOCK : (n + 1) * BLOCK]) for n in range(history.blocks)
            ),
        )


def _shown(history: SuiteRuns, runs: Sequence[Listed]) -> str:
    """What a page shows of ``runs`` is made of: the runs, the suite's reference and what got
    worse against it."""
    worse = [history.worse.get(r.key) for r in runs]
    return digest([r.blob for r in runs], history.reference, worse)


def home_and_suites(
    cache: RunCache, sites: Sequence[Site], history: Sequence[SuiteRuns], plan: Plan
) -> tuple[list[tuple[str, Page]], dict[str, list[str]]]:
    """The home page and each suite's page in each language, and each language's search
    entries (``entries_json``'s): the home page's first, then each suite's. A suite's pages in
    every language one after the other, while the summaries they show are held (``HELD``)."""
    inputs = [Inputs.of(h, plan.suites[(h.tenant, h.suite)]) for h in history]
    pages = [(site.locale, site.home(history)) for site in sites]
    searched = {site.locale: [entries_json([site.search_home(history)])] for site in sites}
    for h, made in zip(history, inputs, strict=True):
        for site in sites:
            pages.append((site.locale, suite_page(cache, site, h, made)))
            board = board_page(cache, site, h, made)
            if board is not None:
                pages.append((site.locale, board))
            pages.append((site.locale, cases_page(cache, site, h, made)))
            searched[site.locale] += search_entries(cache, site, h, made)
    return pages, searched


def suite_page(cache: RunCache, site: Site, history: SuiteRuns, inputs: Inputs) -> Page:
    """A suite's page, its article written again only when its recent runs or its blocks of
    older runs moved."""
    made = digest(inputs.recent, inputs.blocks)
    return site.suite(
        history, _kept(cache, _name("suite", site, history), made, history, site.suite_body)
    )


def board_page(cache: RunCache, site: Site, history: SuiteRuns, inputs: Inputs) -> Page | None:
    """A suite's board page, where its recent runs measured more than one target; its article
    written again only when those runs moved."""
    if board_for(history) is None:
        return None
    name = _name("board", site, history)
    return site.board(history, _kept(cache, name, inputs.recent, history, site.board_text))


def cases_page(cache: RunCache, site: Site, history: SuiteRuns, inputs: Inputs) -> Page:
    """The page of a suite's cases, its article written again only when its recent runs
    moved."""
    name = _name("cases", site, history)
    return site.cases(history, _kept(cache, name, inputs.recent, history, site.cases_body))


def search_entries(cache: RunCache, site: Site, history: SuiteRuns, inputs: Inputs) -> list[str]:
    """A suite's search entries (``entries_json``'s): those of the runs of its full blocks, each
    block's made once and kept (made again where its runs or the suite's reference moved), and
    kept together while no block moved; then those of the runs after the last full block, the
    suite's and its cases', made again when its recent runs moved."""

    def block(n: int) -> str:
        return _kept(
            cache,
            _name("search", site, history, n),
            inputs.blocks[n],
            history,
            lambda history: entries_json(site.search_runs(history, history.block(n))),
        )

    def older(history: SuiteRuns) -> str:
        spliced = [block(n)[1:-1] for n in range(history.blocks)]
        return "[" + ",".join(entries for entries in spliced if entries) + "]"

    def recent(history: SuiteRuns) -> str:
        after = site.search_runs(history, history.runs[history.blocks * BLOCK :])
        return entries_json([*after, *site.search_suite(history)])

    name = _name("search-older", site, history)
    return [
        _kept(cache, name, digest(inputs.blocks), history, older),
        _kept(cache, _name("search", site, history), inputs.recent, history, recent),
    ]


def older_pages(
    sites: Sequence[Site], history: Sequence[SuiteRuns], plan: Plan, wanted: Collection[str]
) -> Iterator[tuple[PageJob, Body]]:
    """The pages of blocks of older runs whose files are ``wanted``, written from the runs'
    summaries, one at a time: at 10,000 runs, their 200 bodies are 11 MB."""
    suites = {(h.tenant, h.suite): h for h in history}
    for (suite, n), jobs in plan.older.items():
        for job in jobs:
            if job.file in wanted:
                site = sites[LOCALES.index(job.locale)]
                yield job, site.older(suites[suite], n)


def _name(kind: str, site: Site, history: SuiteRuns, *block: int) -> str:
    """What the cache keeps a text of ``kind`` under: its language, its suite, its block."""
    return f"{kind}-" + digest(site.locale, history.tenant, history.suite, *block)


def _kept(
    cache: RunCache, name: str, inputs: str, history: SuiteRuns, make: Callable[[SuiteRuns], str]
) -> str:
    """The text the cache holds under ``name`` for ``inputs``, else ``make``'s, kept there for
    the next build."""
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
