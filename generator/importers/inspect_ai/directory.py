"""An ``.eval``'s zip directory, read a record at a time and no further than ``[limits]``
allows.

The standard library's zipfile makes an object of every entry of a directory before anything
can look at them: a directory of a million entries (53 MB of file) took 585 MB. So the records
are read here, each into a small ``Member``, and a directory listing more members than
``samples`` is refused once it has listed one more: a log holds a member per sample and epoch,
and a handful besides.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from typing import IO

from generator.archive.config import Limits, raised_by
from generator.errors import DocumentRefused

_END = struct.Struct("<4s4H2LH")
"""The end of central directory record: signature, disks, entries, size and offset, comment."""
_LOCATOR = struct.Struct("<4sLQL")
"""The zip64 end of central directory locator, just before that record."""
_END64 = struct.Struct("<4sQ2H2L4Q")
"""The zip64 end of central directory record, where the locator says."""
_ENTRY = struct.Struct("<4s4B4HL2L5H2L")
"""A central directory record, before its name, extra field and comment."""
_LONGEST_COMMENT = 0xFFFF
_WIDE = 0xFFFFFFFF
"""A 32-bit field's value when the zip64 extra field holds the real one."""
_UTF8 = 0x800
"""The flag of a name written in UTF-8 (else it is in code page 437)."""


@dataclass(frozen=True)
class Member:
    """A member of the zip, as its directory records it."""

    filename: str
    header_offset: int
    compress_type: int
    flag_bits: int
    compress_size: int
    file_size: int
    CRC: int


def members(file: IO[bytes], limits: Limits) -> list[Member]:
    """Every member the directory of ``file`` lists, in its order."""
    start, length, entries, shift = _directory(file, os.fstat(file.fileno()).st_size)
    most = limits.samples + _OTHERS
    if entries > most:
        raise DocumentRefused("", too_many_samples(limits))
    file.seek(start)
    found: list[Member] = []
    left = length
    while left > 0:
        if len(found) == most:
            raise DocumentRefused("", too_many_samples(limits))
        member, used = _record(file, left, shift)
        found.append(member)
        left -= used
    return found


_OTHERS = 16
"""Members a log holds besides its samples: its header, reductions, summaries, journal."""


def too_many_samples(limits: Limits) -> str:
    """The refusal of a log holding more samples than ``[limits] samples``."""
    return f"more than {limits.samples} samples, {raised_by('samples')}"


def _not_a_zip() -> DocumentRefused:
    return DocumentRefused("", "not a zip archive, which an .eval log is")


def _directory(file: IO[bytes], size: int) -> tuple[int, int, int, int]:
    """Where the central directory starts, its length in bytes, how many entries it declares,
    and by how much its offsets are off: from the end record (zip64's where there is one),
    which sits right after the directory, as zipfile reads it, allowing for bytes a tool put
    before the zip."""
    tail_size = min(size, _END.size + _LONGEST_COMMENT)
    file.seek(size - tail_size)
    tail = file.read(tail_size)
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or at + _END.size > len(tail):
        raise _not_a_zip()
    _, disk, disk_of_start, _, entries, length, offset, _ = _END.unpack_from(tail, at)
    if disk or disk_of_start:
        raise DocumentRefused("", "a zip spread over several disks, which an .eval log never is")
    end = size - tail_size + at
    if end >= _LOCATOR.size + _END64.size:
        file.seek(end - _LOCATOR.size)
        if file.read(4) == b"PK\x06\x07":
            file.seek(end - _LOCATOR.size - _END64.size)
            record = file.read(_END64.size)
            if record[:4] != b"PK\x06\x06":
                raise _not_a_zip()
            entries, length, offset = _END64.unpack(record)[7:10]
            end -= _LOCATOR.size + _END64.size
    start = end - length
    if start < 0 or offset > start:
        raise _not_a_zip()
    return start, length, entries, start - offset


def _record(file: IO[bytes], left: int, shift: int) -> tuple[Member, int]:
    """The directory's next record, of the ``left`` bytes it has left, and the bytes it took;
    its member's offset moved by ``shift``."""
    head = file.read(_ENTRY.size)
    if len(head) < _ENTRY.size or head[:4] != b"PK\x01\x02" or _ENTRY.size > left:
        raise DocumentRefused("", "a zip whose directory is damaged")
    fields = _ENTRY.unpack(head)
    flags, method, crc, packed, size = fields[5], fields[6], fields[9], fields[10], fields[11]
    name_length, extra_length, comment_length = fields[12:15]
    rest = name_length + extra_length + comment_length
    tail = file.read(rest)
    if len(tail) < rest or _ENTRY.size + rest > left:
        raise DocumentRefused("", "a zip whose directory is damaged")
    raw = tail[:name_length]
    name = raw.decode("utf-8" if flags & _UTF8 else "cp437", errors="replace")
    extra = tail[name_length : name_length + extra_length]
    size, packed, offset = _widened(extra, (size, packed, fields[18]), name)
    return Member(name, offset + shift, method, flags, packed, size, crc), _ENTRY.size + rest


def _widened(extra: bytes, given: tuple[int, int, int], name: str) -> tuple[int, int, int]:
    """A member's size, compressed size and offset, each from the zip64 extra field where the
    record's own field is full."""
    wide = [value == _WIDE for value in given]
    if not any(wide):
        return given
    values = list(given)
    at = 0
    while at + 4 <= len(extra):
        kind, length = struct.unpack_from("<2H", extra, at)
        if kind == 1:
            data = extra[at + 4 : at + 4 + length]
            read = 0
            for n, full in enumerate(wide):
                if full:
                    if read + 8 > len(data):
                        raise DocumentRefused(name, "its zip64 sizes are cut short")
                    values[n] = struct.unpack_from("<Q", data, read)[0]
                    read += 8
            return values[0], values[1], values[2]
        at += 4 + length
    raise DocumentRefused(name, "its sizes are in a zip64 field it does not have")
