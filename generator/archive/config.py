"""``runsite.toml``: the site's name and language, the disclosure, how Inspect logs are judged,
the tenant of promptfoo evals, and what an import may cost, reviewed like code."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from generator.archive.names import unfit
from generator.document.codec import validate
from generator.document.disclosure import NOTHING, Disclosure
from generator.document.values import Figure, Name, Unit
from generator.errors import ArchiveRefused, DocumentRefused

Language = Literal["en", "it"]


class Site(BaseModel):
    """The ``[site]`` table."""

    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")

    name: Name
    language: Language = "en"
    """The language a visitor lands on; the other one is a switch away."""


class Where(BaseModel):
    """The ``[archive]`` table."""

    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")

    branch: Name | None = None
    """The one branch runsite commits to; absent, any branch (never a detached HEAD)."""


class Inspect(BaseModel):
    """The ``[inspect]`` table: the tenant of a log that names none, and the thresholds an
    imported Inspect log's scorers are judged by.

    Inspect records scores, never a pass mark, so the archive supplies one. A scorer named under
    ``thresholds`` passes a case where its score reaches that number, on the scorer's own scale
    where it has one (a count of 3, 1.5 seconds). Any other scorer whose values are all letters
    (C, I, P, N) or booleans gets ``categorical``; any other numeric scorer gets 0, which
    records its score and never fails, and one on its own scale is recorded and never judged.
    """

    model_config = ConfigDict(frozen=True, strict=True, extra="forbid", allow_inf_nan=False)

    tenant: Name | None = None
    """The tenant of a log whose eval names none, where ``--tenant`` names none either."""
    categorical: Unit = 1.0
    thresholds: dict[Name, Figure] = Field(default_factory=dict)

    @field_validator("tenant")
    @classmethod
    def _fit(cls, tenant: str | None) -> str | None:
        problem = unfit(tenant) if tenant is not None else None
        if problem:
            raise ValueError(problem)
        return tenant

    def threshold(self, scorer: str, categorical: bool) -> float:
        """The threshold of ``scorer``, given whether its values are all categorical."""
        if scorer in self.thresholds:
            return self.thresholds[scorer]
        return self.categorical if categorical else 0.0


class Promptfoo(BaseModel):
    """The ``[promptfoo]`` table: the tenant of an imported promptfoo eval, where ``--tenant``
    names none (promptfoo's output names no tenant)."""

    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")

    tenant: Name | None = None

    @field_validator("tenant")
    @classmethod
    def _fit(cls, tenant: str | None) -> str | None:
        return Inspect._fit(tenant)


MB = 1_000_000
"""The unit of the sizes in ``[limits]``."""

DEEPEST = 200
"""The deepest ``[limits] depth`` may allow: what the parser and the walks that follow it (two
Python frames a level) hold well inside Python's recursion limit."""

Size = Annotated[int, Field(ge=1)]
SizeKey = Literal["document_mb", "log_mb", "member_mb"]


class Limits(BaseModel):
    """The ``[limits]`` table: what one file may cost to import or read, so that a small file
    cannot take a machine's memory or hours of its time. Each is checked before the work it
    bounds, or as it is done (a member is counted as it inflates), never trusted from what a
    file declares; past one, the file is refused in one line that names the key raising it.
    """

    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")

    document_mb: Size = 64
    """A run document: a file imported, one an Inspect log makes, one a build reads."""
    log_mb: Size = 200
    """An Inspect log: a file, its JSON (an .eval's members as they inflate, together), and
    the attachments it inlines, each; a promptfoo output file."""
    member_mb: Size = 100
    """One member of an .eval log, as it inflates."""
    depth: Annotated[int, Field(ge=1, le=DEEPEST)] = 64
    """How many levels an Inspect log's header or sample nests."""
    epochs: Size = 1000
    """The epochs an Inspect eval may declare."""
    samples: Size = 100_000
    """The samples (of every epoch) an Inspect log may hold: an .eval's directory is read no
    further than that many members, and a few more; the rows of a promptfoo output."""

    def size(self, key: SizeKey) -> int:
        """The size limit ``key``, in bytes."""
        megabytes: int = getattr(self, key)
        return megabytes * MB


def raised_by(key: str) -> str:
    """The end of a refusal past one of ``[limits]``: the key that raises it."""
    return f"the limit of [limits] {key} in runsite.toml"


def too_large(key: SizeKey, most: int) -> str:
    """A refusal of a file larger than the size limit ``key`` (``most`` bytes)."""
    return f"a file of more than {most // MB} MB, {raised_by(key)}"


class Config(BaseModel):
    """The whole file. Every key is declared, so a misspelt one is refused, not ignored."""

    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")

    site: Site
    archive: Where = Field(default=Where())
    disclosure: Disclosure = Field(default=NOTHING)
    inspect: Inspect = Field(default_factory=Inspect)
    promptfoo: Promptfoo = Field(default_factory=Promptfoo)
    limits: Limits = Field(default_factory=Limits)


def read_config(path: Path) -> Config:
    """The archive's configuration, or a refusal naming the file and the key."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise ArchiveRefused(f"{path}: cannot be read ({error})") from None
    except tomllib.TOMLDecodeError as error:
        raise ArchiveRefused(f"{path}: not valid TOML ({error})") from None
    except RecursionError:
        raise ArchiveRefused(f"{path}: nested too deeply to read") from None
    try:
        return validate(Config, data, name_unknown=True)
    except DocumentRefused as refused:
        problem = refused.problem.replace("a JSON ", "a TOML ", 1)
        raise ArchiveRefused(f"{path}: {refused.where}: {problem}") from None


def config_text(name: str, branch: str | None) -> str:
    """The ``runsite.toml`` that ``init`` writes: a name, English, the branch it starts on, the
    Inspect defaults, and nothing disclosed."""
    archive = (
        ""
        if branch is None
        else "\n# The one branch runsite commits runs to: on any other, or on a detached HEAD,\n"
        f'# a command that would commit is refused.\n[archive]\nbranch = "{_quoted(branch)}"\n'
    )
    return f"""# The archive's configuration, reviewed like code.

[site]
name = "{_quoted(name)}"
language = "en"  # en or it: the language a visitor lands on
{archive}
# How imported Inspect logs are named and judged: `tenant = "..."` names the tenant of a log
# whose eval metadata names none (--tenant overrides both); a scorer whose values are letters (C/I/P/N) or booleans
# passes a case where its score (over the epochs) reaches `categorical`; any other numeric
# scorer never fails unless named in a table [inspect.thresholds], e.g. model_graded_qa = 0.5;
# one scoring outside 0 to 1 (a count, seconds) is measured on its own scale and judged only
# against a threshold on that scale named there, e.g. tool_calls = 3.
[inspect]
categorical = 1.0

# What the site may publish beyond what always travels (ids, scores, statuses, counts...).
# Empty: nothing more. Keys: run_metadata, score_metadata, artifacts (lists of names),
# tool_names (true, or a list of the tool names to show).
[disclosure]
"""


def _quoted(text: str) -> str:
    """``text`` inside a TOML basic string."""
    return text.replace("\\", "\\\\").replace('"', '\\"')
