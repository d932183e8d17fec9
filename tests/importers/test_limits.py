"""What an import may cost. A file of a few kilobytes that would take gigabytes or hours (a member
that inflates to a gigabyte, whatever its zip's directory declares; entries sharing one member;
a count the log declares and does not back; nesting past the stack; a file of whitespace) is
refused in one line naming the file, the member or key, the limit and the key of runsite.toml
that raises it: exit 64, the archive as it was, and the import's own peak memory under 300 MB.
A file just under each limit imports within that, and raising a key lets a file in."""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import zstandard

from generator.importers import read_files
from generator.importers.options import Options
from tests._helpers import Measured, a_run, a_run_at, archive_state, git, measured
from tests.importers._logs import (
    DEFLATED,
    LOGS,
    ZSTD,
    Member,
    as_json_log,
    members,
    packed,
    padded,
    stored,
    write_zip,
)

AGENT = LOGS / "refund-agent.eval"
FIRST = "samples/r1_epoch_1.json"
NOTHING = "runsite: nothing archived"
GIGABYTE = 1 << 30
PEAK_MB = 300
"""What an import of any of these files may hold at most."""


def _raised(key: str) -> str:
    return f"the limit of [limits] {key} in runsite.toml"


def _import(archive: Path, path: Path) -> Measured:
    return measured("import", "--root", str(archive), "--tenant", "acme", str(path))


def _refused(archive: Path, path: Path, problem: str) -> None:
    before = archive_state(archive)
    done = _import(archive, path)
    assert (done.code, done.stderr.splitlines()) == (64, [f"runsite: {path}: {problem}", NOTHING])
    assert done.peak_mb < PEAK_MB
    assert archive_state(archive) == before


def _agent(path: Path, *changed: Member) -> Path:
    """The refund agent's .eval with the members ``changed`` in place of theirs, or added."""
    entries = {name: packed(name, value) for name, value in members(AGENT).items()}
    return write_zip(path, list((entries | {m.name: m for m in changed}).values()))


def _header(**eval_changes: Any) -> dict[str, Any]:
    header: dict[str, Any] = members(AGENT)["header.json"]
    header["eval"] |= eval_changes
    return header


def _sample(name: str = FIRST) -> dict[str, Any]:
    sample: dict[str, Any] = members(AGENT)[name]
    return sample


def _lying(member: Member) -> Member:
    """``member`` as a directory that lies says it is: a few kilobytes."""
    return Member(member.name, member.packed, member.method, 3_000, member.crc)


def _sharing(path: Path) -> Path:
    """The agent's header, and a thousand entries of its directory on the bytes of one sample
    that inflates to 60 MB: 60 GB, were each read."""
    kernel = padded(FIRST, _sample(), 60_000_000)
    shared = [
        Member(f"samples/r1_epoch_{n}.json", b"", kernel.method, kernel.size, kernel.crc, FIRST)
        for n in range(2, 1_002)
    ]
    return write_zip(path, [packed("header.json", _header()), kernel, *shared])


def _wide_window(path: Path) -> Path:
    """The agent's log with its first sample compressed in a window of 128 MiB, which a reader
    must hold whole to inflate it."""
    content = json.dumps(_sample()).encode()
    wide = zstandard.ZstdCompressionParameters(window_log=27, enable_ldm=True)
    compressor = zstandard.ZstdCompressor(compression_params=wide).compressobj()
    data = compressor.compress(content) + compressor.flush()
    return _agent(path, Member(FIRST, data, ZSTD, len(content), zlib.crc32(content)))


def _listing(path: Path) -> Path:
    """The agent's header and a million entries of its directory, each a sample of one more
    epoch, all on the bytes of one small sample: 60 MB of directory, which zipfile would make a
    million objects of before anything could look at them."""
    sample = packed(FIRST, _sample())
    listed = [
        Member(f"samples/r1_epoch_{n}.json", b"", sample.method, sample.size, sample.crc, FIRST)
        for n in range(2, 1_000_002)
    ]
    return write_zip(path, [packed("header.json", _header()), sample, *listed])


def _many(path: Path) -> Path:
    """Four samples of 60 MB each: each under ``member_mb``, together past ``log_mb`` at the
    fourth the zip holds, r2."""
    names = [f"samples/r{n}_epoch_1.json" for n in (1, 2, 3, 4)]
    return _agent(path, *(padded(name, _sample(name), 60_000_000) for name in names))


@pytest.mark.parametrize(
    ("make", "problem"),
    [
        (
            lambda p: _agent(p, padded("header.json", _header(), GIGABYTE)),
            f"header.json: inflates to more than 100 MB, {_raised('member_mb')}",
        ),
        (
            lambda p: _agent(p, padded(FIRST, _sample(), GIGABYTE, method=DEFLATED)),
            f"{FIRST}: inflates to more than 100 MB, {_raised('member_mb')}",
        ),
        (
            lambda p: _agent(p, _lying(padded("header.json", _header(), GIGABYTE))),
            "header.json: truncated or damaged: it does not decompress to what it held",
        ),
        (
            _many,
            "samples/r2_epoch_1.json: the log's members inflate to more than 200 MB, "
            + _raised("log_mb"),
        ),
        (_sharing, f"samples/r1_epoch_2.json: its bytes overlap those of {FIRST} in the zip"),
        (_listing, f"more than 100000 samples, {_raised('samples')}"),
        (
            _wide_window,
            f"{FIRST}: compressed with a zstd window over 32 MiB, wider than Inspect ever writes",
        ),
    ],
    ids=[
        "zstd-header",
        "deflate-sample",
        "declared-smaller",
        "many-members",
        "overlapping",
        "a-million-entries",
        "wide-zstd-window",
    ],
)
def test_a_member_is_counted_as_it_inflates_and_refused_past_the_limits(
    archive, tmp_path, make, problem
):
    _refused(archive, make(tmp_path / "bomb.eval"), problem)


def _log(**eval_changes: Any) -> dict[str, Any]:
    log = as_json_log(LOGS / "refund-agent.json")
    log["eval"] |= eval_changes
    return log


def _written(path: Path, value: Any) -> Path:
    path.write_text(json.dumps(value), encoding="utf-8")
    return path


def _epochs(epochs: int) -> dict[str, Any]:
    return {**_header()["eval"]["config"], "epochs": epochs}


def _fanned_out(path: Path) -> Path:
    """One sample's attachment of a million characters, used by 300 tool calls: 300 MB."""
    sample = _sample()
    tool = next(e for e in sample["events"] if e["event"] == "tool")
    sample["attachments"]["f" * 32] = "x" * 1_000_000
    calls = [tool | {"result": f"attachment://{'f' * 32}"} for _ in range(300)]
    sample["events"] = calls + sample["events"]
    return _agent(path, packed(FIRST, sample))


def _declared_cases(path: Path) -> Path:
    """200,000 sample ids and 400 more scorers declared by a header of a few megabytes: a check
    in every case makes 80 million verdicts."""
    header = _header()
    header["eval"]["dataset"]["sample_ids"] += [f"id{n}" for n in range(200_000)]
    header["eval"]["scorers"] += [{"name": f"s{n}", "options": {}} for n in range(400)]
    return _agent(path, packed("header.json", header))


def _repeated_target(path: Path) -> Path:
    """A target of 2 MB, carried into the verdict of each of 43 checks: 86 MB of document."""
    log = _log()
    log["eval"]["scorers"] += [{"name": f"s{n}", "options": {}} for n in range(40)]
    log["samples"][0]["target"] = "t" * 2_000_000
    return _written(path, log)


@pytest.mark.parametrize(
    ("make", "problem"),
    [
        (
            lambda p: _written(p.with_suffix(".json"), _log(config=_epochs(10_000_000))),
            f"eval.config.epochs: more than 1000 epochs, {_raised('epochs')}",
        ),
        (
            lambda p: _agent(p, packed("header.json", _header(config=_epochs(10_000_000)))),
            f"header.json: eval.config.epochs: more than 1000 epochs, {_raised('epochs')}",
        ),
        (
            _declared_cases,
            "403 checks on 200005 cases would make a run document of more than 64 MB, "
            + _raised("document_mb"),
        ),
        (
            _fanned_out,
            f"{FIRST}: events[200]: its attachments inline to more than 200 MB, "
            + _raised("log_mb"),
        ),
        (
            lambda p: _repeated_target(p.with_suffix(".json")),
            f"a run document of more than 64 MB, {_raised('document_mb')}",
        ),
    ],
    ids=["json-epochs", "eval-epochs", "cases-by-checks", "attachment-fan-out", "repeated-target"],
)
def test_work_a_log_does_not_back_with_data_is_refused_before_it_is_done(
    archive, tmp_path, make, problem
):
    _refused(archive, make(tmp_path / "declared.eval"), problem)


@pytest.mark.parametrize(
    ("log", "where"), [("refund-agent.eval", ""), ("refund-agent.json", "samples: ")]
)
def test_a_log_holding_more_samples_than_the_limit_is_refused(archive, log, where):
    (archive / "runsite.toml").write_text(
        '[site]\nname = "evals"\n[limits]\nsamples = 4\n', encoding="utf-8"
    )
    _refused(archive, LOGS / log, f"{where}more than 4 samples, {_raised('samples')}")


def test_epochs_without_a_sample_cost_nothing_and_are_named_in_one_line(write_json):
    acme = Options(tenant="acme")
    (plain,) = read_files([write_json(_log(), "plain.json")], acme).arrivals
    (declared,) = read_files([write_json(_log(config=_epochs(1000)), "many.json")], acme).arrivals
    verdict = declared.reading.run.results[0].verdicts[0]
    assert verdict.metadata["samples"] == 1000
    assert verdict.samples == [plain.reading.run.results[0].verdicts[0].score]
    assert verdict.reason is not None
    assert verdict.reason.splitlines()[-1] == "epochs 2 to 1000: no sample was recorded"
    assert len(declared.data) < 1.5 * len(plain.data)


def test_raising_epochs_lets_a_log_declaring_ten_million_in_at_the_cost_of_its_samples(
    archive, tmp_path
):
    (archive / "runsite.toml").write_text(
        '[site]\nname = "evals"\n[limits]\nepochs = 10_000_000\n', encoding="utf-8"
    )
    log = _written(tmp_path / "declared.json", _log(config=_epochs(10_000_000)))
    done = _import(archive, log)
    assert (done.code, done.stderr) == (0, "")
    assert done.peak_mb < PEAK_MB


DEEP = "DEEP-VALUE-HERE"


def _with_deep(value: Any, levels: int) -> bytes:
    """``value``'s JSON with objects nested ``levels`` deep where it holds ``DEEP``."""
    return json.dumps(value).replace(f'"{DEEP}"', '{"a":' * levels + "{}" + "}" * levels).encode()


def _sample_metadata(sample: dict[str, Any]) -> None:
    sample["metadata"] = {"trace": DEEP}


def _score_metadata(sample: dict[str, Any]) -> None:
    sample["scores"]["includes"]["metadata"] = {"trace": DEEP}


def _tool_arguments(sample: dict[str, Any]) -> None:
    next(e for e in sample["events"] if e["event"] == "tool")["arguments"] = {"q": DEEP}


def _deep_eval(path: Path, plant: Callable[[dict[str, Any]], None], levels: int) -> Path:
    sample = _sample()
    plant(sample)
    return _agent(path.with_suffix(".eval"), stored(FIRST, _with_deep(sample, levels)))


def _deep_json(path: Path, plant: Callable[[dict[str, Any]], None], levels: int) -> Path:
    log = _log()
    plant(log["samples"][0])
    path = path.with_suffix(".json")
    path.write_bytes(_with_deep(log, levels))
    return path


TOO_DEEP = f"nested more than 64 levels deep, {_raised('depth')}"


@pytest.mark.parametrize(
    ("make", "plant", "levels", "where"),
    [
        (_deep_eval, _sample_metadata, 100, f"{FIRST}: "),
        (_deep_eval, _score_metadata, 999, f"{FIRST}: "),
        (_deep_eval, _tool_arguments, 100_000, f"{FIRST}: "),
        (_deep_json, _sample_metadata, 100, "samples[0]: "),
        (_deep_json, _tool_arguments, 500, ""),
        (_deep_json, _score_metadata, 100_000, ""),
    ],
    ids=["eval-sample", "eval-score", "eval-tool", "json-sample", "json-tool", "json-score"],
)
def test_a_log_nested_past_the_depth_is_refused_before_anything_walks_it(
    archive, tmp_path, make, plant, levels, where
):
    _refused(archive, make(tmp_path / "deep", plant, levels), f"{where}{TOO_DEEP}")


def test_raising_depth_lets_deeper_tool_arguments_in(archive, tmp_path):
    (archive / "runsite.toml").write_text(
        '[site]\nname = "evals"\n[limits]\ndepth = 120\n', encoding="utf-8"
    )
    done = _import(archive, _deep_eval(tmp_path / "deep", _tool_arguments, 100))
    assert (done.code, done.stderr) == (0, "")


def _padded_file(path: Path, text: bytes, size: int) -> Path:
    """``text`` (a JSON object) grown to ``size`` bytes by whitespace before its closing brace,
    written a block at a time."""
    block = b" " * (1 << 24)
    with path.open("wb") as file:
        file.write(text[:-1])
        left = size - len(text)
        while left > 0:
            left -= file.write(block[: min(left, len(block))])
        file.write(text[-1:])
    return path


def _log_text() -> bytes:
    return json.dumps(_log()).encode()


def _run_text() -> bytes:
    return json.dumps(a_run()).encode()


@pytest.mark.parametrize(
    ("name", "text", "size", "problem"),
    [
        ("log.json", _log_text, 200_000_001, f"a file of more than 200 MB, {_raised('log_mb')}"),
        ("run.json", _run_text, 64_000_001, f"a file of more than 64 MB, {_raised('document_mb')}"),
    ],
    ids=["inspect-log", "run-document"],
)
def test_a_file_over_its_size_is_refused_unread(archive, tmp_path, name, text, size, problem):
    _refused(archive, _padded_file(tmp_path / name, text(), size), problem)


def test_an_eval_file_over_the_log_size_is_refused_unread(archive, tmp_path):
    path = tmp_path / "large.eval"
    path.write_bytes(AGENT.read_bytes())
    with path.open("r+b") as file:
        file.truncate(200_000_001)
    _refused(archive, path, f"a file of more than 200 MB, {_raised('log_mb')}")


@pytest.mark.parametrize(
    "make",
    [
        lambda p: _padded_file(p / "log.json", _log_text(), 199_900_000),
        lambda p: _padded_file(p / "run.json", _run_text(), 63_900_000),
        lambda p: _agent(p / "member.eval", padded("header.json", _header(), 99_900_000)),
    ],
    ids=["inspect-log", "run-document", "eval-member"],
)
def test_a_file_of_whitespace_just_under_the_limits_imports_within_the_peak(
    archive, tmp_path, make
):
    done = _import(archive, make(tmp_path))
    assert (done.code, done.stderr) == (0, "")
    assert done.peak_mb < PEAK_MB


DENSE = 7_000_000
"""Empty arrays, three bytes each: 21 MB of JSON that parsing made 560 MB of objects of."""


def _dense(value: dict[str, Any]) -> bytes:
    """``value``'s JSON with ``DENSE`` empty arrays where it holds ``FILLER``, made as bytes."""
    arrays = b"[" + b"[]," * (DENSE - 1) + b"[]]"
    return json.dumps(value).encode().replace(json.dumps(FILLER).encode(), arrays)


FILLER = "DENSE-ARRAYS"
FILLED = {"filler": FILLER}


def _filled_log() -> dict[str, Any]:
    log = _log()
    log["samples"][0]["metadata"] = FILLED
    return log


@pytest.mark.parametrize(
    "make",
    [
        lambda p: _written_bytes(p / "dense.json", _dense(_filled_log())),
        lambda p: _agent(
            p / "dense.eval", stored(FIRST, _dense({**_sample(), "metadata": FILLED}))
        ),
        lambda p: _written_bytes(p / "dense-run.json", _dense(a_run(metadata=FILLED))),
    ],
    ids=["inspect-log", "eval-member", "run-document"],
)
def test_a_file_denser_in_values_than_any_real_one_is_refused_before_it_is_parsed(
    archive, tmp_path, make
):
    path = make(tmp_path)
    before = archive_state(archive)
    done = _import(archive, path)
    (line, nothing) = done.stderr.splitlines()
    assert (done.code, nothing) == (64, NOTHING)
    assert line.startswith(f"runsite: {path}: ") and " JSON values in " in line
    assert line.endswith(
        "bytes: more than one in every 16 bytes, past the first 1000000, "
        "which no real log or document holds"
    )
    assert done.peak_mb < PEAK_MB
    assert archive_state(archive) == before


def _written_bytes(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[limits]\nlog_size = 1\n", "limits.log_size: not a key of this record"),
        ("[limits]\ndepth = 'deep'\n", "limits.depth: a TOML string, not an integer"),
        ("[limits]\nmember_mb = 1.5\n", "limits.member_mb: a TOML number, not an integer"),
        ("[limits]\ndepth = 500\n", "limits.depth: above 200"),
        ("[limits]\nepochs = 0\n", "limits.epochs: below 1"),
    ],
)
def test_a_bad_limit_is_refused_naming_runsite_toml_and_the_key(runsite, archive, text, problem):
    config = archive / "runsite.toml"
    config.write_text(f'[site]\nname = "evals"\n{text}', encoding="utf-8")
    result = runsite("import", "--root", str(archive), str(AGENT))
    assert result.exit_code == 64
    assert result.stderr == f"runsite: {config}: {problem}\n"


def test_an_archived_document_over_the_size_is_refused_before_it_is_read(
    runsite, archive, tmp_path
):
    document = _padded_file(tmp_path / "run.json", _run_text(), 2_000_000)
    assert runsite("import", "--root", str(archive), str(document)).exit_code == 0
    (archived,) = (archive / "runs").rglob("*.json")
    shown = archived.relative_to(archive).as_posix()
    with (archive / "runsite.toml").open("a", encoding="utf-8") as config:
        config.write("[limits]\ndocument_mb = 1\n")
    head = git(archive, "rev-parse", "HEAD")
    for command in (["list"], ["show", "latest"], ["build", "--out", str(tmp_path / "site")]):
        result = runsite(*command, "--root", str(archive))
        assert (result.exit_code, result.stderr) == (
            64,
            f"runsite: {shown}: a file of more than 1 MB, {_raised('document_mb')}\n",
        ), command
    assert git(archive, "rev-parse", "HEAD") == head
    assert not (tmp_path / "site").exists()


@pytest.mark.slow
def test_a_rebuild_refuses_a_document_over_the_size_as_a_full_build_does(
    runsite, archive, tmp_path
):
    """A rebuild asks git for the size of the runs that arrived alone (the cache keeps the
    others'): a document over the limit is refused by its size whether it arrived since the last
    build or the cache knows it, and the site stays as it was."""
    for second in range(6):
        document = tmp_path / f"run{second}.json"
        document.write_text(json.dumps(a_run_at(second)), encoding="utf-8")
        assert runsite("import", "--root", str(archive), str(document)).exit_code == 0
    site = tmp_path / "site"
    build = ["build", "--root", str(archive), "--out", str(site)]
    assert runsite(*build).exit_code == 0
    large = _padded_file(tmp_path / "large.json", json.dumps(a_run_at(59)).encode(), 2_000_000)
    assert runsite("import", "--root", str(archive), str(large)).exit_code == 0
    (archived,) = [p for p in (archive / "runs").rglob("*.json") if p.stat().st_size > 1 << 20]
    shown = archived.relative_to(archive).as_posix()
    config = archive / "runsite.toml"
    allowed = config.read_text(encoding="utf-8")
    refused = (64, f"runsite: {shown}: a file of more than 1 MB, {_raised('document_mb')}\n")
    for known in (False, True):
        if known:  # built under the limit it was imported under: the cache knows its size
            config.write_text(allowed, encoding="utf-8")
            assert runsite(*build).exit_code == 0
        config.write_text(f"{allowed}[limits]\ndocument_mb = 1\n", encoding="utf-8")
        before = _files(site)
        result = runsite(*build)
        assert (result.exit_code, result.stderr) == refused, known
        assert _files(site) == before


def _files(folder: Path) -> dict[Path, bytes]:
    return {path: path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}
