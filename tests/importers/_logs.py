"""Inspect logs for tests: the corpus's, opened with a reader of the test's own, and new ones
written as Inspect writes them (a zip of zstd members), with whatever a test changes in them;
and zips no Inspect writes: a member that inflates to a gigabyte, entries sharing one member."""

from __future__ import annotations

import json
import struct
import zipfile
import zlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import zstandard

from tests.conftest import CORPUS

LOGS = CORPUS / "inspect" / "logs"
ZSTD, DEFLATED = 93, 8


def members(path: Path) -> dict[str, Any]:
    """Every member of an .eval log, parsed, by name (zipfile opens no zstd member itself)."""
    data = path.read_bytes()
    found = {}
    for info in zipfile.ZipFile(path).infolist():
        name_length, extra_length = struct.unpack("<HH", data[info.header_offset + 26 :][:4])
        start = info.header_offset + 30 + name_length + extra_length
        raw = data[start : start + info.compress_size]
        if info.compress_type == ZSTD:
            raw = zstandard.ZstdDecompressor().decompress(raw, max_output_size=info.file_size)
        found[info.filename] = json.loads(raw)
    return found


def as_json_log(path: Path) -> dict[str, Any]:
    """A corpus log in the shape of a .json log, whichever container it is in."""
    if path.suffix == ".json":
        log: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return log
    parts = members(path)
    log = dict(parts.get("header.json") or parts["_journal/start.json"])
    log["samples"] = [v for k, v in parts.items() if k.startswith("samples/")]
    if "reductions.json" in parts:
        log["reductions"] = parts["reductions.json"]
    return log


@dataclass(frozen=True)
class Member:
    """One member of a zip: its name, its bytes as stored, and what its directory says of them
    (the method, and the size and checksum of what they inflate to)."""

    name: str
    packed: bytes
    method: int
    size: int
    crc: int
    shares: str | None = None
    """The member whose bytes the directory points this entry at, as a bomb's does."""


def packed(name: str, value: Any, method: int = ZSTD) -> Member:
    """``value``'s JSON as a member compressed by ``method``."""
    return stored(name, json.dumps(value).encode(), method)


def stored(name: str, content: bytes, method: int = ZSTD) -> Member:
    """``content`` as a member compressed by ``method``."""
    if method == ZSTD:
        data = zstandard.ZstdCompressor().compress(content)
    else:
        deflater = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
        data = deflater.compress(content) + deflater.flush()
    return Member(name, data, method, len(content), zlib.crc32(content))


def padded(name: str, value: Any, spaces: int, method: int = ZSTD) -> Member:
    """``value``'s JSON with ``spaces`` spaces before its closing brace, compressed a block at a
    time, so a member that inflates to a gigabyte takes kilobytes to make: zstd as one frame,
    deflate as one block compressed once and repeated (each ends on a full flush, which leaves
    nothing for the next to refer to)."""
    text = json.dumps(value).encode()
    head, tail = text[:-1], text[-1:]
    block = b" " * _BLOCK
    blocks, rest = divmod(spaces, _BLOCK)
    checksum = zlib.crc32(head)
    for _ in range(blocks):
        checksum = zlib.crc32(block, checksum)
    checksum = zlib.crc32(tail, zlib.crc32(block[:rest], checksum))
    if method == ZSTD:
        zstd = zstandard.ZstdCompressor(level=1).compressobj()
        pieces = [zstd.compress(head), *(zstd.compress(block) for _ in range(blocks))]
        data = b"".join([*pieces, zstd.compress(block[:rest] + tail), zstd.flush()])
    else:
        deflate = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
        start = deflate.compress(head) + deflate.flush(zlib.Z_FULL_FLUSH)
        repeated = deflate.compress(block) + deflate.flush(zlib.Z_FULL_FLUSH)
        data = start + repeated * blocks + deflate.compress(block[:rest] + tail) + deflate.flush()
    return Member(name, data, method, len(text) + spaces, checksum)


_BLOCK = 1 << 24


def write_zip(path: Path, entries: list[Member], zip64: bool = False) -> Path:
    """A zip of ``entries``, as Python's zipfile writes one; an entry that ``shares`` another's
    bytes is written to the directory only. ``zip64`` writes the directory as zip64 has it: every
    size and offset in its extra field, and the end record's counts in zip64's own; without it,
    a directory of more than 65,535 entries declares fewer, as a writer that forgot zip64 does."""
    body: list[bytes] = []
    directory: list[bytes] = []
    offsets: dict[str, int] = {}
    written = 0
    for entry in entries:
        name = entry.name.encode()
        common = struct.pack(
            "<HHHHHIIIHH", 20, 0, entry.method, 0, 0x21, entry.crc, len(entry.packed),
            entry.size, len(name), 0,
        )  # fmt: skip
        if entry.shares is None:
            offsets[entry.name] = written
            body.append(b"PK\x03\x04" + common + name + entry.packed)
            written += len(body[-1])
        offset = offsets[entry.shares or entry.name]
        if zip64:
            wide = struct.pack("<HHQQQ", 1, 24, entry.size, len(entry.packed), offset)
            sizes = struct.pack("<IIHH", _WIDE, _WIDE, len(name), len(wide))
            common = common[:14] + sizes
            record = struct.pack("<HHHII", 0, 0, 0, 0, _WIDE)
            directory.append(b"PK\x01\x02" + struct.pack("<H", 45) + common + record + name + wide)
        else:
            record = struct.pack("<HHHII", 0, 0, 0, 0, offset)
            directory.append(b"PK\x01\x02" + struct.pack("<H", 20) + common + record + name)
    size = sum(map(len, directory))
    count = len(entries)
    end = b""
    if zip64:
        at = written + size
        end = struct.pack("<IQHHII4Q", 0x06064B50, 44, 45, 45, 0, 0, count, count, size, written)
        end += struct.pack("<IIQI", 0x07064B50, 0, at, 1)
        count, size, written = 0xFFFF, _WIDE, _WIDE
    count &= 0xFFFF  # what a writer that forgot zip64 puts past 65,535 entries
    end += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, size, written, 0)
    with path.open("wb") as file:
        file.writelines([*body, *directory, end])
    return path


_WIDE = 0xFFFFFFFF


def write_eval(
    path: Path, parts: dict[str, Any], method: int = ZSTD, cut: str | None = None
) -> Path:
    """An .eval log of ``parts`` (name → JSON value), each member compressed by ``method``;
    the member named ``cut`` keeps only the first half of its compressed bytes, as a writer
    stopped midway leaves it."""
    entries = [packed(name, value, method) for name, value in parts.items()]
    return write_zip(
        path,
        [
            replace(e, packed=e.packed[: len(e.packed) // 2]) if e.name == cut else e
            for e in entries
        ],
    )


def sample_counts(log: dict[str, Any]) -> dict[str, int]:
    """How many samples (epochs) the log recorded of each sample id."""
    counts: dict[str, int] = {}
    for sample in log["samples"]:
        counts[str(sample["id"])] = counts.get(str(sample["id"]), 0) + 1
    return counts
