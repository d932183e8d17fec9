"""The store of the pieces of a site's pages never rules out a run whose payload a page carries;
the kept pages' check reads no page for a run it rules out, and every kept page for a run it
does not, or where it has no store to go on."""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import generator.guard.kept as kept_module
import generator.guard.pieces as pieces_module
import generator.guard.sieve as sieve_module
from generator.guard.pieces import Store, arrived, keep, keep_batch, pieces_of
from generator.guard.scan import own_forms

MANIFEST = "m" * 64

markup = st.text(st.sampled_from("ab <>&'\"-/é\\"), min_size=8, max_size=30)
strings = st.one_of(markup, st.text(min_size=8, max_size=30)).filter(lambda s: len(s.strip()) >= 8)
"""Payload strings, many of them with markup in them (``<``, ``>``)."""


def _made(folder: Path, pages: Sequence[bytes], batch: int = 2) -> Path:
    """The store of ``pages`` (a few to a batch, as a build's chunks are), recorded for the site
    whose manifest is ``MANIFEST``: where its record is."""
    record = folder / "site.pieces"
    batches = [
        keep_batch(folder / "batches", set().union(*map(pieces_of, pages[n : n + batch])))
        for n in range(0, len(pages), batch)
    ]
    keep(record, None, batches, MANIFEST)
    return record


def _absent(record: Path, payloads: Sequence[Sequence[str]]) -> set[int]:
    store = Store.read(record, MANIFEST)
    assert store is not None
    with ThreadPoolExecutor(2) as pool:
        return store.absent([arrived(payload)[1] for payload in payloads], pool, 2)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(strings, min_size=1, max_size=3), min_size=1, max_size=4),
    st.lists(st.text(max_size=40), min_size=1, max_size=5),
    st.sampled_from([16, 1 << 20]),
    st.sampled_from([10**6, 0]),
    st.data(),
)
def test_the_store_never_rules_out_a_run_whose_form_a_page_of_it_carries(
    payloads: list[list[str]],
    texts: list[str],
    block: int,
    automaton: int,
    data: st.DataObject,
):
    """Pages of random text, markup among it, some with forms of the payload put in them, in
    any case; the store read in blocks cut small or not, sieved with the automaton or the
    arrays."""
    pages = [text.encode("utf-8", "surrogatepass") for text in texts]
    for _ in range(data.draw(st.integers(0, 3))):
        string = data.draw(st.sampled_from([s for payload in payloads for s in payload]))
        form = data.draw(st.sampled_from(sorted(set(own_forms([string])))))
        cased = form.upper() if data.draw(st.booleans()) else form
        n = data.draw(st.integers(0, len(pages) - 1))
        at = data.draw(st.integers(0, len(pages[n])))
        pages[n] = pages[n][:at] + cased + pages[n][at:]
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setattr(pieces_module, "BLOCK", block)
        patch.setattr(sieve_module, "AUTOMATON_FORMS", automaton)
        ruled_out = _absent(_made(Path(folder), pages), payloads)
    for run in ruled_out:
        for form in own_forms(payloads[run]):
            assert not any(form in page.lower() for page in pages), (run, form)


def test_a_run_whose_forms_no_page_carries_is_ruled_out_unless_a_form_is_cut_too_short():
    """Only a form with a segment of ``LEAST`` bytes can be ruled out: markup cut into short
    bits cannot."""
    pages = [b"<p>The refund was <b>approved</b> a -> b and more text</p>"]
    payloads = [
        ["The refund was approved"],
        ["the model said nothing of it"],
        ["a -> b and more text"],
        ["<b>tiny</b><i>bits</i>"],
        ["<b>Jane Doe</b> of 4 Privet Drive"],
    ]
    assert arrived(payloads[3])[1] is None
    with tempfile.TemporaryDirectory() as folder:
        assert _absent(_made(Path(folder), pages), payloads) == {0, 1, 4}


def _site(folder: Path, pages: dict[str, str]) -> dict[str, str]:
    """Write ``pages`` into ``folder``: their digests, as a manifest keeps them."""
    for name, text in pages.items():
        (folder / name).write_text(text, encoding="utf-8")
    return {name: hashlib.sha256(text.encode()).hexdigest() for name, text in pages.items()}


PAGES = {
    "0.html": "<p>nothing of either</p>",
    "1.html": "<td>a -> b and more text</td>",
    "2.html": "<p><b>Jane Doe</b> of 4 Privet Drive</p>",
}
CLEAN = ["the model said nothing of it"]


def _checked(
    site: Path, expected: dict[str, str], store: Path, runs: list[list[str]], reads: list[str]
) -> kept_module.Kept:
    """The kept pages' check of ``runs`` arrived, with the store recorded at ``store``; the
    pages the second pass read are added to ``reads``."""
    checker = kept_module.Checker(site, expected, 2, None, (store, MANIFEST))
    for first in checker._first.values():
        first.result()
    contents = kept_module._contents

    def counted(path: Path) -> kept_module.Read | None:
        reads.append(path.name)
        return contents(path)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kept_module, "_contents", counted)
        return checker.finish([arrived(run) for run in runs], sorted(expected))


def test_the_check_reads_no_kept_page_for_a_run_the_store_rules_out(tmp_path):
    """Markup in the pages and in the payload: a run on a kept page is found, a run on none is
    not sought (no page read), and the store found is not made anew."""
    site = tmp_path / "site"
    site.mkdir()
    expected = _site(site, PAGES)
    record = _made(tmp_path, [page.encode() for page in PAGES.values()])
    reads: list[str] = []
    checked = _checked(site, expected, record, [CLEAN], reads)
    assert (checked.found, reads, checked.remade) == ({}, [], None)
    payloads = [CLEAN, ["A -> B and more text"], ["<b>Jane Doe</b> of 4 Privet Drive"]]
    checked = _checked(site, expected, record, payloads, reads)
    assert checked.found == {"1.html": frozenset({1}), "2.html": frozenset({2})}
    assert sorted(reads) == sorted(PAGES)


@pytest.mark.parametrize("store", ["missing", "of another site", "grown"])
def test_the_check_reads_every_kept_page_without_a_store_and_makes_one_of_them(
    tmp_path, store: str, monkeypatch: pytest.MonkeyPatch
):
    """A store gone or covering another site rules nothing out; one grown past ``GROWN`` still
    does. Either way the check makes a store anew of the kept pages, which the build then
    records."""
    site = tmp_path / "site"
    site.mkdir()
    expected = _site(site, PAGES)
    record = _made(tmp_path, [b"<p>an old page</p>"] + [page.encode() for page in PAGES.values()])
    if store == "missing":
        record.unlink()
    elif store == "of another site":
        keep(record, None, [], "0" * 64)
    else:
        monkeypatch.setattr(pieces_module, "GROWN", -1)
    reads: list[str] = []
    checked = _checked(site, expected, record, [CLEAN, ["a -> b and more text"]], reads)
    assert checked.found == {"1.html": frozenset({1})}
    assert sorted(reads) == sorted(PAGES)
    assert checked.remade is not None and checked.remade.manifest == ""
    keep(record, checked.remade, [], MANIFEST)
    remade = Store.read(record, MANIFEST)
    assert remade is not None
    assert set((tmp_path / remade.record.pieces).read_bytes().split(b"<")) == {
        b"",
        *(piece for page in PAGES.values() for piece in pieces_of(page.encode())),
    }


def test_a_rebuild_adds_only_the_pieces_the_store_lacks_after_what_a_stopped_one_left(tmp_path):
    """Pieces already in the store are not added again, and the bytes a build stopped while
    adding left past the record's length are dropped first."""
    record = _made(tmp_path, [b"<p>the first page of the site</p>"])
    made = Store.read(record, MANIFEST)
    assert made is not None
    pieces = tmp_path / made.record.pieces
    with open(pieces, "ab") as stopped:
        stopped.write(b"half a pie")
    again = keep_batch(tmp_path / "batches", pieces_of(b"<p>THE FIRST PAGE of the site</p>"))
    new = keep_batch(tmp_path / "batches", pieces_of(b"<p>the first page</p><p>a new one</p>"))
    keep(record, made.record, [again, new], "n" * 64)
    assert Store.read(record, MANIFEST) is None
    added = Store.read(record, "n" * 64)
    assert added is not None and added.record.pieces == made.record.pieces
    assert pieces.read_bytes() == b"the first page of the site<a new one<the first page<"
    assert len(added.record.added) == 2


def test_the_pieces_added_merged_into_the_index_are_not_added_again(
    tmp_path, monkeypatch: pytest.MonkeyPatch
):
    """Past ``MERGED`` hashes added, the record's go into a new index (and the old one goes):
    the pieces they stand for are still known."""
    record = _made(tmp_path, [b"<p>the first page of the site</p>"])
    made = Store.read(record, MANIFEST)
    assert made is not None
    monkeypatch.setattr(pieces_module, "MERGED", 1)
    page = b"<p>a second page</p><p>and more of it</p>"
    keep(record, made.record, [keep_batch(tmp_path / "batches", pieces_of(page))], "n" * 64)
    merged = Store.read(record, "n" * 64)
    assert merged is not None and merged.record.index != made.record.index
    assert (len(merged.record.added), merged.record.length) == (0, made.record.length + 29)
    assert {path.name for path in tmp_path.glob(f"{record.name}-*")} == {
        merged.record.pieces,
        merged.record.index,
    }
    keep(record, merged.record, [keep_batch(tmp_path / "batches", pieces_of(page))], "o" * 64)
    again = Store.read(record, "o" * 64)
    assert again is not None and again.record.length == merged.record.length
