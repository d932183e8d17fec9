"""Inspect logs for tests: the corpus's, opened with a reader of the test's own, and new ones
written as Inspect writes them (a zip of zstd members), with whatever a test changes in them."""

from __future__ import annotations

import json
import struct
import zipfile
import zlib
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


def write_eval(
    path: Path, parts: dict[str, Any], method: int = ZSTD, cut: str | None = None
) -> Path:
    """An .eval log of ``parts`` (name → JSON value), each member compressed by ``method``;
    the member named ``cut`` keeps only the first half of its compressed bytes, as a writer
    stopped midway leaves it."""
    body, directory = b"", b""
    for name, value in parts.items():
        content = json.dumps(value).encode()
        if method == ZSTD:
            packed = zstandard.ZstdCompressor().compress(content)
        else:
            deflater = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
            packed = deflater.compress(content) + deflater.flush()
        if name == cut:
            packed = packed[: len(packed) // 2]
        common = struct.pack(
            "<HHHHHIIIHH", 20, 0, method, 0, 0x21, zlib.crc32(content), len(packed),
            len(content), len(name.encode()), 0,
        )  # fmt: skip
        entry = struct.pack("<HHHII", 0, 0, 0, 0, len(body))
        directory += b"PK\x01\x02" + struct.pack("<H", 20) + common + entry + name.encode()
        body += b"PK\x03\x04" + common + name.encode() + packed
    end = struct.pack(
        "<IHHHHIIH", 0x06054B50, 0, 0, len(parts), len(parts), len(directory), len(body), 0
    )
    path.write_bytes(body + directory + end)
    return path


def sample_counts(log: dict[str, Any]) -> dict[str, int]:
    """How many samples (epochs) the log recorded of each sample id."""
    counts: dict[str, int] = {}
    for sample in log["samples"]:
        counts[str(sample["id"])] = counts.get(str(sample["id"]), 0) + 1
    return counts
