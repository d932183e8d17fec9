"""The C heap of a build's processes: what a process hands back to the system, and when.

Python's objects and numpy's arrays come from glibc's heap, which keeps what is freed for the
next allocations; a build's processes free much at a time (a task's runs, a shard's arrays, the
packs a cache merges), and what they keep resident is counted in the build's peak, by process
tree, and shared with every process forked after it. Where the C library is not glibc, it has
its own ways, and these do nothing.
"""

from __future__ import annotations

import ctypes


def give_back_freed() -> None:
    """Hand the C heap's free pages back to the system (glibc's ``malloc_trim``; nothing where
    the C library has none): before processes fork from this one, in each after each task, and
    after the cache's packs are merged (``RunCache.known``: 34 MB of 116 at 10,000 runs).
    The per-run arrays of sieve keys a build frees once the sieve holds their rows are small
    allocations, and the holes they leave stay resident otherwise: 21 MB at 3,000 runs, counted
    again in each worker's share of the pages it was forked with (the peak went from 274 MiB to
    253). A wrapping process sieves each page with every shard of the sieve (ten at 10,000
    runs), and the holes its arrays left held it at 40-42 MB of its own at the end of a full
    build there, 29-34 when trimmed after each task."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return
    trim(0)


MAPPED = 1 << 20
"""Bytes from which a worker's C allocations (numpy's arrays, mostly) are mapped apart from its
heap, and handed back when freed: glibc's ``M_MMAP_THRESHOLD``, fixed. Left to glibc, it rises
to the largest array freed, and the later arrays of that size went into the heap, whose holes
each task left resident: a wrapping worker held 34 MB after its first task at 10,000 runs, and
53 MB after its 160th."""


KEPT_ON_TOP = 64 << 20
"""Free bytes at the top of a worker's heap it keeps between its allocations (glibc's
``M_TRIM_THRESHOLD``, 128 KB by default, fixed with ``M_MMAP_THRESHOLD``): a task's free pages
are handed back once it ends (``processes._collected``). With the default, each page's buffers
freed at the top of the heap went back to the system and were faulted in again for the next
page: in a 1,000-run full build, 4.0 million page faults and 9.6 s of wrapping, against 0.59
million and 7.8 s (the wrapping processes forked from a heap with room in it hid this before
the pages that span runs were made apart, ``processes.in_a_process``)."""


def heap_settled() -> None:
    """A worker's heap as ``MAPPED`` and ``KEPT_ON_TOP`` say."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc: its own way
        return
    mallopt(-3, MAPPED)  # M_MMAP_THRESHOLD
    mallopt(-1, KEPT_ON_TOP)  # M_TRIM_THRESHOLD
