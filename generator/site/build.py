"""Building the site: stage the pages of both languages and the assets, write one mkdocs.yml,
and run mkdocs as its own command would; then fill in the bodies runsite writes and mend what
mkdocs wrote (``rewrite``).

The staged configuration is the user's ``mkdocs.yml`` (name, colours, logo…) with the parts
runsite owns put over it: the i18n plugin in its folder layout, run pages kept out of the
navigation, fonts from the site itself, plotly.js shipped once. It follows the rules that let
Zensical build the same pages (plain Python-Markdown, raw HTML blocks, nav paths without the
locale prefix), so the engine can change without the pages changing.
"""

from __future__ import annotations

import hashlib
import html
import json
import logging
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from importlib.metadata import version
from pathlib import Path
from typing import Any

import yaml
from jinja2 import Environment

from generator.errors import Refused
from generator.site.history import SuiteRuns
from generator.site.labels import LABELS, LOCALES
from generator.site.look import Look
from generator.site.rewrite import for_files, language_links, not_found_pages, split_search
from generator.site.shell import (
    KINDS,
    Shell,
    capture,
    files,
    fill,
    mend_sitemaps,
    shell_sources,
)
from generator.site.templates import ASSET_FILES, ASSETS, SCRIPTS, KeptTemplates
from generator.site.writer import Page, served, suite_path

LANGUAGE_NAMES = {"en": "English", "it": "Italiano"}


class SiteRefused(Refused):
    """The site cannot be built as configured; nothing was published."""


@dataclass(frozen=True)
class SiteSettings:
    """What the archive says about its site."""

    name: str
    language: str
    """The language a visitor lands on: the other one lives under its own folder."""
    look: Look
    """What the user's mkdocs.yml asks the site to wear."""
    for_files: bool = False
    """Whether the site is opened from disk: links name ``index.html``, and there is no
    search (a browser does not let a page opened from disk load its index)."""


def stage(pages: Iterable[tuple[str, Page]], docs: Path, look: Look) -> None:
    """Write the markdown of every (locale, page) under ``docs/<locale>/``, each language's
    shells beside them, runsite's assets and the files of the user's look."""
    for locale, page in pages:
        _write(docs / locale / page.path, page.text)
    for locale in LOCALES:
        for path, text in shell_sources().items():
            _write(docs / locale / path, text)
    for target, source in {**ASSET_FILES, **look.files}.items():
        (docs / target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, docs / target)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def site_config(
    suites: Sequence[SuiteRuns], settings: SiteSettings, look: Look, docs: Path, out: Path
) -> dict[str, Any]:
    """The mkdocs configuration of the staged site: the user's look, runsite's parts around it."""
    languages = sorted(LOCALES, key=lambda locale: locale != settings.language)
    return {
        **look.mkdocs(),
        "site_name": settings.name,
        "docs_dir": str(docs),
        "site_dir": str(out),
        "use_directory_urls": True,
        "strict": True,
        "theme": {
            **look.theme,
            "palette": schemes(look.theme.get("palette"), settings.language),
            "name": "material",
            "variant": "classic",
            "font": False,
            "language": settings.language,
        },
        "plugins": [
            *([] if settings.for_files else [{"search": {"lang": list(languages)}}]),
            {
                "i18n": {
                    "docs_structure": "folder",
                    "reconfigure_search": False,
                    "fallback_to_default": False,
                    "languages": [
                        {
                            "locale": locale,
                            "default": locale == settings.language,
                            "name": LANGUAGE_NAMES[locale],
                            "build": True,
                            "nav": _nav(suites, locale),
                            "copyright": _footer(look, locale),
                            **_scheme_names(look, locale),
                            "extra": {"generator": False},
                        }
                        for locale in languages
                    ],
                }
            },
        ],
        "markdown_extensions": [{"toc": {"permalink": False}}],
        "extra_javascript": list(SCRIPTS),
        "extra_css": [*(path for path in ASSETS if path.endswith(".css")), *look.css],
        "not_in_nav": "/*/runs/\n/*/diffs/\n/*/boards/\n/*/cases/\n",
    }


MATERIAL = (
    '<a href="https://squidfunk.github.io/mkdocs-material/" target="_blank" rel="noopener">'
    "Material for MkDocs</a>"
)


def _footer(look: Look, locale: str) -> str:
    """The footer in ``locale``: the user's copyright (escaped text), and the theme's credit
    in the page's language (the theme writes it in English only) unless the look drops it."""
    lines = [look.copyright] if look.copyright else []
    if look.generator is not False:
        lines.append(html.escape(LABELS[locale]["footer.made_with"]).format(theme=MATERIAL))
    return "<br>".join(lines)


_LIGHT = {"media": "(prefers-color-scheme: light)", "scheme": "default"}
_DARK = {"media": "(prefers-color-scheme: dark)", "scheme": "slate"}
_TOGGLES = (
    ("material/brightness-7", "scheme.to_dark"),
    ("material/brightness-4", "scheme.to_light"),
)
"""Each scheme's switch to the other, as Material draws it in the header: its icon, its name."""


def schemes(palette: Any, locale: str) -> list[dict[str, Any]]:
    """The site's colour schemes: a light and a dark one, in the user's colours, that follow the
    reader's system until the reader switches to the other in the header (its name in
    ``locale``); a list of schemes the user wrote is kept as it is."""
    if isinstance(palette, list):
        return palette
    colours = {k: v for k, v in (palette or {}).items() if k in ("primary", "accent")}
    colours = colours or {"primary": "indigo", "accent": "indigo"}
    t = LABELS[locale]
    return [
        {**scheme, **colours, "toggle": {"icon": icon, "name": html.escape(t[name])}}
        for scheme, (icon, name) in zip((_LIGHT, _DARK), _TOGGLES, strict=True)
    ]


def _scheme_names(look: Look, locale: str) -> dict[str, Any]:
    """A language's own schemes, for the names of their switches; none where the user wrote the
    schemes, switches and all."""
    palette = look.theme.get("palette")
    return {} if isinstance(palette, list) else {"theme": {"palette": schemes(palette, locale)}}


def _nav(suites: Sequence[SuiteRuns], locale: str) -> list[Any]:
    t = LABELS[locale]
    listed = [
        {html.escape(f"{s.tenant} · {s.suite}"): suite_path(s.tenant, s.suite)} for s in suites
    ]
    return [{t["site.home"]: "index.md"}, *([{t["site.suites"]: listed}] if listed else [])]


def source_date(suites: Sequence[SuiteRuns]) -> int:
    """The build's date, from the archive itself: the newest run's time (each suite's last)."""
    times = [datetime.fromisoformat(s.runs[-1].created_at).timestamp() for s in suites if s.runs]
    return int(max(times)) if times else 0


@contextmanager
def _quiet_environment() -> Iterator[None]:
    """mkdocs without its warnings, and dated the same on every build: the date goes only into
    the sitemaps' ``lastmod``, which ``mend_sitemaps`` writes with the archive's own."""
    saved = {k: os.environ.get(k) for k in ("SOURCE_DATE_EPOCH", "NO_MKDOCS_2_WARNING")}
    os.environ["SOURCE_DATE_EPOCH"] = "0"
    os.environ["NO_MKDOCS_2_WARNING"] = "1"
    logger = logging.getLogger("mkdocs")
    level = logger.level
    logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        logger.setLevel(level)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@contextmanager
def _compiled_once(cache: Path) -> Iterator[None]:
    """The theme's templates compiled once and kept in ``cache``: compiling Material's 80
    templates is most of what mkdocs costs for a dozen pages."""
    from mkdocs.theme import Theme

    cache.mkdir(parents=True, exist_ok=True)
    original = Theme.get_env

    def get_env(theme: Theme) -> Environment:
        env = original(theme)
        env.bytecode_cache = KeptTemplates(str(cache))
        return env

    Theme.get_env = get_env  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        Theme.get_env = original  # type: ignore[method-assign]


def run_mkdocs(config: Mapping[str, Any], staging: Path, cache: Path) -> None:
    """Build the staged site as ``mkdocs build --strict`` would, the theme's compiled templates
    kept in ``cache``."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    config_file = staging / "mkdocs.yml"
    config_file.write_text(
        yaml.safe_dump(dict(config), sort_keys=True, allow_unicode=True), encoding="utf-8"
    )
    with _quiet_environment(), _compiled_once(cache):
        try:
            loaded = load_config(str(config_file))
            loaded.plugins.on_startup(command="build", dirty=False)
            try:
                build(loaded)
            finally:
                loaded.plugins.on_shutdown()
        except MkDocsException as error:
            raise SiteRefused(f"mkdocs could not build the site: {error}") from None


def build_pages(
    pages: Sequence[tuple[str, Page]],
    suites: Sequence[SuiteRuns],
    settings: SiteSettings,
    staging: Path,
    cache: Path,
    searched: Mapping[str, Sequence[str]],
) -> tuple[Path, dict[tuple[str, str], Shell]]:
    """mkdocs builds ``pages`` (those in the navigation) and each language's shells into
    ``staging/site``; returns that folder and the shells, by (locale, kind), taken out of it.
    ``cache`` keeps, from one build to the next, the theme's compiled templates and mkdocs'
    output, which a build with the same inputs copies instead of running mkdocs."""
    docs, out = staging / "docs", staging / "site"
    stage(pages, docs, settings.look)
    config = site_config(suites, settings, settings.look, docs, out)
    _mkdocs_output(config, staging, out, cache)
    for locale, staged in pages:
        if staged.body is not None:
            folder = out if locale == settings.language else out / locale
            fill(folder.joinpath(*served(staged.path), "index.html"), staged.body)
    if settings.for_files:
        for page in files(out, "*.html"):
            page.write_text(for_files(page.read_text(encoding="utf-8")), encoding="utf-8")
    else:
        split_search(out, settings.language, searched)
    language_links(out, settings.language, settings.look.site_url)
    if not settings.for_files:  # a site opened from disk has no address a page is missing at
        not_found_pages(out, settings.language, settings.look.site_url, settings.name)
    shells = {
        (locale, kind): capture(out if locale == settings.language else out / locale, kind)
        for locale in LOCALES
        for kind in KINDS
    }
    mend_sitemaps(out, source_date(suites), settings.look.site_url)
    return out, shells


_PACKAGES = ("mkdocs", "mkdocs-material", "mkdocs-static-i18n", "markdown", "jinja2")


def _mkdocs_inputs(config: Mapping[str, Any], docs: Path) -> str:
    """A digest of what mkdocs builds from: its configuration (but for where the build
    happens), every staged file, and the versions of the packages that render them."""
    hashed = hashlib.sha256()
    placed = {**config, "docs_dir": "", "site_dir": ""}
    hashed.update(json.dumps(placed, sort_keys=True, default=str).encode() + b"\0")
    hashed.update(json.dumps([version(name) for name in _PACKAGES]).encode() + b"\0")
    hash_files(hashed, docs)
    return hashed.hexdigest()


def hash_files(hashed: hashlib._Hash, folder: Path) -> None:
    """Feed ``hashed`` every file under ``folder`` (compiled Python aside), in a stable order:
    its path inside the folder, and a digest of its bytes."""
    for path in sorted(folder.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            hashed.update(path.relative_to(folder).as_posix().encode() + b"\0")
            hashed.update(hashlib.sha256(path.read_bytes()).digest())


def _mkdocs_output(config: Mapping[str, Any], staging: Path, out: Path, cache: Path) -> None:
    """What mkdocs writes from ``config`` and the staged files into ``out``: a copy of what it
    wrote from the same inputs before, kept in ``cache/output/<inputs>``, else a build of its
    own, kept there for the next. After a run arrives in a suite the site has, the inputs are
    the same: the home and suite pages are placeholders whose bodies runsite writes, and mkdocs
    builds at a fixed date. A copy that fails (another build of the archive let it go) falls
    back to mkdocs."""
    inputs = _mkdocs_inputs(config, staging / "docs")
    kept = cache / "output" / inputs
    if (kept / "site").is_dir():
        try:
            shutil.copytree(kept / "site", out)
            return
        except OSError:
            shutil.rmtree(out, ignore_errors=True)
    run_mkdocs(config, staging, cache / "templates")
    kept.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(dir=cache, prefix=".output-"))
    shutil.copytree(out, fresh / "site")
    try:
        fresh.rename(kept)
    except OSError:
        shutil.rmtree(fresh, ignore_errors=True)
    for other in kept.parent.iterdir():
        if other.name != inputs:
            shutil.rmtree(other) if other.is_dir() else other.unlink()
