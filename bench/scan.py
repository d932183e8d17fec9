"""How fast the leak scan searches a site of an archive's size, against pure-stdlib searches.

Generates a site the size of 1,000 runs' (6,000 pages of about 10 kB, a search index, a gzipped
sitemap; about 60 MB) and 500,000 payload strings (outputs, reasons, tool arguments, tool names)
drawn from the same vocabulary as the pages, plants three of them in escaped forms, and prints
for ``generator.guard.scan`` the seconds to compile the strings, the seconds and MB/s of the
scan, and that exactly the planted leaks were found. Then it times the stdlib alternatives:
``bytes.find`` per form and one ``re`` alternation (both on a sample, extrapolated), and a
search anchored on each form's longest word (``re.findall`` per file, a set intersection,
then ``bytes.find`` for the forms whose anchor the file holds; on 6 pages, scaled: the search
index, which holds every anchor, would take longer than all of them). ``--pyahocorasick`` also
times that library on the same keys (install it by hand first); ``--scan-only`` stops after
``generator.guard.scan``'s own figures.

    .venv/bin/python bench/scan.py [--strings N] [--pyahocorasick] [--scan-only]
"""

from __future__ import annotations

import argparse
import gzip
import html
import json
import random
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.guard.scan import KEY_BYTES, Sought, carried_forms, scan

PAGES = 6_000
RANDOM = random.Random(7)
WORDS = [
    "".join(RANDOM.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(RANDOM.randint(2, 10)))
    for _ in range(20_000)
]


def sentence(words: int) -> str:
    return " ".join(RANDOM.choice(WORDS) for _ in range(words)).capitalize() + "."


def payload(count: int) -> dict[str, str]:
    """``count`` strings shaped like a run's payload, each with a field."""
    strings: dict[str, str] = {}
    while len(strings) < count:
        n = len(strings)
        kind = n % 5
        if kind == 0:
            text = " ".join(sentence(RANDOM.randint(5, 15)) for _ in range(RANDOM.randint(1, 4)))
        elif kind == 1:
            text = sentence(RANDOM.randint(6, 12))
        elif kind == 2:
            text = json.dumps({"query": sentence(4), "order": RANDOM.randint(0, 10**9)})
        elif kind == 3:
            text = f"{RANDOM.choice(WORDS)}_{RANDOM.choice(WORDS)}_{n}"
        else:
            text = f'I\'m sure "{sentence(5)}" — café {n}'
        strings[text] = f"results[{n % 30}].responses[{n % 5}].output"
    return strings


def page(n: int, planted: str = "") -> str:
    rows = "".join(
        f"<tr><td>case-{n}-{j}</td><td>{RANDOM.random():.6f}</td><td>pass</td>"
        f"<td>{sentence(3)}</td></tr>\n"
        for j in range(85)
    )
    return (
        f"<!doctype html><html lang=en><head><meta charset=utf-8><title>Run {n}</title></head>"
        f"<body><nav>{' '.join(WORDS[:80])}</nav><table>{rows}</table>{planted}"
        f"<footer>{sentence(20)}</footer></body></html>"
    )


def build_site(folder: Path, planted: list[str]) -> int:
    """The site, with ``planted`` in an HTML page, the search index and the sitemap."""
    size = 0
    for n in range(PAGES):
        path = folder / "en" / f"r{n // 100}" / f"run{n}.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        data = page(n, html.escape(planted[0]) if n == 17 else "").encode()
        path.write_bytes(data)
        size += len(data)
    docs = [{"location": f"r/{n}", "text": sentence(60)} for n in range(12_000)]
    docs.append({"location": "r/planted", "text": planted[1]})
    index = json.dumps({"docs": docs}).encode()
    (folder / "search").mkdir()
    (folder / "search" / "search_index.json").write_bytes(index)
    sitemap = f"<urlset><url>{planted[2]}</url>{'<url>x</url>' * 10_000}</urlset>".encode()
    (folder / "sitemap.xml.gz").write_bytes(gzip.compress(sitemap))
    return size + len(index) + len(sitemap)


def files_of(folder: Path) -> list[bytes]:
    return [
        gzip.decompress(p.read_bytes()) if p.suffix == ".gz" else p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    ]


def forms_of(strings: dict[str, str]) -> list[bytes]:
    return sorted({f.encode() for s in strings for f in carried_forms(s)})


def timed(label: str, seconds: float, megabytes: float, note: str = "") -> None:
    print(f"{label:<50} {seconds:9.2f} s {megabytes / seconds:9.2f} MB/s  {note}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strings", type=int, default=500_000)
    parser.add_argument("--pyahocorasick", action="store_true")
    parser.add_argument("--scan-only", action="store_true")
    args = parser.parse_args()
    strings = payload(args.strings)
    planted = list(strings)[10:15:2]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        mb = build_site(folder, planted) / 1e6
        print(f"site: {mb:.1f} MB; payload: {len(strings):,} strings")
        start = time.perf_counter()
        leaks = scan(folder, strings)
        found = sorted(leak.file for leak in leaks)
        timed("scan(): compile, read, search", time.perf_counter() - start, mb, str(found))
        start = time.perf_counter()
        sought = Sought(strings)
        print(f"{'  of which compiling the strings':<50} {time.perf_counter() - start:9.2f} s")
        data = files_of(folder)
        start = time.perf_counter()
        for d in data:
            sought.fields_in(d)
        timed("  of which normalising and searching", time.perf_counter() - start, mb)
        if args.scan_only:
            return
        forms = forms_of(strings)
        if args.pyahocorasick:
            pyahocorasick(strings, data, mb)
        stdlib(forms, data, mb)


def pyahocorasick(strings: dict[str, str], data: list[bytes], mb: float) -> None:
    """``Sought``'s keys in pyahocorasick, which searches ``str``: files are decoded first."""
    import ahocorasick  # type: ignore[import-not-found]

    automaton = ahocorasick.Automaton()
    for string in strings:
        for head in carried_forms(string[:KEY_BYTES]):
            automaton.add_word(head.encode()[:KEY_BYTES].decode(errors="ignore"), None)
    automaton.make_automaton()
    start = time.perf_counter()
    hits = sum(1 for d in data for _ in automaton.iter(d.decode(errors="replace")))
    timed("pyahocorasick (search only)", time.perf_counter() - start, mb, f"{hits} key hits")


def stdlib(forms: list[bytes], data: list[bytes], mb: float) -> None:
    """Three stdlib searches; the first two on a sample of the forms, scaled up."""
    haystack = b"\0".join(data)
    sample = forms[:: len(forms) // 200][:200]
    start = time.perf_counter()
    for form in sample:
        haystack.find(form)
    scaled = (time.perf_counter() - start) * len(forms) / len(sample)
    timed(f"bytes.find per form (200 of {len(forms):,}, scaled)", scaled, mb)
    sample = forms[:: len(forms) // 1_000][:1_000]
    start = time.perf_counter()
    alternation = re.compile(b"|".join(re.escape(f) for f in sample))
    for d in data[::100]:
        alternation.search(d)
    scaled = (time.perf_counter() - start) * len(forms) / len(sample) * 100
    timed("re alternation (1,000 forms, 1% of files, scaled)", scaled, mb)
    anchored: dict[bytes, list[bytes]] = {}
    unanchored = 0
    for form in forms:
        words = re.findall(rb"\w{8,}", form)
        if words:
            anchored.setdefault(max(words, key=len), []).append(form)
        else:
            unanchored += 1
    word = re.compile(rb"\w{8,}")
    start = time.perf_counter()
    for d in data[:PAGES:1_000]:
        for hit in set(word.findall(d)) & anchored.keys():
            for form in anchored[hit]:
                d.find(form)
    scaled = (time.perf_counter() - start) * 1_000
    note = f"{unanchored:,} forms without a word of 8 to anchor on"
    timed("longest word as anchor, then find (6 pages, scaled)", scaled, mb, note)


if __name__ == "__main__":
    main()
