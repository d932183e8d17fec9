"""The user's ``mkdocs.yml``: the look of the site, and nothing else.

The file is the user's for colours, logo and footer. Everything else mkdocs would do with it —
load a script or a stylesheet from another host, override the theme's templates, run hooks,
call a repository's API, report to analytics — would make a published page fetch from
outside or run code at build time, so a build refuses it, naming the key. Text the theme
prints without escaping (the copyright, the description) is escaped here, so it stays text.
Files it names (logo, favicon, stylesheets) must be files beside it, and are copied into the
site.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from generator.errors import Refused

LARGEST = 65_536
"""Bytes a look-and-feel file needs at most; a larger one is not one."""

ADDRESS = re.compile(r"https?://[^\s\"'<>]+/?")
"""A ``site_url``: an http(s) address where the site is served."""
_ICON = re.compile(r"(material|fontawesome/(brands|regular|solid)|octicons|simple)/[a-z0-9-]+")
_COLOUR = re.compile(r"[a-z]+( [a-z]+)?|custom")
_PALETTE_KEYS = {"scheme", "primary", "accent", "media", "toggle"}
_FEATURES = {
    "announce.dismiss",
    "content.code.annotate",
    "content.code.copy",
    "content.code.select",
    "content.tabs.link",
    "content.tooltips",
    "header.autohide",
    "navigation.expand",
    "navigation.footer",
    "navigation.indexes",
    "navigation.path",
    "navigation.prune",
    "navigation.sections",
    "navigation.tabs",
    "navigation.tabs.sticky",
    "navigation.top",
    "navigation.tracking",
    "search.highlight",
    "search.share",
    "search.suggest",
    "toc.follow",
    "toc.integrate",
}
"""Material's features that change how a page behaves in the browser and fetch nothing.
``navigation.instant`` is left out: it breaks the language switch of every run page."""

OWNED = ("site_name", "docs_dir", "site_dir", "nav", "plugins", "markdown_extensions")
"""Keys runsite sets itself; the site's name comes from ``runsite.toml``."""


class LookRefused(Refused):
    """The user's ``mkdocs.yml`` asks for more than a look; nothing was built."""


@dataclass(frozen=True)
class Look:
    """What of the user's ``mkdocs.yml`` the site wears."""

    theme: dict[str, Any] = field(default_factory=dict)
    """Palette, icons and features; logo and favicon as paths inside the site."""
    copyright: str | None = None
    """HTML-escaped: the theme prints it as markup."""
    description: str | None = None
    author: str | None = None
    site_url: str | None = None
    generator: bool | None = None
    """Whether the footer says what the site was made with (``extra.generator``)."""
    files: dict[str, Path] = field(default_factory=dict)
    """Files to copy into the site: path inside the site → the user's file."""
    css: tuple[str, ...] = ()
    """The user's stylesheets, as paths inside the site."""

    def mkdocs(self) -> dict[str, Any]:
        """The settings the site's ``mkdocs.yml`` takes from this look."""
        config: dict[str, Any] = {
            key: value
            for key, value in (
                ("copyright", self.copyright),
                ("site_description", self.description),
                ("site_author", self.author),
                ("site_url", self.site_url),
            )
            if value is not None
        }
        if self.generator is not None:
            config["extra"] = {"generator": self.generator}
        return config


def read_look(path: Path | None) -> Look:
    """The look ``path`` (the archive's ``mkdocs.yml``) asks for; none when it is absent."""
    if path is None or not path.exists():
        return Look()
    if not path.is_file():
        raise LookRefused(f"{path}: not a file; it holds the site's look (or leave it out)")
    data = path.read_bytes()
    if len(data) > LARGEST:
        raise LookRefused(f"{path}: larger than {LARGEST} bytes; it holds the site's look only")
    try:
        loaded = yaml.safe_load(data.decode("utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as error:
        mark = getattr(error, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark else ""
        raise LookRefused(f"{path}: not YAML runsite can read{where}") from None
    except RecursionError:
        raise LookRefused(f"{path}: nested too deeply to read") from None
    if loaded is None:
        return Look()
    return _Reader(path).look(_mapping(path, "", loaded))


def _mapping(path: Path, key: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        where = f"{key}: " if key else ""
        raise LookRefused(f"{path}: {where}not a mapping of settings")
    return value


class _Reader:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.files: dict[str, Path] = {}

    def refuse(self, key: str, problem: str) -> LookRefused:
        return LookRefused(f"{self.path}: {key}: {problem}")

    def text(self, key: str, value: Any) -> str:
        if not isinstance(value, str):
            raise self.refuse(key, "not text")
        return value

    def look(self, data: dict[str, Any]) -> Look:
        allowed = {"theme", "copyright", "site_description", "site_author", "site_url"}
        allowed |= {"extra", "extra_css"}
        for key in data:
            if key in OWNED:
                raise self.refuse(key, "set by runsite; leave it out of mkdocs.yml")
            if key not in allowed:
                raise self.refuse(
                    key, "not a look runsite passes on (" + ", ".join(sorted(allowed)) + ")"
                )
        escaped = {
            key: html.escape(self.text(key, data[key]))
            for key in ("copyright", "site_description", "site_author")
            if key in data
        }
        extra = _mapping(self.path, "extra", data.get("extra", {}))
        for key in extra:
            if key != "generator":
                raise self.refuse(f"extra.{key}", "not a look runsite passes on (extra.generator)")
        generator = extra.get("generator")
        if generator is not None and not isinstance(generator, bool):
            raise self.refuse("extra.generator", "not true or false")
        css = data.get("extra_css", [])
        if not isinstance(css, list):
            raise self.refuse("extra_css", "not a list of stylesheets")
        return Look(
            theme=self.theme(_mapping(self.path, "theme", data.get("theme", {}))),
            copyright=escaped.get("copyright"),
            description=escaped.get("site_description"),
            author=escaped.get("site_author"),
            site_url=self.site_url(data["site_url"]) if "site_url" in data else None,
            generator=generator,
            files=self.files,
            css=tuple(self.file("extra_css", item, "stylesheets/user", (".css",)) for item in css),
        )

    def site_url(self, value: Any) -> str:
        url = self.text("site_url", value)
        if not ADDRESS.fullmatch(url):
            raise self.refuse("site_url", "not an http(s) address of where the site is served")
        return url

    def theme(self, data: dict[str, Any]) -> dict[str, Any]:
        allowed = {"name", "palette", "logo", "favicon", "icon", "features"}
        theme: dict[str, Any] = {}
        for key, value in data.items():
            where = f"theme.{key}"
            if key not in allowed:
                raise self.refuse(
                    where, "not a look runsite passes on (" + ", ".join(sorted(allowed)) + ")"
                )
            if key == "name" and value != "material":
                raise self.refuse(where, "runsite builds with material")
            if key == "palette":
                theme[key] = self.palette(value)
            elif key in ("logo", "favicon"):
                theme[key] = self.file(
                    where, value, "images/user", (".png", ".svg", ".ico", ".jpg", ".jpeg", ".webp")
                )
            elif key == "icon":
                theme[key] = self.icons(_mapping(self.path, where, value))
            elif key == "features":
                if not isinstance(value, list) or not all(f in _FEATURES for f in value):
                    raise self.refuse(where, "not a list of Material's features runsite allows")
                theme[key] = list(value)
        return theme

    def palette(self, value: Any) -> Any:
        schemes = value if isinstance(value, list) else [value]
        for scheme in schemes:
            scheme = _mapping(self.path, "theme.palette", scheme)
            for key, item in scheme.items():
                where = f"theme.palette.{key}"
                if key not in _PALETTE_KEYS:
                    raise self.refuse(where, "not a setting of a palette")
                if key in ("primary", "accent") and not _COLOUR.fullmatch(self.text(where, item)):
                    raise self.refuse(where, "not one of Material's colour names")
                if key == "toggle":
                    toggle = _mapping(self.path, where, item)
                    if not set(toggle) <= {"icon", "name"}:
                        raise self.refuse(where, "a toggle has an icon and a name only")
                    self.icon(f"{where}.icon", toggle.get("icon", "material/brightness-7"))
                    toggle["name"] = html.escape(self.text(f"{where}.name", toggle.get("name", "")))
                elif key in ("scheme", "media"):
                    self.text(where, item)
        return value

    def icons(self, data: dict[str, Any]) -> dict[str, Any]:
        for key, value in data.items():
            self.icon(f"theme.icon.{key}", value)
        return data

    def icon(self, key: str, value: Any) -> None:
        if not _ICON.fullmatch(self.text(key, value)):
            raise self.refuse(
                key, "not an icon the theme bundles (like material/chart-box-outline)"
            )

    def file(self, key: str, value: Any, folder: str, kinds: tuple[str, ...]) -> str:
        """A file beside ``mkdocs.yml`` the site copies, as its path inside the site."""
        name = self.text(key, value)
        relative = PurePosixPath(name)
        if relative.is_absolute() or ".." in relative.parts or "://" in name or not relative.parts:
            raise self.refuse(key, "not a file beside mkdocs.yml (a relative path inside it)")
        source = self.path.parent / relative
        if relative.suffix.lower() not in kinds or not source.is_file():
            raise self.refuse(key, f"no such file beside mkdocs.yml ({', '.join(kinds)})")
        target = f"{folder}/{'/'.join(relative.parts)}"
        self.files[target] = source
        return target
