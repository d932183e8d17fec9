"""The site's templates and assets, and the jinja2 environment that renders them: what a
page is written with, whether the build writes it into the site or a report into one file."""

from __future__ import annotations

from contextlib import suppress
from importlib import resources
from pathlib import Path

from jinja2 import Environment, FileSystemBytecodeCache, FileSystemLoader, StrictUndefined
from jinja2.bccache import Bucket
from markupsafe import Markup

from generator.site.writer import chart_json


def _templates() -> Path:
    """``site_templates/``: inside the installed package, or beside it in a checkout."""
    package = Path(__file__).resolve().parents[1]
    installed = package / "site_templates"
    return installed if installed.is_dir() else package.parent / "site_templates"


TEMPLATES = _templates()
ASSETS = {
    "javascripts/plotly-basic.min.js": "plotly-basic.min.js",
    "javascripts/charts.js": "charts.js",
    "stylesheets/runsite.css": "runsite.css",
}
"""Where each of runsite's assets lands in the site, from ``site_templates/assets/``."""
SCRIPTS = ("javascripts/charts.js",)
"""The scripts every page loads: ``charts.js`` fetches plotly.js, beside it, only on a page that
draws a chart."""
ASSET_FILES = {target: TEMPLATES / "assets" / name for target, name in ASSETS.items()}
"""Each of runsite's assets in the site, from its file."""
_THEME = Path(str(resources.files("material"))) / "templates"


def source_of(file: str) -> Path:
    """The installed file the site's ``file`` is a copy of, if it is one: one of runsite's
    assets, or else the theme's file at the same path (its scripts, styles, fonts)."""
    return ASSET_FILES[file] if file in ASSET_FILES else _THEME / file


def environment(compiled: Path | None = None) -> Environment:
    """The jinja2 environment of the site's templates: autoescaping HTML, strict on names, and
    their compiled code kept in ``compiled`` when given (for one code of runsite's: compiling
    the pages' templates took 0.1 s of every build process).

    The pages import their macros without their context (what a macro needs is handed to it,
    or a global here): macros bound to a page's context made each page's values a cycle, which
    only the cycle collector frees (some 100,000 objects every 32 runs)."""
    made = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=True,
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        bytecode_cache=KeptTemplates(str(compiled)) if compiled else None,
    )
    made.filters["css_string"] = css_string
    made.globals["chart_json"] = chart_json
    return made


def css_string(text: str) -> Markup:
    """``text`` as a quoted CSS string inside a ``<style>``: every character but letters,
    digits and spaces written as a CSS escape, so nothing in it can end the string or the
    element."""
    escaped = "".join(
        c if c.isascii() and (c.isalnum() or c == " ") else f"\\{ord(c):x} " for c in text
    )
    return Markup(f'"{escaped}"')


class KeptTemplates(FileSystemBytecodeCache):
    """Compiled templates, kept for the next build; one whose folder is gone (``.runsite/``
    removed mid-build) is just not kept, as losing the cache costs only time."""

    def dump_bytecode(self, bucket: Bucket) -> None:
        with suppress(FileNotFoundError):
            super().dump_bytecode(bucket)
