"""The sieve of the pages a build keeps: which runs that arrived since the last build a page
runsite wrote itself may carry, from the page's raw bytes, for the ends (first 16 bytes, last
4, length) of the forms runsite's own templates write a string in (``scan.own_forms``)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ahocorasick_rs import BytesAhoCorasick, Implementation

from generator.guard.sieve import Keys, Sieve

AUTOMATON_FORMS = 12_000
"""The most forms ``OwnPages`` seeks with an Aho–Corasick automaton over their heads, 0.12 ms a
run page of the bench's shape against 0.30 for the sieve's arrays, but some 3 KB of memory a
head at worst (distinct answers share no prefix): about 40 MB at this bound. A run has from 800
forms (the bench's) to 3,200 (150 answers of a few kilobytes)."""

DFA_BYTES = 16 << 20
"""The most memory the heads' automaton may take as a DFA, which is up to twice as fast again
(0.15 ms a page against 0.29 for a run of long answers). A DFA has a state per byte of the
distinct heads, and a row of 4-byte transitions per state, as long as the heads' byte classes
rounded up to a power of two (``dfa_bytes``). Text has few classes: a run of 150 long answers
has 3,100 forms, 740 heads and 49 classes (3 MB, 2 measured); distinct binary heads have 256,
a kilobyte a pattern byte."""


def dfa_bytes(heads: Collection[bytes]) -> int:
    """The memory a DFA over ``heads`` takes at most: a byte class for each byte they use, one
    for the bytes they do not, one for the end of input; a row's length a power of two."""
    alphabet = len(set(b"".join(heads))) + 2
    return sum(map(len, heads)) * 4 * (1 << (alphabet - 1).bit_length())


class OwnPages(Sieve):
    """Which runs' payload a page runsite wrote itself may carry, from its raw bytes: the sieve
    of the pages a build keeps, whose (page, run) pairs ``publish.confirm`` then searches
    exactly, as for every file a build writes.

    A run or comparison page is the theme's chrome around a body. The chrome is the same in
    every page of a build, the home and suite pages among them, which a build writes and scans
    whole every time; the body is runsite's template text and the values of redacted runs, each
    written through jinja2's escaping, never decoded, split by markup or re-cased. So a string
    the normalised scan would find in such a page is there in one of the forms its templates
    write (raw, HTML-escaped, JSON-escaped: ``own_keys``), which this finds without decoding the
    page, by its first 16 bytes and its last 4: with the sieve's arrays over the page's bytes
    lowered or, while the forms are few, an automaton over their heads.

    Only those bytes of a form are held: a run's outputs and inputs run to megabytes, and an
    automaton over whole forms took 700 MB to build for one run of 150 answers of a few
    kilobytes. Case: the page's ASCII letters are lowered byte by byte; a form's letters outside
    ASCII are sought as written, all upper and all lower case.
    """

    def __init__(self, keys: Sequence[Keys]) -> None:
        super().__init__(keys)
        self._automaton: BytesAhoCorasick | None = None
        if 0 < len(self) <= AUTOMATON_FORMS:
            ends: dict[bytes, list[tuple[int, int, bytes]]] = {}
            for first, second, length, last, run in self._shards[0].pairs():
                head = (first.to_bytes(8, "little") + second.to_bytes(8, "little"))[
                    : min(length, 16)
                ]
                ends.setdefault(head, []).append((run, length, last.to_bytes(4, "little")))
            self._ends = list(ends.values())
            self._automaton = BytesAhoCorasick(
                list(ends),
                implementation=Implementation.DFA if dfa_bytes(ends) <= DFA_BYTES else None,
            )

    def runs_in(self, data: bytes) -> set[int]:
        """The runs whose payload the page ``data`` may carry."""
        if not len(self):
            return set()
        lowered = data.lower()
        if self._automaton is None:
            return self._sieved(lowered)
        found = set()
        for index, start, _ in self._automaton.find_matches_as_indexes(lowered, overlapping=True):
            for run, length, last in self._ends[index]:
                end = start + length
                if end <= len(lowered) and lowered[end - 4 : end] == last:
                    found.add(run)
        return found
