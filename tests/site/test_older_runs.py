"""A suite of more than a hundred runs: its page shows the latest hundred and leads to the rest,
a hundred to a page in the order they arrived, in both languages. A full block's page is
written once and kept as a run's page is: a rebuild writes one only when a block fills (or the
suite's reference moves), gives a full build's bytes, and sieves a kept block for the payload
of the runs that arrived, as the first build sieved it for every run's."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from click.testing import CliRunner, Result
from markupsafe import escape

from generator.cli import cli
from generator.publish.manifest import Manifest
from generator.site.history import BLOCK, RECENT
from generator.site.labels import LABELS
from tests._helpers import MARKERS, a_planted_run, a_run_at, leaks_confirmed
from tests.conftest import git_identity

pytestmark = pytest.mark.slow
"""Each test builds a site of two hundred runs: ``make test-fast`` leaves them out."""

RUNS = 2 * BLOCK + 5
"""The runs of ``support``: two full blocks, and five more."""
PLANTED = 7
"""The run of ``support`` with a marker in every payload field, in the first block."""
OTHER_TARGET = 3
"""The run of ``support`` that measured another model, before its latest hundred runs."""
LANGUAGES = {"en": "", "it": "it/"}


def _run(n: int) -> dict[str, Any]:
    """The ``n``th run of ``support``."""
    run = a_run_at(n)
    if n == PLANTED:
        run = a_planted_run() | {"created_at": run["created_at"]}
    if n == OTHER_TARGET:
        run["target_config"]["values"]["model"] = "older-model"
    return run


def _runsite(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def _import(root: Path, runs: dict[str, dict[str, Any]]) -> None:
    """Archive ``runs``, by file name, in one import."""
    incoming = root.parent / "incoming"
    shutil.rmtree(incoming, ignore_errors=True)
    incoming.mkdir()
    for name, run in runs.items():
        (incoming / name).write_text(json.dumps(run), encoding="utf-8")
    result = _runsite("import", "--root", str(root), str(incoming))
    assert result.exit_code == 0, result.output


def _build(root: Path, out: Path, *extra: str) -> Result:
    return _runsite("build", "--root", str(root), "--out", str(out), *extra)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding ``archive/`` (``RUNS`` runs of ``support``, two of ``billing``) and
    ``site/``, its build."""
    folder = tmp_path_factory.mktemp("older")
    with git_identity():
        root = folder / "archive"
        assert _runsite("init", str(root)).exit_code == 0
        runs = {f"support-{n}.json": _run(n) for n in range(RUNS)}
        runs |= {f"billing-{n}.json": a_run_at(n, suite="billing") for n in (1, 2)}
        _import(root, runs)
        result = _build(root, folder / "site")
        assert result.exit_code == 0, result.output
    return folder


@pytest.fixture
def grown(made: Path, tmp_path: Path) -> Iterator[Path]:
    """A copy of ``made`` for a test to add runs to and build again, built once where it now is:
    so its next build goes on the records the cache keeps of that folder (the blocks of runs its
    pages were planned in), as a user's next build would."""
    copy = tmp_path / "copy"
    shutil.copytree(made, copy, symlinks=True)
    with git_identity():
        assert _build(copy / "archive", copy / "site").exit_code == 0
        yield copy


def _keys(root: Path) -> list[str]:
    """The keys of ``support``'s runs, in the order they were measured."""
    return sorted(path.stem for path in (root / "runs" / "acme" / "support").glob("*.json"))


def _section(page: str, start: str, end: str) -> str:
    """The part of ``page`` from ``start`` to the first ``end`` after it."""
    begun = page.index(start)
    return page[begun : page.index(end, begun)]


def _run_links(table: str) -> list[str]:
    """The run keys a table of runs links, row by row."""
    return re.findall(r'<th scope="row"><a href="[^"]*runs/acme/support/([^/"]+)/">', table)


def _broken(site: Path, page: Path) -> list[str]:
    """Every link of ``page`` to a page or file of ``site`` that finds none."""
    text = page.read_text(encoding="utf-8")
    broken = []
    for link in re.findall(r'href="([^"#?]*)', text):
        if not link or link.startswith(("/", "http:", "https:")):
            continue
        target = page.parent / unquote(link)
        if not (target.is_file() or (target / "index.html").is_file()):
            broken.append(link)
    return broken


@pytest.mark.parametrize("locale", LANGUAGES)
def test_a_suites_page_lists_its_latest_hundred_runs_and_leads_to_each_full_block(
    made: Path, locale: str
):
    site, t = made / "site" / LANGUAGES[locale], LABELS[locale]
    page = (site / "suites/acme/support/index.html").read_text(encoding="utf-8")
    runs = _section(page, f"<h2>{t['suite.runs']}</h2>", "</table>")
    assert _run_links(runs) == list(reversed(_keys(made / "archive")))[:RECENT]
    older = _section(page, '<h2 id="older">', "</ul>")
    links = re.findall(r'<li><a href="([^"]+)">([^<]+)</a>, ', older)
    labels = [
        t["older.runs"].format(first=first, last=last) for first, last in ((101, 200), (1, 100))
    ]
    assert links == [("older/1/", labels[0]), ("older/0/", labels[1])]
    assert sorted(p.parent.name for p in site.glob("suites/acme/support/older/*/index.html")) == [
        "0",
        "1",
    ]
    billing = (site / "suites/acme/billing/index.html").read_text(encoding="utf-8")
    assert 'id="older"' not in billing and not (site / "suites/acme/billing/older").exists()


@pytest.mark.parametrize("locale", LANGUAGES)
def test_a_block_lists_its_hundred_runs_newest_first_and_leads_to_the_block_before_and_back(
    made: Path, locale: str
):
    site, t = made / "site" / LANGUAGES[locale], LABELS[locale]
    keys = _keys(made / "archive")
    for n in (0, 1):
        path = site / f"suites/acme/support/older/{n}/index.html"
        page = path.read_text(encoding="utf-8")
        title = t["older.title"].format(
            suite="acme · support", first=n * BLOCK + 1, last=(n + 1) * BLOCK
        )
        assert f"<h1>{title}</h1>" in page
        assert f"<title>{title} - " in page
        assert _run_links(page) == list(reversed(keys[n * BLOCK : (n + 1) * BLOCK]))
        assert f'href="../../#older">{escape(t["older.after"])}&nbsp;→</a>' in page
        before = re.findall(r'<a href="([^"]+)" rel="prev">←&nbsp;([^<]+)</a>', page)
        assert before == ([("../0/", t["older.runs"].format(first=1, last=100))] if n else [])
        assert _broken(made / "site", path) == []
        other = "it/" if locale == "en" else ""
        assert f'hreflang="{"it" if locale == "en" else "en"}"' in page
        assert (made / "site" / other / f"suites/acme/support/older/{n}/index.html").is_file()


def test_every_block_is_in_the_manifest_with_its_body_and_shows_no_payload(made: Path):
    site = made / "site"
    manifest = Manifest.read(site)
    assert manifest is not None
    blocks = [
        f"{folder}suites/acme/support/older/{n}/index.html"
        for folder in ("", "it/")
        for n in (0, 1)
    ]
    assert all(block in manifest.bodies and block in manifest.files for block in blocks)
    shown = {
        (block, field)
        for block in blocks
        for field, marker in MARKERS.items()
        if marker in (site / block).read_text(encoding="utf-8")
    }
    assert shown == set()
    planted = sorted(path.stem for path in (made / "archive/runs/acme/support").glob("*.json"))
    assert planted[PLANTED] in (site / blocks[0]).read_text(encoding="utf-8")


def test_the_search_finds_every_run_once_in_each_language(made: Path):
    for folder in LANGUAGES.values():
        index = json.loads((made / "site" / folder / "search/search_index.json").read_text())
        runs = [e["location"] for e in index["docs"] if e["location"].startswith("runs/acme/")]
        assert len(runs) == len(set(runs)) == RUNS + 2


def test_the_sites_board_spans_the_latest_hundred_runs_and_runsite_board_the_whole_history(
    made: Path,
):
    """The model measured only before the latest hundred runs has no board on the site; the
    command reads every run."""
    assert not list((made / "site").glob("**/boards/acme/support/index.html"))
    result = _runsite("board", "support", "--json", "--root", str(made / "archive"))
    assert result.exit_code == 0, result.output
    board = json.loads(result.stdout)
    named = [target["label"] for target in [*board["targets"], *board.get("apart", [])]]
    assert any("older-model" in label for label in named)


def _inodes(site: Path) -> dict[str, int]:
    return {p.relative_to(site).as_posix(): p.stat().st_ino for p in site.rglob("*") if p.is_file()}


def _unlike_a_full_build(folder: Path) -> list[str]:
    """The files in which ``folder``'s site differs from a full build of its archive."""
    full = folder / "full"
    assert _build(folder / "archive", full, "--full").exit_code == 0
    site = {
        p.relative_to(folder / "site"): p.read_bytes()
        for p in (folder / "site").rglob("*")
        if p.is_file()
    }
    made = {p.relative_to(full): p.read_bytes() for p in full.rglob("*") if p.is_file()}
    return sorted(
        str(file) for file in site.keys() | made.keys() if site.get(file) != made.get(file)
    )


def _blocks_changed(before: dict[str, int], after: dict[str, int]) -> set[str]:
    return {f for f, inode in after.items() if "/older/" in f and before.get(f) != inode}


def test_one_more_run_keeps_every_block_and_gives_a_full_builds_bytes(grown: Path):
    site = grown / "site"
    before = _inodes(site)
    _import(grown / "archive", {"more.json": a_run_at(RUNS)})
    result = _build(grown / "archive", site)
    assert result.exit_code == 0, result.output
    assert "(4 written, " in result.stdout
    assert _blocks_changed(before, _inodes(site)) == set()
    assert _unlike_a_full_build(grown) == []


def test_the_run_that_fills_a_block_writes_its_page_once_in_each_language(grown: Path):
    root, site = grown / "archive", grown / "site"
    _import(root, {f"{n}.json": a_run_at(n) for n in range(RUNS, 3 * BLOCK - 1)})
    assert _build(root, site).exit_code == 0
    before = _inodes(site)
    _import(root, {"filling.json": a_run_at(3 * BLOCK - 1)})
    result = _build(root, site)
    assert result.exit_code == 0, result.output
    assert "(6 written, " in result.stdout
    filled = {f"{folder}suites/acme/support/older/2/index.html" for folder in ("", "it/")}
    assert _blocks_changed(before, _inodes(site)) == filled
    page = (site / "suites/acme/support/index.html").read_text(encoding="utf-8")
    assert '<a href="older/2/">Runs 201–300</a>' in page
    assert _unlike_a_full_build(grown) == []


def _bodies(site: Path) -> dict[str, str]:
    manifest = Manifest.read(site)
    assert manifest is not None
    return {file: body for file, body in manifest.bodies.items() if "/older/" in file}


def test_a_new_reference_writes_every_block_again_as_a_full_build_would(grown: Path):
    """Each block shows its runs against the reference: a new one makes each block anew (the
    one holding it then marks it), and the site a full build's."""
    root, site = grown / "archive", grown / "site"
    before, bodies = _inodes(site), _bodies(site)
    result = _runsite("baseline", "set", f"support@latest~{RUNS - 5}", "--root", str(root))
    assert result.exit_code == 0, result.output
    assert _build(root, site).exit_code == 0
    made = _bodies(site)
    assert made.keys() == bodies.keys() and all(made[f] != bodies[f] for f in made)
    holding = {f"{folder}suites/acme/support/older/0/index.html" for folder in ("", "it/")}
    assert holding <= _blocks_changed(before, _inodes(site))
    assert "★" in (site / "suites/acme/support/older/0/index.html").read_text(encoding="utf-8")
    assert _unlike_a_full_build(grown) == []


def test_a_kept_block_showing_a_new_runs_payload_fails_the_rebuild(
    grown: Path, monkeypatch: pytest.MonkeyPatch
):
    """A new run whose answer is an old run's commit, which the old run's block shows: the check
    of the kept pages finds it there."""
    found = leaks_confirmed(monkeypatch)
    root, site = grown / "archive", grown / "site"
    published = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    new = a_run_at(RUNS) | {"git_commit": "f" * 40}
    new["results"][0]["responses"][0]["output"] = a_run_at(0)["git_commit"]
    _import(root, {"new.json": new})
    result = _build(root, site)
    assert result.exit_code == 64
    assert "carries the payload of results[0].responses[0].output" in result.stderr
    blocks = {
        f"{folder}suites/acme/support/older/{n}/index.html"
        for folder in ("", "it/")
        for n in (0, 1)
    }
    assert blocks <= {leak.file for leak in found}
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == published
