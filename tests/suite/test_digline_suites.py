"""One world with digline: the corpus's four suites, run by runsite against the corpus's stub,
give the identities, statuses and scores digline 0.34 wrote, and the readings of runsite's
own pair, or of a runsite run against digline's imported baseline, count what digline's did."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from generator.document.codec import read_run
from generator.document.redact import redact
from generator.reading import explain
from generator.site.writer import reading_sections
from tests.conftest import CORPUS
from tests.suite._suites import write_suite

SUITES = ("text-checks", "judged", "aggregates", "agent")
FOLDER = CORPUS / "digline-suites"
VERDICT_KEYS = (
    "assertion",
    "assertion_id",
    "status",
    "threshold",
    "tolerance",
    "samples",
    "sample_min",
    "sample_max",
    "sample_means",
    "judged",
    "floor_standard_errors",
)


def _digline(name: str) -> dict[str, dict[str, Any]]:
    """digline's two documents of a suite: the base run, then the worse one."""
    base, worse = sorted((FOLDER / name / "digline-runs").glob("*.json"))
    return {"base": json.loads(base.read_text()), "worse": json.loads(worse.read_text())}


@contextmanager
def _stub(mode: str) -> Iterator[int]:
    """The corpus's stub application, answering in ``mode`` on a port of its own."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    environment = os.environ | {"STUB_PORT": str(port), "STUB_MODE": mode}
    stub = subprocess.Popen(
        [sys.executable, str(FOLDER / "stub.py")], env=environment, stdout=subprocess.PIPE
    )
    try:
        assert stub.stdout is not None and stub.stdout.readline().startswith(b"stub")
        _listening(port)
        yield port
    finally:
        stub.terminate()
        stub.wait()


def _listening(port: int) -> None:
    """Wait until the stub accepts connections: it announces itself before it binds."""
    for _ in range(500):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except ConnectionRefusedError:
            time.sleep(0.01)
    pytest.fail(f"the corpus stub never listened on port {port}")


def _suite(name: str, folder: Path, port: int) -> Path:
    """The corpus suite copied into ``folder``, its target pointed at the stub's port."""
    copy = folder / name
    shutil.copytree(FOLDER / name, copy, ignore=shutil.ignore_patterns("digline-*"))
    suite = copy / "suite.toml"
    suite.write_text(suite.read_text().replace("18741", str(port)))
    return suite


def _measure(
    runsite: Callable[..., Result], name: str, mode: str, folder: Path, *where: str
) -> tuple[Result, Path]:
    """Run the suite against the stub answering in ``mode``: into the archive at ``where``
    (``--root``), else into a document of its own."""
    out = folder / f"{name}-{mode}.json"
    with _stub(mode) as port:
        suite = _suite(name, folder / mode, port)
        kept = list(where) if where else ["--no-archive", "--out", str(out)]
        result = runsite("run", str(suite), *kept)
    return result, out


def _verdicts(doc: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(c["case_id"], v) for c in doc["results"] for v in c["verdicts"]] + [
        ("", v) for v in doc["aggregate"]
    ]


def _same_metadata(ours: dict[str, Any], theirs: dict[str, Any]) -> bool:
    if set(ours) != set(theirs):
        return False
    for key, value in theirs.items():
        if isinstance(value, float):
            if round(ours[key], 6) != round(value, 6):
                return False
        elif ours[key] != value:
            return False
    return True


@pytest.mark.parametrize("name", SUITES)
def test_a_digline_suite_run_by_runsite_gives_digline_identities_statuses_and_scores(
    name, runsite, tmp_path, fake_provider
):
    for mode, theirs in _digline(name).items():
        result, out = _measure(runsite, name, mode, tmp_path)
        assert result.exit_code == 0, result.output
        ours = json.loads(out.read_text())
        assert ours["config_hash"] == theirs["config_hash"], mode
        assert ours["target_config"] == theirs["target_config"], mode
        assert [
            (c["case_id"], c["suspended"], c.get("error_kind"), c.get("canary"))
            for c in ours["results"]
        ] == [
            (c["case_id"], c["suspended"], c.get("error_kind"), c.get("canary"))
            for c in theirs["results"]
        ], mode
        pairs = list(zip(_verdicts(ours), _verdicts(theirs), strict=True))
        for (case, mine), (_, digline) in pairs:
            where = f"{mode} {case} {digline['assertion']}"
            assert [mine.get(k) for k in VERDICT_KEYS] == [digline.get(k) for k in VERDICT_KEYS], (
                where
            )
            assert mine["score"] == digline["score"], where
            assert _same_metadata(mine["metadata"], digline["metadata"]), where


def _counts(facts: list[dict[str, Any]]) -> dict[str, int]:
    """A diff's head, in the names digline's ``--json counts`` gives it."""
    head = {f["kind"]: f["params"] for f in facts if f["section"] == "head"}
    checks = head["diff.head.checks"]
    favours = head.get("diff.head.favours", {"left": 0, "right": 0})
    only = head.get("diff.head.one_side", {"left": 0, "right": 0})
    errored = head.get("diff.head.errored", {"count": 0})["count"]
    return {
        "total": checks["count"],
        "differing": checks["differing"] + errored,
        "favours_left": favours["left"],
        "favours_right": favours["right"],
        "errored": errored,
        "within_tolerance": checks["within"],
        "only_left": only["left"],
        "only_right": only["right"],
    }


@pytest.mark.parametrize("name", SUITES)
def test_the_diff_of_runsites_own_pair_counts_what_digline_counted_for_its_pair(
    name, runsite, tmp_path, fake_provider
):
    _, base = _measure(runsite, name, "base", tmp_path)
    _, worse = _measure(runsite, name, "worse", tmp_path)
    result = runsite("diff", str(base), str(worse), "--json")
    assert result.exit_code == 0, result.output
    expected = json.loads((FOLDER / name / "digline-diff.json").read_text())["counts"]
    assert _counts(json.loads(result.stdout)["facts"]) == {k: expected[k] for k in _counts_keys()}


def _counts_keys() -> tuple[str, ...]:
    return (
        "total",
        "differing",
        "favours_left",
        "favours_right",
        "errored",
        "within_tolerance",
        "only_left",
        "only_right",
    )


_DIGLINE_LINE = re.compile(
    r"^(?P<case>.+?) · (?P<check>\S+) (?:(?P<worse>got worse)|(?P<better>got better)|"
    r"(?P<errored>could not be judged)|(?P<moved>measured over)|(?P<under>is under its bar))"
)
_KINDS = {
    "check.regressed": "worse",
    "check.regressed.flip": "worse",
    "check.improved": "better",
    "check.improved.flip": "better",
    "check.errored.now": "errored",
    "check.errored.before": "errored",
    "check.errored.both": "errored",
    "check.errored": "errored",
    "check.errored.raised": "errored",
    "check.errored.shape": "errored",
    "check.denominator_moved": "moved",
    "check.failed": "under",
}


def _digline_reading(name: str) -> set[tuple[str, str, str]]:
    """(outcome, case, check) of every check digline's explain names, "" for the whole run."""
    found = set()
    for line in (FOLDER / name / "digline-explain.txt").read_text().splitlines():
        match = _DIGLINE_LINE.match(line)
        if match:
            outcome = next(k for k in ("worse", "better", "errored", "moved", "under") if match[k])
            case = "" if match["case"] == "the whole run" else match["case"]
            found.add((outcome, case, match["check"].rstrip(":")))
    return found


def _reading(facts: list[dict[str, Any]]) -> set[tuple[str, str, str]]:
    return {
        (_KINDS[f["kind"]], str(f["params"].get("case", "")), str(f["params"]["check"]))
        for f in facts
        if f["kind"] in _KINDS
    }


@pytest.mark.parametrize("name", ["judged", "aggregates", "agent"])
def test_an_imported_digline_baseline_gates_a_runsite_run_as_digline_gated_it(
    name, runsite, archive, tmp_path, fake_provider
):
    base = sorted((FOLDER / name / "digline-runs").glob("*.json"))[0]
    assert runsite("import", str(base), "--root", str(archive)).exit_code == 0
    assert runsite("baseline", "set", f"{name}@latest", "--root", str(archive)).exit_code == 0
    measured, _ = _measure(runsite, name, "worse", tmp_path, "--root", str(archive))
    assert measured.exit_code == 0, measured.output

    result = runsite("explain", f"{name}@latest", "--baseline", "--json", "--root", str(archive))

    assert result.exit_code == 1, result.output
    facts = json.loads(result.stdout)["facts"]
    assert not [f for f in facts if f["kind"].startswith(("tally.unpaired", "check.new"))]
    assert _reading(facts) == _digline_reading(name)


def test_the_text_checks_run_alone_finds_what_diglines_reading_found(
    runsite, tmp_path, fake_provider
):
    _, worse = _measure(runsite, "text-checks", "worse", tmp_path)
    result = runsite("explain", str(worse), "--json")
    assert result.exit_code == 2, result.output
    assert _reading(json.loads(result.stdout)["facts"]) == _digline_reading("text-checks")


def _under_other_identities(document: Path, folder: Path) -> Path:
    """The run as a writer with another identity rule would have written it: every
    ``assertion_id`` and the ``config_hash`` computed otherwise, nothing else changed."""
    doc = json.loads(document.read_text())

    def other(identity: str) -> str:
        return hashlib.sha256(f"another rule {identity}".encode()).hexdigest()[:16]

    for _, verdict in _verdicts(doc):
        verdict["assertion_id"] = other(verdict["assertion_id"])
    doc["config_hash"] = other(doc["config_hash"])
    written = folder / "other-identities.json"
    written.write_text(json.dumps(doc))
    return written


def test_a_run_that_pairs_with_none_of_the_baselines_checks_exits_2_saying_why(
    runsite, archive, tmp_path
):
    base = sorted((FOLDER / "agent" / "digline-runs").glob("*.json"))[0]
    runsite("import", str(base), "--root", str(archive))
    runsite("baseline", "set", "agent@latest", "--root", str(archive))
    _, worse = _measure(runsite, "agent", "worse", tmp_path)
    apart = _under_other_identities(worse, tmp_path)

    result = runsite("explain", str(apart), "--baseline", "--root", str(archive))

    assert result.exit_code == 2, result.output
    assert "- No check of one run pairs with a check of the other, so nothing was compared" in (
        result.stdout
    )
    assert (
        "- The check signed is in both runs under different identities (assertion_id), so "
        "none of its verdicts pair" in result.stdout
    )
    assert "0 worse" in result.stdout
    differ = runsite("diff", str(base), str(apart))
    assert differ.exit_code == 2, differ.output
    assert "different identities" in differ.stdout

    # the site's comparison page reads the same facts, in both languages
    reference = redact(read_run(base.read_bytes()).run)
    sections = {
        locale: [
            line
            for _, lines in reading_sections(
                explain(redact(read_run(apart.read_bytes()).run), reference), locale
            )
            for line in lines
        ]
        for locale in ("en", "it")
    }
    assert any(line.startswith("No check of one run pairs") for line in sections["en"])
    assert any(line.startswith("Il controllo signed è in entrambe") for line in sections["it"])

    paired = runsite("explain", str(worse), "--baseline", "--root", str(archive))
    assert paired.exit_code == 1, paired.output
    assert "pairs with none" not in paired.stdout


def test_a_provider_target_and_judges_resolve_through_an_installed_provider(
    runsite, tmp_path, fake_provider
):
    checks = (
        '[[assertions]]\ntype = "llm_rubric"\nrubric = "r"\njudge = "fake/m"\n'
        "threshold = 0.5\ntolerance = 0.1\n"
        '[[assertions]]\ntype = "contains"\nneedle = "answers"'
    )
    target = 'type = "provider"\nprovider = "fake/fake-1"\nprompt_file = "p.md"\ntemperature = 0.2'
    suite = write_suite(
        tmp_path, assertions=checks, target=target, files={"p.md": "Answer the case."}
    )
    out = tmp_path / "run.json"
    assert runsite("run", str(suite), "--no-archive", "--out", str(out)).exit_code == 0
    run = json.loads(out.read_text())
    assert run["target_config"] == {
        "values": {"model": "fake-1", "provider": "fake", "temperature": 0.2}
    }
    assert {v["status"] for c in run["results"] for v in c["verdicts"]} == {"pass"}

    priced = target + "\n[target.pricing]\ninput_per_mtok = 3.0\noutput_per_mtok = 15.0"
    write_suite(tmp_path, assertions=checks, target=priced)
    runsite("run", str(suite), "--no-archive", "--out", str(out))
    assert json.loads(out.read_text())["config_hash"] != run["config_hash"]

    write_suite(tmp_path, assertions=checks, target=target + '\nseed = "x"')
    refused = runsite("run", str(suite), "--no-archive", "--out", str(out))
    assert refused.exit_code == 64
    assert (
        refused.stderr
        == f"runsite: {suite}: [target]: provider: fake refused this set-up (it takes no seed)\n"
    )
