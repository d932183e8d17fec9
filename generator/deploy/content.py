"""What a publish puts on the pages branch.

The files of the site ``runsite build`` wrote, and no other: those its manifest lists, each read
back and checked against the digest the build kept of it, since only those bytes passed its
leak scan. A file changed after the build, or put into the site's folder by hand, never leaves
the machine. The manifest stays home (it says what the site was made of, for the next build);
``.nojekyll`` goes, so that GitHub Pages serves the site's files as they are, and ``CNAME``
where the site has a domain of its own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from generator.archive.archive import Moved
from generator.errors import Refused
from generator.guard.kept import content_digest
from generator.publish.manifest import Manifest, regular_bytes

NOJEKYLL = ".nojekyll"
CNAME = "CNAME"

_DOMAIN = re.compile(r"(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}")


class PublishRefused(Refused):
    """The site cannot be published as asked; nothing left the machine."""


def domain(cname: str) -> str:
    """``cname`` as ``CNAME`` names it, refused where it is not a domain name."""
    if not _DOMAIN.fullmatch(cname.lower()):
        raise PublishRefused("--cname: not a domain name (such as evals.example.com)")
    return cname.lower()


def site_files(out: Path, cname: str | None) -> dict[str, bytes]:
    """Every file the branch is to hold, by its path in the site, from the site built at
    ``out``; with a ``CNAME`` naming the domain ``cname`` where given."""
    manifest = Manifest.read(out)
    if manifest is None:
        raise PublishRefused(f"{out}: no site runsite built; nothing was published")
    files: dict[str, bytes] = {}
    for name, digest in sorted(manifest.files.items()):
        data = regular_bytes(out / name)
        if data is None or content_digest(data) != digest:
            raise PublishRefused(
                f"{out / name}: not what the build wrote and scanned; "
                "build again: nothing was published"
            )
        files[name] = data
    files[NOJEKYLL] = b""
    if cname is not None:
        files[CNAME] = f"{cname}\n".encode()
    return files


@dataclass(frozen=True)
class Difference(Moved):
    """How the site to publish differs from the branch's: paths in the site."""

    def __str__(self) -> str:
        counts = ((self.added, "added"), (self.changed, "changed"), (self.removed, "removed"))
        said = [
            f"{len(paths)} {'file' if len(paths) == 1 else 'files'} {how}"
            for paths, how in counts
            if paths
        ]
        return ", ".join(said) or "no file changed"


def difference(wanted: Mapping[str, str], present: Mapping[str, str]) -> Difference:
    """What moves when a tree of ``present`` (path to blob id) becomes one of ``wanted``."""
    return Difference(
        tuple(sorted(wanted.keys() - present.keys())),
        tuple(sorted(p for p in wanted.keys() & present.keys() if wanted[p] != present[p])),
        tuple(sorted(present.keys() - wanted.keys())),
    )
