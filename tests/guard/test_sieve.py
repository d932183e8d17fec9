"""The sieves before the leak scan never let a leak go: wherever the exact scan finds a run's
payload string, however the file carries it, the sieve names that run; and on a page a build
keeps, wherever a form of runsite's templates carries it."""

from __future__ import annotations

import hashlib
import html
import json
import os
import pickle
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import generator.guard.kept as kept_module
import generator.guard.kept_check as kept_check
import generator.guard.own_pages as own_pages
import generator.guard.sieve as sieve_module
import generator.guard.signatures as signatures
from generator.guard.own_pages import OwnPages
from generator.guard.scan import Sought, carried_forms, sought_forms
from generator.guard.sieve import Keys, Sieve, Sieves, payload_keys
from generator.guard.windows import arrival

strings = st.text(min_size=8, max_size=40).map(str.strip).filter(lambda s: len(s) >= 8)

carriers = st.sampled_from(
    [
        lambda s: s,
        html.escape,
        lambda s: json.dumps(s)[1:-1],
        lambda s: json.dumps(s, ensure_ascii=False)[1:-1],
        lambda s: urllib.parse.quote(s),
        lambda s: urllib.parse.quote_plus(s),
        str.upper,
        lambda s: f"<b>{s[:3]}</b>{s[3:]}",
        lambda s: html.escape(json.dumps(s)),
    ]
)
"""How a page may carry a string: raw, escaped for HTML, JSON or a URL, cased, split by markup."""


def _own_keys(payload: list[str]) -> Keys:
    """``OwnPages``' keys for ``payload``."""
    return arrival(payload)[0]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.lists(strings, min_size=1, max_size=3), min_size=2, max_size=5),
    st.data(),
)
def test_a_kept_sieve_and_a_sieve_of_the_runs_it_lacks_name_each_run_where_a_new_one_does(
    tmp_path_factory: pytest.TempPathFactory, payloads: list[list[str]], data: st.DataObject
):
    """The sieve a build kept, mapped to the runs of a later archive (some gone, some moved,
    some new), and beside it a sieve of the new ones: the runs each page may carry, by their
    place in the later archive, are those a sieve made anew for that archive names."""
    keys = [payload_keys(payload) for payload in payloads]
    had = data.draw(st.lists(st.sampled_from(range(len(keys))), min_size=1, unique=True))
    now = data.draw(st.permutations(range(len(keys))))
    now = now[: data.draw(st.integers(1, len(now)))]
    folder = tmp_path_factory.mktemp("kept") / "sieve"
    Sieve([keys[n] for n in had]).save(folder)
    kept = Sieve.load(folder, [now.index(n) if n in now else -1 for n in had])
    lacking = [n for n in now if n not in had]
    joined = Sieves([kept, Sieve([keys[n] for n in lacking], [now.index(n) for n in lacking])])
    anew = Sieve([keys[n] for n in now])
    for payload in payloads:
        for string in payload:
            carried = data.draw(carriers)(string)
            page = f"<p>{carried} and {payloads[0][0]}</p>".encode("utf-8", "surrogatepass")
            assert joined.runs_in(page) == anew.runs_in(page)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.lists(strings, min_size=1, max_size=3), min_size=1, max_size=7),
    st.integers(1, 3),
    st.data(),
)
def test_a_sieve_written_a_shard_at_a_time_names_the_runs_one_made_whole_names(
    tmp_path_factory: pytest.TempPathFactory, payloads: list[list[str]], shard: int, data
):
    """A build makes the sieve of every run on disk, a few runs' keys at a time: it lets
    through, for every page, the runs the sieve of all their keys at once lets through."""
    keys = [payload_keys(payload) for payload in payloads]
    folder = tmp_path_factory.mktemp("written") / "sieve"
    Sieve.write(folder, (keys[n : n + shard] for n in range(0, len(keys), shard)))
    written = Sieve.load(folder, range(len(keys)))
    whole = Sieve(keys)
    assert len(written) == len(whole)
    for payload in payloads:
        carried = data.draw(carriers)(data.draw(st.sampled_from(payload)))
        page = f"<p>{carried} and {payloads[-1][-1]}</p>".encode("utf-8", "surrogatepass")
        assert written.runs_in(page) == whole.runs_in(page)


def test_runs_sharing_a_string_are_each_named_and_runs_whose_strings_only_begin_alike_are_not(
    tmp_path: Path,
):
    """A suite's runs share their cases' inputs, and their answers begin alike: the sieve holds
    each such string once for all the runs that have it, and looks strings up by their first
    16 bytes. A page carrying an input names every run that has it; a page carrying one answer
    names its run alone, not the runs whose answers share its first 16 bytes or more, nor
    those whose short ticket begins as its own does: in a sieve made whole, in one written a
    shard at a time, and in one a later archive maps (a run gone, the others moved)."""
    shared = "Summarise the customer's complaint in one sentence."
    payloads = [
        [
            shared,
            f"answer to customer {n}: the refund of order {n * 7} was sent on day {n}",
            f"TCK-{n:04d}",
        ]
        for n in range(6)
    ]
    payloads[5] = [f"answer to customer 5 and more: {'x' * n}" for n in range(3)]
    keys = [payload_keys(payload) for payload in payloads]
    whole = Sieve(keys)
    Sieve.write(tmp_path / "written", (keys[n : n + 2] for n in range(0, len(keys), 2)))
    written = Sieve.load(tmp_path / "written", range(len(keys)))
    moved = Sieve.load(tmp_path / "written", [4, 3, -1, 2, 1, 0])  # run 2 gone
    pages = {
        shared: set(range(5)),
        payloads[1][1]: {1},
        payloads[3][1].upper(): {3},
        f"order {payloads[4][2]} is open": {4},
        payloads[5][2]: {5},
    }
    for string, runs in pages.items():
        page = f"<p>{html.escape(string)}</p>".encode()
        assert whole.runs_in(page) == runs
        assert written.runs_in(page) == runs
        assert moved.runs_in(page) == {[4, 3, -1, 2, 1, 0][run] for run in runs} - {-1}


def test_a_long_file_is_sieved_in_stretches_that_miss_no_string_across_them(
    monkeypatch: pytest.MonkeyPatch,
):
    """A file is tested against the bitmap a stretch of offsets at a time (a search index runs
    to megabytes): a string that begins in one stretch and ends in the next, or begins at the
    first offset of one, is let through as it is when the file is tested whole."""
    payloads = [
        [f"the answer to ticket {n} was {'yes' if n % 2 else 'no'}, signed"] for n in range(9)
    ]
    sieve = Sieve([payload_keys(payload) for payload in payloads])
    page = (
        "<ul>"
        + "".join(f"<li>{'.' * n}{payload[0]}</li>" for n, payload in enumerate(payloads))
        + "</ul>"
    )
    data = page.encode()
    whole = sieve.runs_in(data)
    assert whole == set(range(len(payloads)))
    for stretch in (1, 7, 16, 33):
        monkeypatch.setattr(sieve_module, "STRETCH", stretch)
        assert sieve.runs_in(data) == whole


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.lists(strings, min_size=1, max_size=4), min_size=1, max_size=4),
    st.data(),
)
def test_every_run_the_exact_scan_finds_in_a_page_the_sieve_lets_through(payloads, data):
    sieve = Sieve([payload_keys(payload) for payload in payloads])
    run = data.draw(st.integers(0, len(payloads) - 1))
    string = data.draw(st.sampled_from(payloads[run]))
    carried = data.draw(carriers)(string)
    page = f'<p class="x">before &amp; {carried} after</p>'.encode("utf-8", "surrogatepass")
    for index, payload in enumerate(payloads):
        if Sought(dict.fromkeys(payload, "field")).fields_in(page):
            assert index in sieve.runs_in(page)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=40), min_size=1, max_size=6))
def test_the_sieve_keys_the_ends_of_every_form_the_exact_scan_seeks(payload):
    rows = {tuple(int(n) for n in row) for row in payload_keys(payload)}
    for string in payload:
        for form in sought_forms(string):
            whole = form.encode("utf-8", "surrogatepass")
            key = (
                int.from_bytes(whole[:8], "little"),
                int.from_bytes(whole[8:16].ljust(8, b"\0"), "little"),
                len(whole) << 32 | int.from_bytes(whole[-4:], "little"),
            )
            assert key in rows


@pytest.mark.parametrize(
    ("automaton", "dfa"),
    [
        (own_pages.AUTOMATON_FORMS, own_pages.DFA_BYTES),
        (own_pages.AUTOMATON_FORMS, 0),
        (0, 0),
    ],
    ids=["dfa", "automaton", "arrays"],
)
def test_a_kept_page_is_sieved_for_every_form_and_case_its_templates_write_a_value_in(
    automaton: int, dfa: int, monkeypatch: pytest.MonkeyPatch
):
    """However the forms are sought (a DFA, the library's automaton, or, past a few thousand
    forms, the sieve's arrays), a kept page's sieve names the same runs: each run whose string
    the page carries in a form of runsite's templates, and not one whose string it only begins
    with."""
    monkeypatch.setattr(own_pages, "AUTOMATON_FORMS", automaton)
    monkeypatch.setattr(own_pages, "DFA_BYTES", dfa)
    sieve = OwnPages(
        [_own_keys(["Jane O'Neil, 4 Privet Drive"]), _own_keys(["Müller-Lüdenscheidt"])]
    )
    for page, runs in (
        (b"<td>Jane O&#39;Neil, 4 Privet Drive</td>", {0}),
        (b"<td>JANE O&#39;NEIL, 4 PRIVET DRIVE</td>", {0}),
        (b'{"x": "jane o\\u0027neil, 4 privet drive"}', {0}),
        ("<p>MÜLLER-LÜDENSCHEIDT</p>".encode(), {1}),
        ("<p>müller-lüdenscheidt</p>".encode(), {1}),
        (b"<p>Jane O'Neil, 4 Privet Road</p>", set()),
        (b"<p>Jane O'Neil of 4 Privet Drive</p>", set()),
        (b"", set()),
    ):
        assert sieve.runs_in(page) == runs, page


def _kept_sieves(payloads: list[list[str]], monkeypatch: pytest.MonkeyPatch) -> list[OwnPages]:
    """``OwnPages`` over ``payloads`` in each of its ways: a DFA, the automaton, the arrays."""
    keys = [_own_keys(payload) for payload in payloads]
    made = []
    for automaton, dfa in ((10**6, 10**12), (10**6, 0), (0, 0)):
        monkeypatch.setattr(own_pages, "AUTOMATON_FORMS", automaton)
        monkeypatch.setattr(own_pages, "DFA_BYTES", dfa)
        made.append(OwnPages(keys))
    return made


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(strings, min_size=1, max_size=4), min_size=1, max_size=4),
    st.data(),
)
def test_every_run_whose_string_a_kept_page_carries_in_a_form_of_its_templates_is_let_through(
    payloads: list[list[str]], data: st.DataObject
):
    run = data.draw(st.integers(0, len(payloads) - 1))
    string = data.draw(st.sampled_from(payloads[run]))
    form = data.draw(st.sampled_from(sorted(carried_forms(string))))
    cased = data.draw(st.sampled_from([form, form.upper(), form.lower()]))
    page = f"<td>before {cased} after</td>".encode("utf-8", "surrogatepass")
    with pytest.MonkeyPatch.context() as monkeypatch:
        for sieve in _kept_sieves(payloads, monkeypatch):
            assert run in sieve.runs_in(page)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(strings, min_size=1, max_size=4), min_size=1, max_size=4),
    st.lists(st.text(max_size=30), max_size=6),
    st.data(),
)
def test_a_kept_pages_sieve_names_the_same_runs_in_each_of_its_ways(
    payloads: list[list[str]], pieces: list[str], data: st.DataObject
):
    """The page is random text around slices of the payload, so that heads begin, end and
    overlap in it."""
    strings = [string for payload in payloads for string in payload]
    for _ in range(data.draw(st.integers(0, 4))):
        string = data.draw(st.sampled_from(strings))
        start = data.draw(st.integers(0, len(string)))
        pieces.append(string[start : start + data.draw(st.integers(0, 20))])
    page = "".join(data.draw(st.permutations(pieces))).encode("utf-8", "surrogatepass")
    with pytest.MonkeyPatch.context() as monkeypatch:
        found = [sieve.runs_in(page) for sieve in _kept_sieves(payloads, monkeypatch)]
    assert found[0] == found[1] == found[2]


def test_a_page_that_shows_only_the_beginning_of_a_string_is_let_go():
    """A published model's name on every page, and answers that begin with it: were the pages
    candidates of every such run, the exact scan of those pairs would grow as runs times pages
    (a 200-run build took 75 s instead of 6)."""
    answer = "claude-3-5-sonnet-20241022 answered: the refund was approved"
    page = b"<dt>Model<dd>claude-3-5-sonnet-20241022</dd>"
    assert Sieve([payload_keys([answer])]).runs_in(page) == set()
    assert Sieve([payload_keys([answer])]).runs_in(page + answer.encode()) == {0}


def test_the_kept_pages_check_names_the_pages_altered_and_the_runs_each_may_carry(
    tmp_path, monkeypatch: pytest.MonkeyPatch
):
    """However the pages are batched over threads: a page not what the last build wrote (edited,
    gone, a folder now) is altered, with a run arrived or none; each other page is sieved for
    the arrived runs' payload."""
    payloads = [["the first run's answer"], ["a second run's answer"]]
    arrived = [arrival(payload) for payload in payloads]
    bodies = [
        "<p>nothing of either</p>",
        "<p>the first run&#39;s answer</p>",
        "<p>A Second Run&#39;s Answer and the first run&#39;s answer</p>",
        "<p>a second run's</p>",
        "<p>edited since</p>",
        "<p>gone since</p>",
        "<p>a folder since</p>",
    ]
    expected = {}
    for n, body in enumerate(bodies):
        (tmp_path / f"{n}.html").write_text(body, encoding="utf-8")
        expected[f"{n}.html"] = hashlib.sha256(body.encode()).hexdigest()
    (tmp_path / "4.html").write_text("<p>the first run's answer</p>", encoding="utf-8")
    (tmp_path / "5.html").unlink()
    (tmp_path / "6.html").unlink()
    (tmp_path / "6.html").mkdir()
    kept = list(expected)
    altered = frozenset({"4.html", "5.html", "6.html"})
    found = {"1.html": frozenset({0}), "2.html": frozenset({0, 1}), "4.html": frozenset({0})}
    for threads, batch in ((1, 256), (3, 1)):
        monkeypatch.setattr(kept_module, "BATCH", batch)
        checked = kept_module.Checker(tmp_path, signatures.known(expected, {}), threads).finish(
            arrived, kept
        )
        assert (checked.altered, checked.found) == (altered, found)
        checked = kept_module.Checker(tmp_path, signatures.known(expected, {}), threads).finish(
            [], kept
        )
        assert (checked.altered, checked.found) == (altered, {})


def test_a_page_changed_between_the_passes_is_judged_by_what_the_second_read(tmp_path):
    """The first pass found the page as the last build wrote it; then it changed, before the
    second pass sieved it: the digest is taken again, of the bytes the sieve saw."""
    page = tmp_path / "page.html"
    page.write_text("<p>as the last build wrote it</p>", encoding="utf-8")
    expected = {"page.html": hashlib.sha256(page.read_bytes()).hexdigest()}
    checker = kept_module.Checker(tmp_path, signatures.known(expected, {}), 1)
    checker._first["page.html"].result()
    page.write_text("<p>the first run's answer, put in by hand</p>", encoding="utf-8")
    checked = checker.finish([arrival(["the first run's answer"])], ["page.html"])
    assert checked.altered == frozenset({"page.html"})
    assert checked.found == {"page.html": frozenset({0})}


def test_a_page_is_signed_only_if_unchanged_since_the_build_knew_it_and_read_once_changed(
    tmp_path,
):
    """A build signs a page it placed if its last change came before the manifest's, and a
    page it kept if that came before the build began; the next check takes a signed page as
    written unread, and reads it again once it changed, even to bytes of the same length with
    its modify time set back (only its change time then tells)."""
    kept, placed, late = (tmp_path / name for name in ("kept.html", "placed.html", "late.html"))
    kept.write_text("<p>kept since an earlier build</p>", encoding="utf-8")
    started = _a_moment_after(tmp_path / "started")
    placed.write_text("<p>placed by this build</p>", encoding="utf-8")
    staged = _a_moment_after(tmp_path / "manifest")
    late.write_text("<p>changed after the manifest</p>", encoding="utf-8")
    expected = {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in (kept, placed, late)
    }
    first = kept_module.Checker(tmp_path, signatures.known(expected, {}), 1).finish(
        [], list(expected)
    )
    placed_now = {name: expected[name] for name in ("placed.html", "late.html")}
    seen = {name: found for name, found in first.seen.items() if name not in placed_now}
    signed = signatures.sign(tmp_path, placed_now, staged, seen, started)
    assert set(signed) == {"kept.html", "placed.html"}
    assert (
        kept_module.Checker(tmp_path, signatures.known(expected, signed), 1)
        .finish([], list(expected))
        .altered
        == frozenset()
    )
    before = placed.stat()
    placed.write_text("<p>PLACED by this build</p>", encoding="utf-8")
    os.utime(placed, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (placed.stat().st_size, placed.stat().st_mtime_ns) == (
        before.st_size,
        before.st_mtime_ns,
    )
    checked = kept_module.Checker(tmp_path, signatures.known(expected, signed), 1).finish(
        [], list(expected)
    )
    assert checked.altered == frozenset({"placed.html"})


def _a_moment_after(marker: Path) -> int:
    """The change time of a file made once the clock has moved past every change made before,
    however coarsely it ticks."""
    marker.write_bytes(b"")
    first = marker.stat().st_ctime_ns
    while (moment := _touched(marker)) == first:
        pass
    return moment


def _touched(marker: Path) -> int:
    marker.write_bytes(b"")
    return marker.stat().st_ctime_ns


def test_the_kept_pages_check_ends_quietly_when_the_build_is_gone(tmp_path):
    """A build killed outright leaves its check's results unread: the check ends without a
    word on the terminal they shared."""
    files = {f"{n}/page.html": "" for n in range(200)}
    for file in files:
        (tmp_path / file).parent.mkdir()
        (tmp_path / file).write_text("<p>a kept page</p>" * 10_000, encoding="utf-8")
    manifest = json.dumps({"files": files}).encode()
    (tmp_path / "manifest").write_bytes(manifest)
    listed = ("manifest", hashlib.sha256(manifest).hexdigest())
    task = (
        pickle.dumps(sys.path)
        + pickle.dumps((tmp_path, listed, 2, None))
        + pickle.dumps(
            ([arrival(["a kept page's payload"])], (1000, 1000), list(files), None, None)
        )
    )
    read, write = os.pipe()
    os.close(read)  # the build that would read the results is gone
    ended = subprocess.run(
        [sys.executable, "-P", "-c", kept_check._START],
        input=task,
        stdout=write,
        stderr=subprocess.PIPE,
        check=False,
    )
    os.close(write)
    assert (ended.returncode, ended.stderr) == (0, b"")


def test_the_check_takes_no_file_of_a_manifest_changed_since_the_build_read_it(tmp_path):
    """The check reads the last build's manifest itself, each of its parts where its digest is
    the one the build read: where one is not, it lists nothing, so every page the build keeps
    is found altered (and the build starts again as a full one)."""
    parts = tmp_path / ".runsite-parts"
    parts.mkdir()
    listing = []
    for n, name in enumerate(("a.html", "b.html")):
        data = json.dumps({"bodies": {}, "files": {name: str(n) * 64}}).encode()
        digest = hashlib.sha256(data).hexdigest()
        (parts / digest).write_bytes(data)
        listing.append((f".runsite-parts/{digest}", digest))
    zeros, ones = bytes.fromhex("0" * 64), bytes.fromhex("1" * 64)
    signature = bytes(range(40))
    signed = {"a.html": zeros + signature, "b.html": zeros + signature}
    listed = kept_module._files_listed(tmp_path, listing, signed)
    # b.html was signed with another digest than the manifest gives it: its signature is not
    # taken, and the file is read.
    assert listed == {"a.html": zeros + signature, "b.html": ones}
    (tmp_path / listing[1][0]).write_bytes(b'{"bodies": {}, "files": {"b.html": "2"}}')
    assert kept_module._files_listed(tmp_path, listing, signed) == {}
    checked = kept_module.Checker(tmp_path, {}, 1).finish([], ["a.html"])
    assert checked.altered == frozenset({"a.html"})
