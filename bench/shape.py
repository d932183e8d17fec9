"""The archive ``bench/build.py`` measures, and the runs it is made of: 30 cases, 6 checks, 5
samples each, recorded answers with agent trajectories, spread over 4 suites (``run_document``),
archived as ``runsite import`` would leave them, but not run by run (``make_archive``; an hour at
10,000 runs that way); put back as it was made before each bench (``settle``), and given one
more run as ``runsite import`` gives it (``arrive``). The other benches read their runs here.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
from datetime import UTC, datetime, timedelta
from multiprocessing import get_context
from pathlib import Path

from generator.archive import Archive, init_archive
from generator.archive.layout import Layout
from generator.document.codec import canonical
from generator.document.record import key_of
from generator.importers import files_of, read_files

SUITES = ("support", "billing", "refunds", "search")
CHECKS = ("contains", "regex", "answers_briefly", "cost_budget", "latency_budget", "tools_called")
START = datetime(2026, 6, 1, tzinfo=UTC)
BASE = "refs/runsite-bench/base"
"""Where a generated archive keeps the commit it was made at, which ``settle`` resets it to."""


def _verdict(rng: random.Random, check: str, n: int) -> dict[str, object]:
    samples = [round(min(1.0, max(0.0, rng.gauss(0.8, 0.12))), 6) for _ in range(5)]
    score = round(sum(samples) / 5, 6)
    threshold = 0.7
    return {
        "assertion": check,
        "assertion_id": f"{n:016x}",
        "metadata": {
            "agreement": 1.0,
            "errored_samples": 0,
            "samples": 5,
            "spread": round(max(samples) - min(samples), 6),
        },
        "reason": f"the mean of 5 samples for {check}",
        "samples": samples,
        "sample_min": min(samples),
        "sample_max": max(samples),
        "score": score,
        "status": "pass" if score >= threshold else "fail",
        "threshold": threshold,
        "tolerance": 0.05,
    }


def _response(rng: random.Random, case: int) -> dict[str, object]:
    lookup = {
        "tool": "lookup_order",
        "arguments": f'{{"order":"A-{case}"}}',
        "result": f"order {case} shipped",
    }
    refund = {
        "tool": "refund",
        "arguments": f'{{"amount":{rng.randint(5, 90)},"order":"A-{case}"}}',
        "result": "ok",
    }
    return {
        "cost_usd": round(rng.uniform(0.0005, 0.002), 6),
        "finish": "end_turn",
        "input": f"customer message {case} {rng.random()}",
        "kind": "text",
        "latency_ms": round(rng.uniform(300, 900), 1),
        "output": f"answer to case {case}, variant {rng.random()}",
        "steps": [
            {"index": 0, "actor": "model", "finish": "tool_use"},
            {"index": 1, "actor": "tool", "call": lookup},
            {"index": 2, "actor": "model", "finish": "tool_use"},
            {"index": 3, "actor": "tool", "call": refund},
            {"index": 4, "actor": "model", "finish": "end_turn"},
        ],
        "tool_calls": [lookup, refund],
        "tools": ["lookup_order", "refund"],
        "usage": {"input_tokens": rng.randint(400, 900), "output_tokens": rng.randint(40, 120)},
    }


def run_document(n: int) -> dict[str, object]:
    """The ``n``th generated run: deterministic, distinct answers, a changing rule now and then."""
    rng = random.Random(n)
    results = [
        {
            "case_id": f"case-{c:02d}",
            "responses": [_response(rng, c) for _ in range(5)],
            "suspended": False,
            "verdicts": [_verdict(rng, check, k) for k, check in enumerate(CHECKS)],
        }
        for c in range(30)
    ]
    return {
        "aggregate": [],
        "artifacts": {
            "prompts/system.txt": {"sha": "0" * 64, "text": f"system prompt version {n // 100}"}
        },
        "config_hash": f"{(n // 250) + 1:016x}",
        "created_at": (START + timedelta(minutes=n)).isoformat(timespec="microseconds"),
        "environment": "staging",
        "git_commit": f"{n:040x}",
        "judge_config": {"identities": ["function/judges:rubric"]},
        "metadata": {"ticket": f"OPS-{n}"},
        "projected": False,
        "redacted": False,
        "results": results,
        "schema_version": 23,
        "suite": SUITES[n % len(SUITES)],
        "target_config": {"values": {"model": "m-1", "provider": "local"}},
        "tenant": "acme",
    }


WORDS = re.findall(
    r"\S+",
    'the customer\'s order was shipped on Monday; a refund of <24> EUR & a note "approved" '
    "follows, as the policy says for parcels lost in transit between depots",
)


def long_answers(n: int) -> dict[str, object]:
    """The ``n``th run with its 150 answers written out as a model would: about 1.7 KB each, to
    a prompt of about 2.8 KB, every one distinct, with quotes, markup and line breaks."""
    rng = random.Random(-n)
    run = run_document(n)

    def text(words: int) -> str:
        return "\n".join(" ".join(rng.choices(WORDS, k=words // 4)) for _ in range(4))

    for case in run["results"]:  # type: ignore[attr-defined]
        for response in case["responses"]:
            response["output"], response["input"] = text(300), text(500)
    return run


def _git(folder: Path, *args: str) -> str:
    """What git prints for ``args`` in ``folder``, stripped."""
    done = subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True)
    return done.stdout.decode().strip()


def run_key(run: dict[str, object]) -> str:
    return key_of(str(run["created_at"]), str(run["config_hash"]))


def _generated(n: int) -> tuple[str, bytes]:
    """The ``n``th run's place in the archive (relative to its root, as ``Layout`` names it)
    and its canonical bytes, which ``runsite import`` keeps as they are."""
    document = run_document(n)
    place = Layout(Path()).run(str(document["tenant"]), str(document["suite"]), run_key(document))
    return place.as_posix(), canonical(document)


def make_archive(folder: Path, count: int) -> None:
    """An archive of ``count`` generated runs, as ``runsite import`` of them all at once leaves
    it: the same commits' trees, index and working tree. The runs are generated in a process
    per core, in order; one ``git fast-import`` stores them and commits them on the archive's
    first commit; ``git reset --hard`` writes the files and the index."""
    if folder.exists() and any(folder.iterdir()):
        raise SystemExit(f"{folder}: not empty, and no archive the bench made; remove it")
    folder.parent.mkdir(parents=True, exist_ok=True)
    inside = subprocess.run(["git", "-C", str(folder.parent), "rev-parse"], capture_output=True)
    if inside.returncode == 0:
        raise SystemExit(f"{folder.parent}: inside a git repository; the archive needs its own")
    init_archive(folder)
    parent = _git(folder, "rev-parse", "HEAD")
    places: list[str] = []
    # The workers are forked first, so that none holds the importer's pipe open.
    with get_context("fork").Pool(len(os.sched_getaffinity(0))) as pool:
        importer = subprocess.Popen(
            ["git", "-C", str(folder), "fast-import", "--quiet", "--done"], stdin=subprocess.PIPE
        )
        stream = importer.stdin
        assert stream is not None
        for mark, (place, data) in enumerate(pool.imap(_generated, range(count), 16), 1):
            stream.write(b"blob\nmark :%d\ndata %d\n" % (mark, len(data)))
            stream.write(data)
            stream.write(b"\n")
            places.append(place)
    message = f"Import {count} run{'' if count == 1 else 's'}\n\n" + "".join(
        f"{place}\n" for place in places
    )
    commit = [
        f"commit {_git(folder, 'symbolic-ref', 'HEAD')}",
        f"committer {_git(folder, 'var', 'GIT_COMMITTER_IDENT')}",
        f"data {len(message.encode())}",
        message,
        f"from {parent}",
        *(f"M 100644 :{mark} {place}" for mark, place in enumerate(places, 1)),
        "",
        "done",
        "",
    ]
    importer.communicate("\n".join(commit).encode())
    if importer.returncode != 0:
        raise SystemExit(f"{folder}: git fast-import failed")
    _git(folder, "reset", "-q", "--hard")
    _git(folder, "update-ref", BASE, "HEAD")


def settle(folder: Path) -> None:
    """Put an archive the bench made back as it was made, so that every bench starts alike:
    at its first commit of runs, with no file beside the committed ones (a site, the build's
    ``.runsite/`` cache) and no cache of runsite's in its git dir (the catalog, the status
    index)."""
    found = subprocess.run(
        ["git", "-C", str(folder), "rev-parse", "--verify", "--quiet", BASE], capture_output=True
    )
    if found.returncode != 0:
        raise SystemExit(f"{folder}: not an archive this bench made ({BASE} missing); remove it")
    _git(folder, "reset", "-q", "--hard", found.stdout.decode().strip())
    _git(folder, "clean", "-q", "-f", "-d", "-x")
    for cache in Path(_git(folder, "rev-parse", "--absolute-git-dir")).glob("runsite-*"):
        cache.unlink()


def arrive(folder: Path, scratch: Path, run: dict[str, object]) -> None:
    """Archive ``run`` as ``runsite import`` does. It must be new: a rebuild after a
    run already there would time a build with nothing new."""
    path = scratch / "arriving.json"
    path.write_bytes(canonical(run))
    batch = read_files(files_of([path]))
    admitted = Archive(folder).receive(batch.arrivals, batch.refused, skip_invalid=False)
    path.unlink()
    if admitted.already or admitted.refused or len(admitted.arrived) != 1:
        raise SystemExit(f"{folder}: the run did not arrive (was it there before?)")
