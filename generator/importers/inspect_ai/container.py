"""Inspect AI's two containers, opened without inspect_ai, at a cost ``[limits]`` bounds.

A ``.json`` log is one EvalLog document. An ``.eval`` log is a zip: ``header.json`` (the log
without its samples), ``reductions.json``, and one ``samples/<id>_epoch_<n>.json`` per sample. An
eval still running, or one that crashed, has no header yet: only ``_journal/start.json`` (the eval
and its plan) beside the samples it finished. Since inspect_ai 0.3.206 every member is zstd (zip
method 93), which the standard library's zipfile cannot open before Python 3.14, so members are
read here from their raw bytes: the central directory says where each one is, and its checksum
says whether what came out is what went in.

The zip's directory is read a record at a time (``directory``), no further than ``samples``
allows. What it declares is never trusted for what it costs: a member is inflated a chunk
at a time, and counted as it comes out, against ``member_mb`` and, with the others, against
``log_mb``, so a member that would inflate to gigabytes is refused after taking no more than
those; members whose bytes overlap (a directory's many entries on one such member) are refused
before any is read. Each header and sample is parsed from its bytes (no decoded copy) and
refused where it nests deeper than ``depth`` before anything walks it.

Inside a sample's events, Inspect writes strings over 100 characters as ``attachment://<hash>``,
the text in ``attachments``. ``resolved`` inlines those of the tool events, the only events whose
payload a run carries, and counts what it inlines against ``log_mb``: one attachment may be
referred to many times. (Model events also point into the sample's message and call pools; the
run reads nothing of a model's input, so they are left as they are.) The sample's own fields
(input, target, messages, output, scores) always hold their whole text.
"""

from __future__ import annotations

import codecs
import json
import os
import re
import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import IO, Any, cast

import jiter
import zstandard

from generator.archive.config import MB, Limits, SizeKey, raised_by, too_large
from generator.document.json_text import json_values, nests_deeper, too_dense
from generator.document.values import json_type
from generator.errors import DocumentRefused, Refused
from generator.files import read_bytes
from generator.importers.inspect_ai.directory import Member, too_many_samples
from generator.importers.inspect_ai.directory import members as listed

HEADER = "header.json"
JOURNAL = "_journal/start.json"
REDUCTIONS = "reductions.json"
SAMPLES = "samples/"
ATTACHMENT = "attachment://"

_STORED, _DEFLATED, _ZSTD = 0, 8, 93
_LOCAL_HEADER = struct.Struct("<4s22xHH")
"""A member's local header: its signature, then (past 22 bytes) its name's and extra's lengths."""
_CHUNK = 1 << 20
"""Bytes read, or inflated, at a time."""
_ZSTD_WINDOW = 1 << 25
"""The largest window a zstd frame may ask the reader to hold: 32 MiB, where Inspect's frames
ask for a few (zstd's own default would grant 128 MiB, and a bomb asking for it took 232 MB)."""
_WIDE_WINDOW = "compressed with a zstd window over 32 MiB, wider than Inspect ever writes"


@dataclass(frozen=True)
class Container:
    """A log as read from its file: the header (EvalLog without samples) and each sample."""

    header: dict[str, Any]
    origin: str
    """Where the header was read (a member of an .eval, or empty for a .json log)."""
    samples: list[tuple[str, dict[str, Any]]]
    """Each sample with where it was read, in the order the file holds them."""


class Allowance:
    """What is left of a size limit of ``[limits]``, spent as bytes come out or text is
    inlined; spending past it is refused."""

    def __init__(self, key: SizeKey, limits: Limits) -> None:
        self.key, self.most = key, limits.size(key)
        self.left = self.most

    def spend(self, size: int, where: str, what: str) -> None:
        self.left -= size
        if self.left < 0:
            limit = f"{self.most // MB} MB, {raised_by(self.key)}"
            raise DocumentRefused(where, f"{what} more than {limit}")


class _Texts:
    """The JSON texts of one log, parsed a text at a time and all kept: their values counted
    before each is parsed, and held together to ``json_text.too_dense``."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.size = self.values = 0

    def parsed(self, data: bytes, where: str) -> Any:
        self.size += len(data)
        self.values += json_values(data)
        problem = too_dense(self.values, self.size)
        if problem:
            raise DocumentRefused(where, problem)
        return _parsed(data, where, self.limits)


def open_json_log(path: Path, limits: Limits) -> Container:
    """A ``.json`` log."""
    text = read_bytes(path, "log_mb", limits)
    header = _an_object(_Texts(limits).parsed(text, ""), "")
    samples = header.pop("samples", None) or []
    if not isinstance(samples, list):
        raise DocumentRefused("samples", f"a JSON {json_type(samples)}, not an array")
    if len(samples) > limits.samples:
        raise DocumentRefused("samples", too_many_samples(limits))
    _held(header, "", limits)
    found = []
    for n, sample in enumerate(samples):
        where = f"samples[{n}]"
        found.append((where, _held(_an_object(sample, where), where, limits)))
    return Container(header, "", found)


def open_eval_log(path: Path, limits: Limits) -> Container:
    """An ``.eval`` log, from its header or, where the eval never finished, from its journal."""
    try:
        with path.open("rb") as file:
            return _eval_log(file, limits)
    except OSError as error:
        raise Refused(f"{path}: cannot be read ({error.strerror or error})") from None


def _eval_log(file: IO[bytes], limits: Limits) -> Container:
    if os.fstat(file.fileno()).st_size > limits.size("log_mb"):
        raise DocumentRefused("", too_large("log_mb", limits.size("log_mb")))
    members = {member.filename: member for member in listed(file, limits)}
    if sum(map(_a_sample_name, members)) > limits.samples:
        raise DocumentRefused("", too_many_samples(limits))
    read_here = [n for n in members if n in (HEADER, JOURNAL, REDUCTIONS) or _a_sample_name(n)]
    _apart([members[name] for name in read_here])
    log = Allowance("log_mb", limits)
    texts = _Texts(limits)

    def read(name: str) -> Any:
        return _held(texts.parsed(_member(file, members[name], limits, log), name), name, limits)

    if HEADER in members:
        header, origin = _an_object(read(HEADER), HEADER), HEADER
        if REDUCTIONS in members:
            header["reductions"] = read(REDUCTIONS)
    elif JOURNAL in members:
        header, origin = {**_an_object(read(JOURNAL), JOURNAL), "status": "started"}, JOURNAL
    else:
        raise DocumentRefused("", f"not an Inspect log: a zip with neither {HEADER} nor {JOURNAL}")
    samples = [(name, _an_object(read(name), name)) for name in members if _a_sample_name(name)]
    return Container(header, origin, samples)


def _a_sample_name(name: str) -> bool:
    return name.startswith(SAMPLES) and name.endswith(".json")


def _apart(infos: list[Member]) -> None:
    """Refuse members whose bytes overlap: many entries of a directory pointing at one member
    that inflates to a great deal make a bomb no limit on a member catches, and a zip Inspect
    writes holds each member once."""
    placed = sorted(infos, key=lambda info: info.header_offset)
    for before, after in pairwise(placed):
        if after.header_offset < before.header_offset + _LOCAL_HEADER.size + before.compress_size:
            raise DocumentRefused(
                after.filename, f"its bytes overlap those of {before.filename} in the zip"
            )


def _member(file: IO[bytes], info: Member, limits: Limits, log: Allowance) -> bytes:
    """One member's content, inflated no further than the limits allow and checked against the
    size and checksum the directory records."""
    name = info.filename
    file.seek(info.header_offset)
    head = file.read(_LOCAL_HEADER.size)
    if len(head) < _LOCAL_HEADER.size or head[:4] != b"PK\x03\x04":
        raise DocumentRefused(name, "truncated: its entry is not where the zip says")
    if info.flag_bits & 0x1:
        raise DocumentRefused(name, "encrypted, which an Inspect log never is")
    _, name_length, extra_length = _LOCAL_HEADER.unpack(head)
    start = info.header_offset + _LOCAL_HEADER.size + name_length + extra_length
    if start + info.compress_size > os.fstat(file.fileno()).st_size:
        raise DocumentRefused(name, "truncated: the zip ends inside it")
    file.seek(start)
    member = Allowance("member_mb", limits)
    pieces: list[bytes] = []
    size = checksum = 0
    try:
        for piece in _inflated(_Span(file, info.compress_size), info):
            member.spend(len(piece), name, "inflates to")
            log.spend(len(piece), name, "the log's members inflate to")
            size += len(piece)
            if size > info.file_size:
                break
            checksum = zlib.crc32(piece, checksum)
            pieces.append(piece)
    except zstandard.ZstdError as error:
        if "too much memory" in str(error):
            raise DocumentRefused(name, _WIDE_WINDOW) from None
        size = -1
    except zlib.error:
        size = -1
    if size != info.file_size or checksum != info.CRC:
        raise DocumentRefused(name, "truncated or damaged: it does not decompress to what it held")
    return b"".join(pieces)


class _Span:
    """The next ``size`` bytes of a file, read as a file is: a member's compressed bytes."""

    def __init__(self, file: IO[bytes], size: int) -> None:
        self._file, self._left = file, size

    def read(self, size: int = -1) -> bytes:
        data = self._file.read(self._left if size < 0 else min(size, self._left))
        self._left -= len(data)
        return data


def _inflated(span: _Span, info: Member) -> Iterator[bytes]:
    """A member's content a chunk at a time, however much its compressed bytes would make."""
    if info.compress_type == _ZSTD:
        source = cast(IO[bytes], span)  # it reads as a file does, which is all zstandard asks
        zstd = zstandard.ZstdDecompressor(max_window_size=_ZSTD_WINDOW)
        reader = zstd.stream_reader(source, read_across_frames=True)
        while piece := reader.read(_CHUNK):
            yield piece
    elif info.compress_type == _DEFLATED:
        inflater = zlib.decompressobj(-zlib.MAX_WBITS)
        while not inflater.eof and (data := inflater.unconsumed_tail or span.read(_CHUNK)):
            yield inflater.decompress(data, _CHUNK)
    elif info.compress_type == _STORED:
        while piece := span.read(_CHUNK):
            yield piece
    else:
        raise DocumentRefused(
            info.filename,
            f"compressed by zip method {info.compress_type}, which runsite cannot read",
        )


_AT = re.compile(r" at line (\d+) column (\d+)\Z")


def _parsed(data: bytes, where: str, limits: Limits) -> Any:
    """The JSON value in ``data``, read from the bytes without a decoded copy. Inspect writes
    NaN where a metric has none, so it is read."""
    try:
        return jiter.from_json(data, allow_inf_nan=True)
    except ValueError as error:
        return _read_again(data, where, str(error), limits)


def _read_again(data: bytes, where: str, problem: str, limits: Limits) -> Any:
    """What the fast parser refused: bytes that are not UTF-8, JSON too deep or not JSON, each
    said so; and a string with a lone surrogate, which Python's parser reads."""
    offset = _not_utf8(data)
    if offset is not None:
        raise DocumentRefused(where, f"not UTF-8 text (invalid byte at offset {offset})")
    if problem.startswith("recursion limit exceeded"):
        raise DocumentRefused(where, _too_deep(limits))
    if "surrogate" in problem:
        try:
            return json.loads(data.decode("utf-8"))
        except RecursionError:
            raise DocumentRefused(where, _too_deep(limits)) from None
        except json.JSONDecodeError:
            pass
    place = _AT.search(problem)
    at = f" at line {place[1]}, column {place[2]}" if place else ""
    raise DocumentRefused(where, f"not valid JSON{at}")


def _not_utf8(data: bytes) -> int | None:
    """The offset of the first byte that is not UTF-8, decoded a chunk at a time; None if none."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    for start in range(0, len(data) + 1, _CHUNK):
        held = len(decoder.getstate()[0])
        try:
            decoder.decode(data[start : start + _CHUNK], final=start + _CHUNK >= len(data))
        except UnicodeDecodeError as error:
            return start - held + error.start
    return None


def _held(value: Any, where: str, limits: Limits) -> Any:
    """``value``, refused where its objects and arrays nest deeper than ``depth``: before
    anything walks it, as the walks that follow recurse."""
    if isinstance(value, dict | list) and nests_deeper(value, limits.depth):
        raise DocumentRefused(where, _too_deep(limits))
    return value


def _too_deep(limits: Limits) -> str:
    return f"nested more than {limits.depth} levels deep, {raised_by('depth')}"


def _an_object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise DocumentRefused(where, f"a JSON {json_type(value)}, not an object")
    return value


def resolved(sample: dict[str, Any], attached: Allowance) -> dict[str, Any]:
    """``sample`` with the attachments of its tool events inlined, each counted against
    ``attached``."""
    attachments = sample.get("attachments") or {}
    if not isinstance(attachments, dict):
        raise DocumentRefused("attachments", f"a JSON {json_type(attachments)}, not an object")
    events = sample.get("events") or []
    if not isinstance(events, list):
        raise DocumentRefused("events", f"a JSON {json_type(events)}, not an array")
    if attachments:
        events = [
            _attached(event, attachments, attached, f"events[{n}]")
            if isinstance(event, dict) and event.get("event") == "tool"
            else event
            for n, event in enumerate(events)
        ]
    kept = {k: v for k, v in sample.items() if k not in ("events_data", "attachments")}
    return kept | {"events": events}


def _attached(value: Any, attachments: dict[str, Any], attached: Allowance, where: str) -> Any:
    if isinstance(value, str):
        if value.startswith(ATTACHMENT):
            text = attachments.get(value[len(ATTACHMENT) :])
            if isinstance(text, str):
                attached.spend(len(text), where, "its attachments inline to")
                return text
        return value
    if isinstance(value, dict):
        return {key: _attached(item, attachments, attached, where) for key, item in value.items()}
    if isinstance(value, list):
        return [_attached(item, attachments, attached, where) for item in value]
    return value
