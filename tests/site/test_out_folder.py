"""The folder a site goes to: runsite builds into a new or empty folder, a publishing checkout,
or a site it built (known by its manifest's content), and replaces or removes only the files
its manifest says it wrote, full builds too."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from click.testing import Result

import generator.publish.apply
from generator.publish.manifest import MANIFEST, PARTS, Manifest
from tests._helpers import a_run_at, git

pytestmark = pytest.mark.slow
"""Each test drives a browser or builds whole sites: ``make test-fast`` leaves them out."""


def _tree(folder: Path) -> dict[str, bytes | str]:
    """Every file under ``folder`` with its bytes, and every link with its target, links not
    followed."""
    found: dict[str, bytes | str] = {}
    for place, folders, names in os.walk(folder):
        for name in [*names, *(f for f in folders if os.path.islink(os.path.join(place, f)))]:
            path = Path(place, name)
            relative = path.relative_to(folder).as_posix()
            found[relative] = os.readlink(path) if path.is_symlink() else path.read_bytes()
    return found


def _build(runsite: Callable[..., Result], archive: Path, out: Path, *extra: str) -> Result:
    return runsite("build", "--root", str(archive), "--out", str(out), *extra)


def _refused(runsite: Callable[..., Result], archive: Path, out: Path) -> list[str]:
    """What a build into ``out`` says, plain and then with ``--full``: refused both times."""
    said = []
    for extra in ((), ("--full",)):
        result = _build(runsite, archive, out, *extra)
        assert result.exit_code == 64, result.output
        said.append(result.stderr)
    return said


def _grow(archive: Path, runsite: Callable[..., Result], second: int) -> None:
    path = archive.parent / f"run-{second}.json"
    path.write_text(json.dumps(a_run_at(second)), encoding="utf-8")
    assert runsite("import", "--root", str(archive), str(path)).exit_code == 0


@pytest.fixture
def grown(archive: Path, runsite: Callable[..., Result]) -> Path:
    """The archive with two runs of one suite."""
    for second in (1, 2):
        _grow(archive, runsite, second)
    return archive


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A folder of someone's: notes, keys, and a file beside it."""
    folder = tmp_path / "home"
    (folder / ".ssh").mkdir(parents=True)
    (folder / ".ssh" / "id_ed25519").write_text("private key")
    (folder / "notes.txt").write_text("keep me")
    (folder / "runs").mkdir()
    (folder / "runs" / "plan.txt").write_text("mine too")
    (tmp_path / "beside.txt").write_text("beside the folder")
    return folder


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _crafted(files: dict[str, str], runs: list[str] | None = None) -> bytes:
    """A manifest of the shape runsite writes, listing ``files`` (and ``runs``)."""
    return json.dumps(
        {"shells": "0" * 64, "captured": "0" * 64, "runs": runs or [], "bodies": {}, "files": files}
    ).encode()


def _planted(home: Path) -> dict[str, bytes]:
    notes, key = (home / "notes.txt").read_bytes(), (home / ".ssh" / "id_ed25519").read_bytes()
    beside = (home.parent / "beside.txt").read_bytes()
    return {
        "empty": b"",
        "garbage": b"\x00\xff{not json",
        "of another shape": b'{"files": {"notes.txt": "x"}}',
        "nested past the parser's depth": b"[" * 100_000,
        "listing the folder's files": _crafted(
            {"notes.txt": _digest(notes), ".ssh/id_ed25519": _digest(key)}
        ),
        "listing a file beside it": _crafted({"../beside.txt": _digest(beside)}),
        "listing a file through a site's folder": _crafted({"runs/../notes.txt": _digest(notes)}),
        "listing an absolute path": _crafted({str(home.parent / "beside.txt"): _digest(beside)}),
        "listing a git checkout's file": _crafted({".git/config": "0" * 64}),
        "listing a file without its digest": _crafted({"runs/plan.txt": "x"}),
        "listing a run that is no object id": _crafted({"index.html": "0" * 64}, ["g" * 40]),
        "listing two runs' ids in one": _crafted(
            {"index.html": "0" * 64}, ["a" * 40 + "\n" + "b" * 40]
        ),
    }


PLANTED = [
    "empty",
    "garbage",
    "of another shape",
    "nested past the parser's depth",
    "listing the folder's files",
    "listing a file beside it",
    "listing a file through a site's folder",
    "listing an absolute path",
    "listing a git checkout's file",
    "listing a file without its digest",
    "listing a run that is no object id",
    "listing two runs' ids in one",
]


@pytest.mark.parametrize("planted", PLANTED)
def test_a_folder_with_a_planted_manifest_is_refused_and_nothing_in_it_is_touched(
    grown: Path, runsite: Callable[..., Result], home: Path, planted: str
):
    (home / MANIFEST).write_bytes(_planted(home)[planted])
    before = _tree(home)
    refusal = (
        f"runsite: {home / MANIFEST}: not a manifest runsite wrote, so {home} is a folder "
        "runsite did not build; give --out an empty or new folder\n"
    )
    assert _refused(runsite, grown, home) == [refusal, refusal]
    assert _tree(home) == before
    assert (home.parent / "beside.txt").read_text() == "beside the folder"


@pytest.mark.parametrize("planted", ["listing a file beside it", "listing an absolute path"])
def test_a_manifest_planted_over_the_one_a_build_wrote_is_refused_as_well(
    grown: Path, runsite: Callable[..., Result], home: Path, planted: str
):
    """A build takes the manifest it wrote last as its own without testing it again: that
    holds for those bytes alone, and a manifest put there since is tested as any other."""
    site = home.parent / "site"
    assert _build(runsite, grown, site).exit_code == 0
    (site / MANIFEST).write_bytes(_planted(home)[planted])
    before = _tree(site)
    result = _build(runsite, grown, site)
    assert (result.exit_code, result.stderr) == (
        64,
        f"runsite: {site / MANIFEST}: not a manifest runsite wrote, so {site} is a folder "
        "runsite did not build; give --out an empty or new folder\n",
    )
    assert _tree(site) == before
    assert (home.parent / "beside.txt").read_text() == "beside the folder"


def test_a_manifest_that_is_a_link_to_a_real_one_is_not_a_manifest(
    grown: Path, runsite: Callable[..., Result], home: Path
):
    site = home.parent / "site"
    assert _build(runsite, grown, site).exit_code == 0
    (home / MANIFEST).symlink_to(site / MANIFEST)
    before = _tree(home)
    assert _build(runsite, grown, home, "--full").exit_code == 64
    assert _tree(home) == before


def test_a_real_manifest_copied_from_another_site_takes_nothing_of_the_folders_own(
    grown: Path, runsite: Callable[..., Result], home: Path
):
    """A manifest runsite wrote, copied into someone's folder: the folder is taken for a site
    runsite built, and the build writes the site into it, but removes none of its files, full
    or not, nor when the site's pages move and those the manifest listed go."""
    site = home.parent / "site"
    assert _build(runsite, grown, site).exit_code == 0
    shutil.copy(site / MANIFEST, home / MANIFEST)
    shutil.copytree(site / PARTS, home / PARTS)
    theirs = {name: data for name, data in _tree(home).items() if not _manifests(name)}
    for extra in ((), ("--full",), ()):
        result = _build(runsite, grown, home, *extra)
        assert result.exit_code == 0, result.output
        assert _tree(home).items() >= theirs.items()
    page = next((home / "it" / "runs").rglob("index.html"))
    (page.parent / "notes.txt").write_text("mine, in a folder of the site")
    theirs = {name: data for name, data in _tree(home).items() if not _listed(home, name)}
    config = grown / "runsite.toml"
    config.write_text(config.read_text().replace('language = "en"', 'language = "it"'))
    _grow(grown, runsite, 3)
    assert _build(runsite, grown, home).exit_code == 0
    assert not page.exists()  # the Italian pages moved to the top, and their old copies went
    assert _tree(home).items() >= theirs.items()


def _listed(site: Path, name: str) -> bool:
    manifest = Manifest.read(site)
    assert manifest is not None
    return _manifests(name) or name in manifest.files


def _manifests(name: str) -> bool:
    """Whether ``name`` is the manifest's top file or one of its parts."""
    return name == MANIFEST or name.startswith(f"{PARTS}/")


def _pages_checkout(tmp_path: Path) -> Path:
    """A fresh clone of a ``gh-pages`` branch: its ``.git``, a ``CNAME`` and a ``.nojekyll``."""
    pages = tmp_path / "pages"
    pages.mkdir()
    git(pages, "init", "-q", "-b", "gh-pages")
    (pages / "CNAME").write_text("evals.example.org\n")
    (pages / ".nojekyll").write_text("")
    git(pages, "add", "-A")
    git(pages, "commit", "-q", "-m", "Pages")
    return pages


def _same_site(site: Path, other: Path) -> None:
    """``site`` holds every file of ``other``'s manifest as ``other`` has it."""
    manifest = Manifest.read(other)
    assert manifest is not None
    assert Manifest.read(site) == manifest
    for file in manifest.files:
        assert (site / file).read_bytes() == (other / file).read_bytes(), file


def test_a_gh_pages_checkout_keeps_its_git_and_cname_through_every_build(
    grown: Path, runsite: Callable[..., Result], tmp_path: Path
):
    pages = _pages_checkout(tmp_path)
    checkout = _tree(pages)
    assert _build(runsite, grown, pages).exit_code == 0
    assert _tree(pages).items() >= checkout.items()
    for extra in (("--full",), ()):
        (pages / "index.html").write_text("edited by hand")
        page = next((pages / "runs").rglob("index.html"))
        page.write_text("edited by hand")
        result = _build(runsite, grown, pages, *extra)
        assert result.exit_code == 0, result.output
        assert _tree(pages).items() >= checkout.items()
    _grow(grown, runsite, 3)
    assert _build(runsite, grown, pages).exit_code == 0
    assert _tree(pages).items() >= checkout.items()
    assert _build(runsite, grown, tmp_path / "full", "--full").exit_code == 0
    _same_site(pages, tmp_path / "full")
    git(pages, "add", "-A")
    git(pages, "commit", "-q", "-m", "The site")
    assert git(pages, "status", "--porcelain") == ""
    assert _build(runsite, grown, pages, "--full").exit_code == 0
    assert git(pages, "status", "--porcelain") == ""  # the same bytes again, and .git whole


def test_a_sites_own_folders_keep_the_files_put_in_them_by_hand(
    grown: Path, runsite: Callable[..., Result], tmp_path: Path
):
    site = tmp_path / "site"
    assert _build(runsite, grown, site).exit_code == 0
    mine = {
        "CNAME": b"evals.example.org\n",
        ".well-known/security.txt": b"Contact: mailto:security@example.org\n",
        "assets/mine.js": b"// mine\n",
        "runs/notes.txt": b"mine\n",
    }
    page = next((site / "runs").rglob("index.html"))
    mine[f"{page.parent.relative_to(site).as_posix()}/draft.html"] = b"<p>mine</p>\n"
    for name, data in mine.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_bytes(data)
    for extra in (("--full",), ()):
        page.write_text("edited by hand")
        result = _build(runsite, grown, site, *extra)
        assert result.exit_code == 0, result.output
        assert {name: _tree(site)[name] for name in mine} == mine
    assert _build(runsite, grown, tmp_path / "full", "--full").exit_code == 0
    _same_site(site, tmp_path / "full")


def test_a_link_in_place_of_a_sites_folder_is_not_written_through(
    grown: Path, runsite: Callable[..., Result], tmp_path: Path
):
    """The site's ``runs/`` moved elsewhere and linked to: a build that finds its pages there
    as it wrote them keeps them, and one that would write there is refused, full or not."""
    site = tmp_path / "site"
    assert _build(runsite, grown, site).exit_code == 0
    elsewhere = tmp_path / "elsewhere"
    shutil.move(site / "runs", elsewhere)
    (elsewhere / "notes.txt").write_text("keep me")
    (site / "runs").symlink_to(elsewhere)
    before, behind = _tree(site), _tree(elsewhere)
    assert _build(runsite, grown, site).exit_code == 0
    assert (_tree(site), _tree(elsewhere)) == (before, behind)
    _grow(grown, runsite, 3)
    refusal = (
        f"runsite: {site / 'runs'}: in the way of a file of the site, and not one runsite "
        "wrote; move it, or give --out another folder\n"
    )
    assert _refused(runsite, grown, site) == [refusal, refusal]
    assert (_tree(site), _tree(elsewhere)) == (before, behind)


def test_a_file_of_someone_elses_where_the_site_puts_one_is_refused_and_kept(
    grown: Path, runsite: Callable[..., Result], tmp_path: Path
):
    """The site's language changes, and the English pages go to ``en/``, where a file of
    someone else's stands: nothing moves, and the last site stays whole."""
    site = tmp_path / "site"
    assert _build(runsite, grown, site).exit_code == 0
    (site / "en").write_text("mine")
    before = _tree(site)
    config = grown / "runsite.toml"
    config.write_text(config.read_text().replace('language = "en"', 'language = "it"'))
    for said in _refused(runsite, grown, site):
        assert said.startswith(f"runsite: {site / 'en'}: in the way of a file")
    assert _tree(site) == before


def test_a_build_stopped_among_its_moves_leaves_a_folder_the_next_build_finishes(
    grown: Path, runsite: Callable[..., Result], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Into a folder that also holds a checkout's files, a build moves its files one by one,
    the new run's pages first: stopped after three, the folder's manifest names every file it
    moved, and the next build takes them for runsite's."""
    pages = _pages_checkout(tmp_path)
    assert _build(runsite, grown, pages).exit_code == 0
    _grow(grown, runsite, 3)
    moves = generator.publish.apply.update

    def stopped(built: Path, out: Path, files: Iterable[str], gone: Iterable[str]) -> None:
        first = sorted(files, key=lambda file: (generator.publish.apply._rank(file), file))[:3]
        assert all("/runs/" in f"/{file}" or "/diffs/" in f"/{file}" for file in first)
        moves(built, out, first, [])
        raise KeyboardInterrupt

    monkeypatch.setattr(generator.publish.apply, "update", stopped)
    assert _build(runsite, grown, pages).exit_code == 130
    monkeypatch.undo()
    assert _build(runsite, grown, pages).exit_code == 0
    assert _build(runsite, grown, tmp_path / "full", "--full").exit_code == 0
    _same_site(pages, tmp_path / "full")
    assert (pages / "CNAME").read_text() == "evals.example.org\n"
    assert git(pages, "log", "--format=%s") == "Pages\n"


def test_a_publishing_checkout_with_a_file_of_its_own_is_refused(
    grown: Path, runsite: Callable[..., Result], tmp_path: Path
):
    pages = _pages_checkout(tmp_path)
    (pages / "README.md").write_text("# Pages\n")
    before = _tree(pages)
    result = _build(runsite, grown, pages)
    assert result.exit_code == 64
    assert result.stderr == (
        f"runsite: {pages}: a folder runsite did not build; give --out an empty or new folder\n"
    )
    assert _tree(pages) == before
