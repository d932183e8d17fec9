"""What can go wrong, split by who can fix it.

    RunsiteError                 raised on purpose, with a sentence for the reader
    ├── ProcessEnded             a process of a build killed at its work (by the system short
    │                            of memory, or by hand): exit 71
    └── Refused                  the user's input or request cannot be honoured: exit 64
        ├── DocumentRefused      a run document that cannot be read, migrated or trusted
        ├── SuiteRefused         a suite that breaks a rule when it loads
        ├── ArchiveRefused       the archive cannot do what was asked (no archive here, a bad
        │                        runsite.toml, a key taken by another run, git said no)
        ├── RunNotFound          a RUN reference that names no archived run, or more than one
        ├── NotComparable        two runs no reading may compare (reading.refusals)
        │   ├── DifferentRules   a diff across different rules (config_hash)
        │   └── DifferentJudges  a diff across different judge identities
        └── UnknownLocale        a locale the reading has no catalog for (reading.locales)

Anything that is not a ``RunsiteError`` is a defect of runsite itself: the CLI prints its
traceback and exits 70. Every message names where the problem is (a file, a key path) and never
the offending value, because a value may be customer payload and messages end up in logs.
"""

from __future__ import annotations


class RunsiteError(Exception):
    """An error raised on purpose, carrying a one-line sentence and the exit code it means."""

    exit_code = 70


class ProcessEnded(RunsiteError):
    """A process of the build ended before its work was done: killed, by the system short of
    memory or by hand. Nothing was published."""

    exit_code = 71  # EX_OSERR

    def __init__(self, what: str) -> None:
        self.what = what
        super().__init__(
            f"{what} ended before its work was done (killed: by the system short of memory, "
            "or by hand); nothing was published"
        )

    def __reduce__(self) -> tuple[type[ProcessEnded], tuple[str]]:
        return type(self), (self.what,)


class Refused(RunsiteError):
    """The input or the request is refused; nothing was written."""

    exit_code = 64


class DocumentRefused(Refused):
    """A run document that cannot be read, migrated or trusted.

    ``where`` is the key path inside the document (``results[3].verdicts[0].score``), empty when
    the problem is the document as a whole. ``source`` (a file name) is attached by whoever read
    the bytes, since the pure reader never sees a path.
    """

    def __init__(self, where: str, problem: str, source: str = "") -> None:
        self.where = where
        self.problem = problem
        self.source = source
        super().__init__(str(self))

    def __reduce__(self) -> tuple[type[DocumentRefused], tuple[str, str, str]]:
        """Made again from its parts, as a build's processes hand it to the build: pickled as
        an exception's message alone, it could not be unpickled, and the build waited on
        forever for a result that never came."""
        return type(self), (self.where, self.problem, self.source)

    def located(self, source: str) -> DocumentRefused:
        """The same refusal, naming the file it came from."""
        return DocumentRefused(self.where, self.problem, source)

    def __str__(self) -> str:
        parts = [p for p in (self.source, self.where, self.problem) if p]
        return ": ".join(parts)


class SuiteRefused(Refused):
    """A suite that breaks a rule, found when it loads: nothing ran and nothing was written.

    The message names the file, the entry in it (``[[assertions]] #2``, ``[target]``, a case)
    and the key.
    """

    def __init__(self, source: str, entry: str, key: str, problem: str) -> None:
        self.source, self.entry, self.key, self.problem = source, entry, key, problem
        super().__init__(": ".join(p for p in (source, entry, key, problem) if p))

    def __reduce__(self) -> tuple[type[SuiteRefused], tuple[str, str, str, str]]:
        """Made again from its parts, like ``DocumentRefused``."""
        return type(self), (self.source, self.entry, self.key, self.problem)


class ArchiveRefused(Refused):
    """The archive cannot do what was asked; it is left as it was."""


class RunNotFound(Refused):
    """A RUN reference that names no archived run, or names several."""
