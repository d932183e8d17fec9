"""The filter of the windows of a site's pages never rules out a run whose payload a page
carries; the kept pages' check reads no page for a run it rules out, and every kept page for
a run it does not, or where there is no filter to go on."""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import generator.guard.kept as kept_module
import generator.guard.own_pages as own_pages
import generator.guard.signatures as signatures
from generator.guard.scan import own_forms
from generator.guard.windows import Pieces, Windows, arrival, bits_for, ruled_out

markup = st.text(st.sampled_from("ab <>&'\"-/é\\"), min_size=8, max_size=30)
strings = st.one_of(markup, st.text(min_size=8, max_size=30)).filter(lambda s: len(s.strip()) >= 8)
"""Payload strings, many of them with markup in them (``<``, ``>``)."""


def _filter(folder: Path, pages: Sequence[bytes], bits: int, batch: int = 2) -> Windows:
    """The filter of ``pages``, a few to a batch as a build's processes wrap them, in a file of
    ``folder``."""
    windows = Windows(folder / "site.bits", bits)
    windows.make()
    batches = []
    for start in range(0, len(pages), batch):
        pieces = Pieces()
        for page in pages[start : start + batch]:
            pieces.add(page)
        batches.append(pieces.keep(bits, folder / "batches"))
    return windows.add(batches)


def _bits_set(windows: Windows) -> set[int]:
    """Every bit ``windows`` has set: in its file, and in those of the bits kept apart."""
    held = np.unpackbits(np.fromfile(windows.path, dtype=np.uint8), bitorder="little")
    later = [np.fromfile(windows.path.with_name(name), dtype=np.uint32) for name in windows.later]
    return set(np.flatnonzero(held).tolist()) | {bit for bits in later for bit in bits.tolist()}


def test_the_bits_of_one_rebuild_after_another_are_kept_apart_then_amended_in_as_at_once(
    tmp_path: Path,
):
    """Each rebuild's few bits go to a file beside the filter, until they are one in
    ``APART`` of its bits: then they are amended into it, and the files beside it go. Either
    way the filter holds the bits it would hold had each page been amended into it."""
    pages = [
        f"<p>page {n}: {' '.join(str(n * 7919 + k) for k in range(60))}</p>" for n in range(24)
    ]
    bits = 22  # 4,096 bits apart at most, some 1,000 a page: a fold every few rebuilds
    windows, amended = Windows(tmp_path / "built.bits", bits), Windows(tmp_path / "all.bits", bits)
    windows.make()
    amended.make()
    kept_apart, folded = 0, 0
    for n, page in enumerate(pages):
        pieces = Pieces()
        pieces.add(page.encode())
        batch = pieces.keep(bits, tmp_path / f"rebuild-{n}")
        before = len(windows.later)
        windows = windows.add([batch])
        amended.amend([batch])
        kept_apart += len(windows.later) > before
        folded += not windows.later
        assert _bits_set(windows) == _bits_set(amended)
    assert kept_apart > 3 and folded > 1


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(strings, min_size=1, max_size=3), min_size=1, max_size=4),
    st.lists(st.text(max_size=40), min_size=1, max_size=5),
    st.sampled_from([16, 20, 26]),
    st.data(),
)
def test_the_filter_never_rules_out_a_run_whose_form_a_page_carries(
    payloads: list[list[str]], texts: list[str], bits: int, data: st.DataObject
):
    """Pages of random text, markup among it, some with forms of the payload put in them, in
    any case; filters from nearly full (16 bits) to nearly empty."""
    pages = [text.encode("utf-8", "surrogatepass") for text in texts]
    for _ in range(data.draw(st.integers(0, 3))):
        string = data.draw(st.sampled_from([s for payload in payloads for s in payload]))
        form = data.draw(st.sampled_from(sorted(set(own_forms([string])))))
        cased = form.upper() if data.draw(st.booleans()) else form
        n = data.draw(st.integers(0, len(pages) - 1))
        at = data.draw(st.integers(0, len(pages[n])))
        pages[n] = pages[n][:at] + cased + pages[n][at:]
    with tempfile.TemporaryDirectory() as folder:
        windows = _filter(Path(folder), pages, bits)
        out = ruled_out(windows, [arrival(payload) for payload in payloads])
    for run in out:
        for form in own_forms(payloads[run]):
            assert not any(form in page.lower() for page in pages), (run, form)


PAGES = {
    "0.html": "<p>nothing of either</p>",
    "1.html": "<td>a -> b and more text</td>",
    "2.html": "<p><b>Jane Doe</b> of 4 Privet Drive</p>",
}
CLEAN = ["the model said nothing of it"]


def test_a_run_no_page_carries_is_ruled_out_unless_a_form_of_it_is_cut_too_short(
    tmp_path: Path,
):
    """Only a form with a segment of 8 bytes between its markup can be ruled out."""
    pages = [page.encode() for page in PAGES.values()]
    payloads = [
        ["The refund was approved"],
        CLEAN,
        ["a -> b and more text"],
        ["<b>tiny</b><i>bits</i>"],
        ["<b>Jane Doe</b> of 4 Privet Drive"],
        ["JANE DOE</B> OF 4 PRIVET"],
    ]
    assert arrival(payloads[3])[1] is None
    windows = _filter(tmp_path, pages, bits_for(len(pages)))
    assert ruled_out(windows, [arrival(payload) for payload in payloads]) == {0, 1}
    assert ruled_out(None, [arrival(payload) for payload in payloads]) == set()


def test_a_filter_cut_short_rules_out_nothing_past_its_end(tmp_path: Path):
    """A byte of the filter it cannot read sets every bit: no run is ruled out on a guess."""
    windows = _filter(tmp_path, [b"<p>nothing here</p>"], 16)
    assert ruled_out(windows, [arrival(CLEAN)]) == {0}
    windows.path.write_bytes(b"")
    assert ruled_out(windows, [arrival(CLEAN)]) == set()


def _site(folder: Path, pages: dict[str, str]) -> dict[str, str]:
    """Write ``pages`` into ``folder``: their digests, as a manifest keeps them."""
    for name, text in pages.items():
        (folder / name).write_text(text, encoding="utf-8")
    return {name: hashlib.sha256(text.encode()).hexdigest() for name, text in pages.items()}


def _checked(
    site: Path, windows: Windows | None, runs: list[list[str]], reads: list[str]
) -> kept_module.Kept:
    """The kept pages' check of ``runs`` arrived, with the filter ``windows``; the pages the
    second pass read are added to ``reads``."""
    expected = _site(site, PAGES)
    checker = kept_module.Checker(site, signatures.known(expected, {}), 2)
    for first in checker._first.values():
        first.result()
    contents = kept_module._contents

    def counted(path: str) -> kept_module.Read | None:
        reads.append(Path(path).name)
        return contents(path)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kept_module, "_contents", counted)
        return checker.finish([arrival(run) for run in runs], sorted(expected), windows)


@pytest.mark.parametrize("automaton", [10**6, 0])
@pytest.mark.parametrize("filtered", [True, False])
def test_the_check_reads_no_kept_page_for_a_run_ruled_out_and_every_one_for_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, automaton: int, filtered: bool
):
    """With the filter, a run no page carries costs no read, and a run a page may carry is
    sought in every kept page and found; without one, every run is sought in every page."""
    monkeypatch.setattr(own_pages, "AUTOMATON_FORMS", automaton)
    reads: list[str] = []
    site = tmp_path / "site"
    site.mkdir()
    pages = [page.encode() for page in PAGES.values()]
    windows = _filter(tmp_path, pages, bits_for(len(pages))) if filtered else None
    clean = _checked(site, windows, [CLEAN], reads)
    assert (clean.found, clean.altered, clean.ruled_out) == (
        {},
        frozenset(),
        frozenset({0}) if filtered else frozenset(),
    )
    assert reads == ([] if filtered else sorted(PAGES))
    reads.clear()
    carried = _checked(site, windows, [CLEAN, ["jane doe</b> of 4 privet drive"]], reads)
    assert carried.found == {"2.html": frozenset({1})}
    assert sorted(reads) == sorted(PAGES)


def test_a_check_without_a_filter_makes_one_of_the_kept_pages_it_reads(tmp_path: Path):
    """With no filter to go on and a run to seek, the check reads every kept page, and the
    filter it fills then rules out what the one a build makes would."""
    site = tmp_path / "site"
    site.mkdir()
    fresh = Windows(tmp_path / "fresh.bits", bits_for(len(PAGES)))
    fresh.make()
    expected = _site(site, PAGES)
    checked = kept_module.Checker(site, signatures.known(expected, {}), 2).finish(
        [arrival(CLEAN)], sorted(expected), None, fresh
    )
    assert checked.remade
    made = _filter(tmp_path, [page.encode() for page in PAGES.values()], fresh.bits)
    assert _bits_set(fresh) == _bits_set(made)
    assert ruled_out(fresh, [arrival(CLEAN), arrival(["A -> B and more text"])]) == {0}
    nothing = kept_module.Checker(site, signatures.known(expected, {}), 2).finish(
        [], sorted(expected), None, fresh
    )
    assert not nothing.remade


def test_a_filter_whose_file_is_gone_rules_nothing_out_and_is_not_made(tmp_path: Path):
    """The cache removed while a build runs (by hand, by ``git clean -fdx``): every run is
    sought in every kept page, and the check says it made no filter, so none is recorded."""
    site = tmp_path / "site"
    site.mkdir()
    gone = Windows(tmp_path / "gone.bits", 16)
    assert ruled_out(gone, [arrival(CLEAN)]) == set()
    expected = _site(site, PAGES)
    checked = kept_module.Checker(site, signatures.known(expected, {}), 2).finish(
        [arrival(["a -> b and more text"])], sorted(expected), None, gone
    )
    assert checked.found == {"1.html": frozenset({0})}
    assert not checked.remade
