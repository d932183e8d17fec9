"""``runsite.toml``: the site's name and language, and the disclosure, reviewed like code."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from generator.document.codec import validation_problem
from generator.document.record import Name
from generator.document.redacted import NOTHING, Disclosure
from generator.errors import ArchiveRefused

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


class Config(BaseModel):
    """The whole file. Every key is declared, so a misspelt one is refused, not ignored."""

    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")

    site: Site
    archive: Where = Field(default=Where())
    disclosure: Disclosure = Field(default=NOTHING)


def read_config(path: Path) -> Config:
    """The archive's configuration, or a refusal naming the file and the key."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise ArchiveRefused(f"{path}: cannot be read ({error})") from None
    except tomllib.TOMLDecodeError as error:
        raise ArchiveRefused(f"{path}: not valid TOML ({error})") from None
    try:
        return Config.model_validate(data)
    except ValidationError as error:
        where, problem = validation_problem(error)  # the file's own keys, named
        problem = problem.replace("a JSON ", "a TOML ", 1)
        raise ArchiveRefused(f"{path}: {where}: {problem}") from None


def config_text(name: str, branch: str | None) -> str:
    """The ``runsite.toml`` that ``init`` writes: a name, English, the branch it starts on, and
    nothing disclosed."""
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
# What the site may publish beyond what always travels (ids, scores, statuses, counts...).
# Empty: nothing more. Keys: run_metadata, score_metadata, artifacts (lists of names),
# tool_names (true, or a list of the tool names to show).
[disclosure]
"""


def _quoted(text: str) -> str:
    """``text`` inside a TOML basic string."""
    return text.replace("\\", "\\\\").replace('"', '\\"')
