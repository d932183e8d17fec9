"""How long ``runsite build`` takes on a large archive, and what it costs.

Generates an archive of 1,000 runs (30 cases, 6 checks, 5 samples each, recorded answers with
agent trajectories) spread over 4 suites, then prints: the full build's wall and CPU seconds
for both languages, the rebuild after one more run arrives, the peak memory of a build, the
pages built, and the bytes of one run page (raw and gzipped). Each build runs in its own
process, as a user's would, so its peak memory is its own.

    .venv/bin/python bench/build.py [--runs N]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _identity import use_bench_identity

from generator.archive import Archive, init_archive
from generator.document.codec import canonical, read_run
from generator.importers import files_of, read_files

SUITES = ("support", "billing", "refunds", "search")
CHECKS = ("contains", "regex", "answers_briefly", "cost_budget", "latency_budget", "tools_called")


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
        "arguments": json.dumps({"order": f"A-{case}"}),
        "result": f"order {case} shipped",
    }
    refund = {
        "tool": "refund",
        "arguments": json.dumps({"order": f"A-{case}", "amount": rng.randint(5, 90)}),
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


def run_document(n: int, start: datetime) -> dict[str, object]:
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
        "created_at": (start + timedelta(minutes=n)).isoformat(timespec="microseconds"),
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


def _archive(folder: Path, count: int) -> None:
    init_archive(folder)
    incoming = folder.parent / "incoming"
    incoming.mkdir()
    start = datetime(2026, 6, 1, tzinfo=UTC)
    for n in range(count):
        (incoming / f"run{n:05d}.json").write_bytes(canonical(run_document(n, start)))
    batch = read_files(files_of([incoming]))
    Archive(folder).receive(batch.arrivals, batch.refused, skip_invalid=False)


_MEASURED = """
import resource, sys
from generator.cli import cli
try:
    cli.main(sys.argv[1:], prog_name="runsite")
finally:
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
"""
"""``runsite build`` in a process that reports its own peak memory (KiB) as it exits; a
child's figure from the parent would be the largest child ever, git's import included."""


def _build(folder: Path, out: Path) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and peak KiB of ``runsite build`` in a process of its own."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _MEASURED, "build", "--root", str(folder), "--out", str(out)],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, int(done.stderr.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    count = parser.parse_args().runs
    use_bench_identity()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "archive"
        folder.mkdir()
        started = time.perf_counter()
        _archive(folder, count)
        print(f"archive of {count} runs made in {time.perf_counter() - started:.1f} s")
        out = Path(scratch) / "site"
        wall, cpu, peak = _build(folder, out)
        pages = sum(1 for _ in out.rglob("index.html"))
        print(
            f"full build, en + it: {wall:.1f} s wall, {cpu:.1f} s CPU, {pages} pages, load {os.getloadavg()[0]:.2f}"
        )
        extra = folder.parent / "one-more.json"
        extra.write_bytes(canonical(run_document(count, datetime(2026, 6, 1, tzinfo=UTC))))
        batch = read_files(files_of([extra]))
        Archive(folder).receive(batch.arrivals, batch.refused, skip_invalid=False)
        wall2, cpu2, peak2 = _build(folder, out)
        print(f"rebuild after one more run: {wall2:.1f} s wall, {cpu2:.1f} s CPU")
        print(f"peak memory of a build: {max(peak, peak2) / 1024:.0f} MiB")
        key = read_run(extra.read_bytes()).run.key
        page = next((out / "runs" / "acme").glob(f"*/{key}/index.html"))
        raw = page.read_bytes()
        print(f"one run page: {len(raw):,} bytes, {len(gzip.compress(raw)):,} gzipped")
        total = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
        print(f"whole site: {total / 1_048_576:.1f} MiB")


if __name__ == "__main__":
    main()
