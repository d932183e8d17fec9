"""How long ``runsite build`` takes on a large archive, and what it costs.

For each archive size (1,000 and 3,000 runs by default: 30 cases, 6 checks, 5 samples each,
recorded answers with agent trajectories, spread over 4 suites) it prints:

- the full build (no site, no cache beside the archive): wall and CPU seconds, peak memory;
- the rebuild after one more run arrives: wall and CPU seconds, peak memory; and again after
  one more with long answers (``long_answers``), whose payload the kept pages are checked for;
- one run page's bytes, raw and gzipped, the largest run page of each language, and the JS
  and CSS a first visit loads;
- the ratio of the full build to a jinja2-only render of the same run and comparison pages,
  timed in this process on a sample of the runs and scaled to all of them;
- timed the same way, reading the documents alone (parsing, validating, redacting); with the
  render, it bounds from below any full build on this machine's cores.

Each build runs as its own process tree, as a user's would, with runsite's modules compiled
first, as an installed package has them (where ``PYTHONDONTWRITEBYTECODE`` is set, every build
would compile them again, 50-100 ms no user pays). Peak memory is the largest sum of the
proportional set sizes (PSS) of the build's processes, sampled every 20 ms: its workers share
the pages they were forked with, which RSS would count once per process.

    .venv/bin/python bench/build.py [--runs 1000 3000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import compileall
import gc
import gzip
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _identity import use_bench_identity
from generator.archive import Archive, init_archive
from generator.document.codec import canonical, read_run
from generator.document.redact import redact
from generator.importers import files_of, read_files
from generator.site.labels import LOCALES
from generator.site.pages import Site, comparison
from generator.site.templates import environment

SUITES = ("support", "billing", "refunds", "search")
CHECKS = ("contains", "regex", "answers_briefly", "cost_budget", "latency_budget", "tools_called")
START = datetime(2026, 6, 1, tzinfo=UTC)
SAMPLE = 40
"""Runs whose pages the jinja2-only render times."""


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


def _receive(folder: Path, files: list[Path]) -> None:
    """Archive ``files``, each a run the archive must not hold yet: a rebuild after a run that
    was already there (left in a kept archive by hand) would time a build with nothing new."""
    batch = read_files(files_of(files))
    admitted = Archive(folder).receive(batch.arrivals, batch.refused, skip_invalid=False)
    if admitted.already or admitted.refused or len(admitted.arrived) != len(files):
        raise SystemExit(f"{folder}: not every run arrived (some were there before?)")


def make_archive(folder: Path, count: int) -> None:
    """An archive of ``count`` generated runs, imported in batches of 500."""
    init_archive(folder)
    incoming = folder.parent / "incoming"
    incoming.mkdir(exist_ok=True)
    for start in range(0, count, 500):
        batch = []
        for n in range(start, min(count, start + 500)):
            path = incoming / f"run{n:05d}.json"
            path.write_bytes(canonical(run_document(n)))
            batch.append(path)
        _receive(folder, batch)
        for path in batch:
            path.unlink()


def _pss(pid: int) -> int:
    """The proportional set size of ``pid`` and its descendants, in KiB.

    A child caught between ``vfork`` and ``exec`` (how Python starts ``git``) still shares its
    parent's address space, and reports the parent's memory as its own: it is counted once,
    with the parent (same mappings, same resident size)."""
    total = 0
    pending: list[tuple[int, tuple[str, str] | None]] = [(pid, None)]
    while pending:
        current, parents = pending.pop()
        try:
            rollup = Path(f"/proc/{current}/smaps_rollup").read_text()
            space = (rollup.split("\n", 1)[0], re.search(r"^Rss:.*$", rollup, re.M).group(0))  # type: ignore[union-attr]
            if space == parents:
                continue
            total += int(re.search(r"^Pss:\s+(\d+)", rollup, re.M).group(1))  # type: ignore[union-attr]
            for task in Path(f"/proc/{current}/task").iterdir():
                children = (task / "children").read_text().split()
                pending += [(int(child), space) for child in children]
        except (OSError, AttributeError):
            continue
    return total


def build(folder: Path, out: Path) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and peak PSS (KiB) of ``runsite build`` as a process tree."""
    command = [sys.executable, "-m", "generator", "build", "--root", str(folder), "--out", str(out)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = [0]

    def sample() -> None:
        while process.poll() is None:
            peak[0] = max(peak[0], _pss(process.pid))
            time.sleep(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    _, errors = process.communicate()
    sampler.join()
    wall = time.perf_counter() - started
    if process.returncode != 0:
        raise SystemExit(f"runsite build failed: {errors.decode()}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, peak[0]


def first_visit(page: Path, site: Path) -> int:
    """The bytes of the scripts and stylesheets a first visit of ``page`` loads, the search
    worker included."""
    text = page.read_text(encoding="utf-8")
    links = re.findall(r'<script src="([^"]+)"', text)
    links += re.findall(r'<link rel="stylesheet" href="([^"]+)"', text)
    worker = re.search(r'"search": "([^"]+)"', text)
    links += [worker.group(1)] if worker else []
    return sum((page.parent / link).resolve().stat().st_size for link in links)


def _sampled(work: Callable[[], object], count: int) -> float:
    """Seconds ``work`` takes over ``SAMPLE`` runs, scaled to ``count``; with the collector
    off, as in the build's workers."""
    gc.disable()
    try:
        started = time.perf_counter()
        work()
        return (time.perf_counter() - started) * count / SAMPLE
    finally:
        gc.enable()


def jinja_only(documents: list[bytes], count: int) -> float:
    """Seconds jinja2 takes to render the run and comparison pages of ``count`` runs, timed on
    ``documents`` (``SAMPLE`` of them): the floor a build of these pages can approach."""
    sites = [Site(environment(), locale) for locale in LOCALES]
    runs = [redact(read_run(document).run) for document in documents]
    compared = [comparison(runs[n], runs[n - 4]) for n in range(4, SAMPLE)]

    def render() -> None:
        for site in sites:
            for n, run in enumerate(runs):
                site.run(run, runs[n - 4].key if n >= 4 else None, None, None)
            for n, pair in enumerate(compared, 4):
                site.diff(runs[n], runs[n - 4], pair, "previous")

    return _sampled(render, count)


def documents_only(documents: list[bytes], count: int) -> float:
    """Seconds parsing, validating and redacting ``count`` documents take, timed on
    ``documents`` (``SAMPLE`` of them): work a full build cannot skip, before any page."""
    return _sampled(lambda: [redact(read_run(document).run) for document in documents], count)


def measure(count: int, keep: Path | None) -> None:
    scratch = Path(tempfile.mkdtemp(prefix="runsite-bench-"))
    try:
        folder = (keep / f"archive-{count}") if keep else scratch / "archive"
        if not (folder / "runsite.toml").is_file():
            folder.mkdir(parents=True, exist_ok=True)
            started = time.perf_counter()
            make_archive(folder, count)
            print(f"archive of {count} runs made in {time.perf_counter() - started:.0f} s")
        shutil.rmtree(folder / ".runsite", ignore_errors=True)
        subprocess.run(["git", "-C", str(folder), "reset", "-q", "--hard"], check=True)
        head = (
            subprocess.run(
                ["git", "-C", str(folder), "rev-parse", "HEAD"], check=True, capture_output=True
            )
            .stdout.decode()
            .strip()
        )
        out = scratch / "site"
        wall, cpu, peak = build(folder, out)
        pages = sum(1 for _ in out.rglob("index.html"))
        print(
            f"{count} runs, full build, en + it: {wall:.1f} s wall, {cpu:.1f} s CPU, "
            f"peak {peak / 1024:.0f} MiB, {pages} pages, load {os.getloadavg()[0]:.2f}"
        )
        extra = folder.parent / f"one-more-{count}.json"
        extra.write_bytes(canonical(run_document(count)))
        _receive(folder, [extra])
        wall2, cpu2, peak2 = build(folder, out)
        print(
            f"{count} runs, rebuild after one more run: {wall2:.2f} s wall, {cpu2:.2f} s CPU, "
            f"peak {peak2 / 1024:.0f} MiB"
        )
        long = folder.parent / f"long-answers-{count}.json"
        long.write_bytes(canonical(long_answers(count + 1)))
        _receive(folder, [long])
        wall3, cpu3, peak3 = build(folder, out)
        print(
            f"{count} runs, rebuild after one more run of long answers: {wall3:.2f} s wall, "
            f"{cpu3:.2f} s CPU, peak {peak3 / 1024:.0f} MiB"
        )
        long.unlink()
        key = read_run(extra.read_bytes()).run.key
        page = next((out / "runs" / "acme").glob(f"*/{key}/index.html"))
        raw = page.read_bytes()
        print(f"one run page: {len(raw):,} bytes, {len(gzip.compress(raw)):,} gzipped")
        for language, runs in (("en", out / "runs"), ("it", out / "it" / "runs")):
            largest = max(page.stat().st_size for page in runs.glob("*/*/*/index.html"))
            print(f"largest run page ({language}): {largest:,} bytes")
        print(f"JS and CSS of a first visit: {first_visit(page, out):,} bytes")
        sample = [canonical(run_document(n)) for n in range(SAMPLE)]
        floor = jinja_only(sample, count)
        print(
            f"jinja2 alone, the same pages: {floor:.1f} s; the full build takes {wall / floor:.1f}x"
        )
        reading = documents_only(sample, count)
        cores = len(os.sched_getaffinity(0))
        print(
            f"reading the documents alone: {reading:.1f} s; with jinja2 alone, no full build "
            f"goes under {(reading + floor) / cores:.1f} s on {cores} cores"
        )
        subprocess.run(["git", "-C", str(folder), "reset", "-q", "--hard", head], check=True)
        extra.unlink()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, nargs="+", default=[1000, 3000])
    parser.add_argument(
        "--keep", type=Path, help="Keep the generated archives here, and reuse them."
    )
    arguments = parser.parse_args()
    use_bench_identity()
    compileall.compile_dir(Path(__file__).resolve().parents[1] / "generator", quiet=1)
    for count in arguments.runs:
        measure(count, arguments.keep)


if __name__ == "__main__":
    main()
