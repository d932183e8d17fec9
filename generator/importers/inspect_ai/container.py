"""Inspect AI's two containers, opened without inspect_ai.

A ``.json`` log is one EvalLog document. An ``.eval`` log is a zip: ``header.json`` (the log
without its samples), ``reductions.json``, and one ``samples/<id>_epoch_<n>.json`` per sample. An
eval still running, or one that crashed, has no header yet: only ``_journal/start.json`` (the eval
and its plan) beside the samples it finished. Since inspect_ai 0.3.206 every member is zstd (zip
method 93), which the standard library's zipfile cannot open before Python 3.14, so members are
read here from their raw bytes: the central directory says where each one is, and its checksum
says whether what came out is what went in.

Inside a sample's events, Inspect writes two indirections that a reader must undo: strings over
100 characters become ``attachment://<hash>`` (the text is in ``attachments``), and each model
event's input and provider request point into the sample's message and call pools
(``events_data``). ``resolved`` undoes both. The sample's own fields (input, target, messages,
output, scores) always hold their whole text.
"""

from __future__ import annotations

import io
import json
import struct
import zipfile
import zlib
from dataclasses import dataclass
from typing import Any

import zstandard

from generator.document.values import json_type
from generator.errors import DocumentRefused

HEADER = "header.json"
JOURNAL = "_journal/start.json"
REDUCTIONS = "reductions.json"
SAMPLES = "samples/"
ATTACHMENT = "attachment://"

_STORED, _DEFLATED, _ZSTD = 0, 8, 93
_LOCAL_HEADER = struct.Struct("<4s22xHH")
"""A member's local header: its signature, then (past 22 bytes) its name's and extra's lengths."""


@dataclass(frozen=True)
class Container:
    """A log as read from its file: the header (EvalLog without samples) and each sample."""

    header: dict[str, Any]
    origin: str
    """Where the header was read (a member of an .eval, or empty for a .json log)."""
    samples: list[tuple[str, dict[str, Any]]]
    """Each sample with where it was read, in the order the file holds them."""


def open_json_log(data: bytes) -> Container:
    """A ``.json`` log."""
    header = _object(data, "")
    samples = header.pop("samples", None) or []
    if not isinstance(samples, list):
        raise DocumentRefused("samples", f"a JSON {json_type(samples)}, not an array")
    return Container(
        header, "", [(f"samples[{n}]", _a_sample(s, n)) for n, s in enumerate(samples)]
    )


def open_eval_log(data: bytes) -> Container:
    """An ``.eval`` log, from its header or, where the eval never finished, from its journal."""
    try:
        members = {info.filename: info for info in zipfile.ZipFile(io.BytesIO(data)).infolist()}
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError):
        raise DocumentRefused("", "not a zip archive, which an .eval log is") from None
    samples = [
        (name, _object(_member(data, members[name]), name))
        for name in members
        if name.startswith(SAMPLES) and name.endswith(".json")
    ]
    if HEADER in members:
        header = _object(_member(data, members[HEADER]), HEADER)
        if REDUCTIONS in members:
            header["reductions"] = _parsed(_member(data, members[REDUCTIONS]), REDUCTIONS)
        return Container(header, HEADER, samples)
    if JOURNAL in members:
        start = _object(_member(data, members[JOURNAL]), JOURNAL)
        return Container({**start, "status": "started"}, JOURNAL, samples)
    raise DocumentRefused("", f"not an Inspect log: a zip with neither {HEADER} nor {JOURNAL}")


def _member(data: bytes, info: zipfile.ZipInfo) -> bytes:
    """One member's content, checked against the size and checksum the directory records."""
    name = info.filename
    head = data[info.header_offset : info.header_offset + _LOCAL_HEADER.size]
    if len(head) < _LOCAL_HEADER.size or head[:4] != b"PK\x03\x04":
        raise DocumentRefused(name, "truncated: its entry is not where the zip says")
    if info.flag_bits & 0x1:
        raise DocumentRefused(name, "encrypted, which an Inspect log never is")
    _, name_length, extra_length = _LOCAL_HEADER.unpack(head)
    start = info.header_offset + _LOCAL_HEADER.size + name_length + extra_length
    raw = data[start : start + info.compress_size]
    if len(raw) < info.compress_size:
        raise DocumentRefused(name, "truncated: the zip ends inside it")
    try:
        content = _inflated(raw, info)
    except (zstandard.ZstdError, zlib.error):
        content = None
    if content is None or len(content) != info.file_size or zlib.crc32(content) != info.CRC:
        raise DocumentRefused(name, "truncated or damaged: it does not decompress to what it held")
    return content


def _inflated(raw: bytes, info: zipfile.ZipInfo) -> bytes:
    if info.compress_type == _ZSTD:
        return zstandard.ZstdDecompressor().decompress(raw, max_output_size=info.file_size)
    if info.compress_type == _DEFLATED:
        inflater = zlib.decompressobj(-zlib.MAX_WBITS)
        return inflater.decompress(raw, info.file_size + 1)
    if info.compress_type == _STORED:
        return raw
    raise DocumentRefused(
        info.filename, f"compressed by zip method {info.compress_type}, which runsite cannot read"
    )


def _parsed(data: bytes, where: str) -> Any:
    """The JSON value in ``data``. Inspect writes NaN where a metric has none, so it is read."""
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise DocumentRefused(
            where, f"not UTF-8 text (invalid byte at offset {error.start})"
        ) from None
    except json.JSONDecodeError as error:
        raise DocumentRefused(
            where, f"not valid JSON at line {error.lineno}, column {error.colno}"
        ) from None
    except RecursionError:
        raise DocumentRefused(where, "nested too deeply to read") from None


def _object(data: bytes, where: str) -> dict[str, Any]:
    value = _parsed(data, where)
    if not isinstance(value, dict):
        raise DocumentRefused(where, f"a JSON {json_type(value)}, not an object")
    return value


def _a_sample(value: Any, position: int) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise DocumentRefused(f"samples[{position}]", f"a JSON {json_type(value)}, not an object")
    return value


def resolved(sample: dict[str, Any]) -> dict[str, Any]:
    """``sample`` with its attachments inlined and its model events' pooled parts restored."""
    pools = sample.get("events_data") or {}
    attachments = sample.get("attachments") or {}
    if not isinstance(pools, dict) or not isinstance(attachments, dict):
        raise DocumentRefused("events_data", "pools and attachments are JSON objects")
    events = sample.get("events") or []
    if not isinstance(events, list):
        raise DocumentRefused("events", f"a JSON {json_type(events)}, not an array")
    restored = [
        _unpooled(event, pools, f"events[{n}]")
        if isinstance(event, dict) and event.get("event") == "model"
        else event
        for n, event in enumerate(events)
    ]
    kept = {k: v for k, v in sample.items() if k not in ("events_data", "attachments")}
    return kept | {"events": _attached(restored, attachments) if attachments else restored}


def _unpooled(event: dict[str, Any], pools: dict[str, Any], where: str) -> dict[str, Any]:
    """A model event whose input (``input_refs``) and request (``call.call_refs``) are whole."""
    if event.get("input_refs"):
        event = {**event, "input": _pooled(pools, "messages", event["input_refs"], where)}
    call = event.get("call")
    if isinstance(call, dict) and call.get("call_refs"):
        key = call.get("call_key")
        key = key if isinstance(key, str) and key else "messages"
        request: dict[str, Any] = call["request"] if isinstance(call.get("request"), dict) else {}
        items = _pooled(pools, "calls", call["call_refs"], f"{where}.call")
        event = {**event, "call": {**call, "request": {**request, key: items}}}
    return event


def _pooled(pools: dict[str, Any], pool: str, refs: Any, where: str) -> list[Any]:
    items = pools.get(pool) or []
    ranges: list[Any] = refs if isinstance(refs, list) else [None]
    if not isinstance(items, list) or not all(_a_range(r, len(items)) for r in ranges):
        raise DocumentRefused(where, f"refers to {pool} its sample's pool does not hold")
    return [item for start, end in ranges for item in items[start:end]]


def _a_range(ref: Any, size: int) -> bool:
    return (
        isinstance(ref, list)
        and len(ref) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) for n in ref)
        and 0 <= ref[0] <= ref[1] <= size
    )


def _attached(value: Any, attachments: dict[str, Any]) -> Any:
    if isinstance(value, str):
        if value.startswith(ATTACHMENT):
            text = attachments.get(value[len(ATTACHMENT) :])
            return text if isinstance(text, str) else value
        return value
    if isinstance(value, dict):
        return {key: _attached(item, attachments) for key, item in value.items()}
    if isinstance(value, list):
        return [_attached(item, attachments) for item in value]
    return value
