"""What a report shows, as redacted values: a run, alone or against another, where it sits in
its suite, and the archive's site it belongs to."""

from __future__ import annotations

from dataclasses import dataclass

from generator.document.redacted import RedactedRun
from generator.site.look import Look
from generator.site.pages import ComparisonPage, comparison
from generator.site.writer import Role, diff_path, page_address, run_path

"""What the run compared with is to the run, as the site's comparison pages say."""


@dataclass(frozen=True)
class Origin:
    """The archive's site: its name, the language a visitor lands on, and the user's look
    (its copyright goes on every report; its address, where known, makes links)."""

    name: str
    language: str
    look: Look

    def address(self, locale: str, path: str) -> str | None:
        """Where the site serves the page ``path`` in ``locale``; None without a ``site_url``."""
        base = self.look.site_url
        if base is None:
            return None
        folder = "" if locale == self.language else f"{locale}/"
        return base.rstrip("/") + "/" + folder + page_address(path)


@dataclass(frozen=True)
class Subject:
    """A run, and the run it is read against (None for the run alone)."""

    run: RedactedRun
    other: RedactedRun | None
    role: Role | None
    previous: str | None
    """The key of the run before it in its suite."""
    reference: RedactedRun | None
    """Its suite's reference run: a run page says whether it got worse than it."""
    origin: Origin

    @property
    def runs(self) -> tuple[RedactedRun, ...]:
        """The runs the report shows."""
        return (self.run,) if self.other is None else (self.run, self.other)

    @property
    def path(self) -> str:
        """The site's page of what the report shows: the run's, or the comparison's."""
        run = self.run
        if self.other is None:
            return run_path(run.tenant, run.suite, run.key)
        return diff_path(run.tenant, run.suite, run.key, self.other.key)

    @property
    def published(self) -> bool:
        """Whether the site has a page of what the report shows: every run has one, a
        comparison only with the previous run or the reference."""
        if self.other is None:
            return True
        reference = self.reference.key if self.reference else None
        return self.other.key != self.run.key and self.other.key in (self.previous, reference)

    def compared(self) -> ComparisonPage | None:
        """The run against the other, as the comparison page shows it."""
        return comparison(self.run, self.other) if self.other is not None else None

    def worse(self) -> int | None:
        """Checks of the run worse than its suite's reference (None without one other than
        itself), as its page counts them."""
        reference = self.reference
        if reference is None or reference.key == self.run.key:
            return None
        return comparison(self.run, reference).worse
