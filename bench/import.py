"""How fast ``runsite import`` archives documents, against merely parsing them, and how fast
it imports Inspect AI logs.

Generates 1,000 run documents (a real digline run with recorded answers, measured at 1,000
different moments), imports them into a fresh archive in a temporary folder the way
``runsite import`` does, and prints documents per second for the import and for reading the
same files with ``read_run`` alone, and the ratio of the two. Then it writes 1,000 Inspect
samples as Inspect writes them (10 zstd ``.eval`` logs of 100 agent samples each, copied from
the corpus's refund agent) and prints samples per second for importing them.

    .venv/bin/python bench/import.py [--count N] [--samples N]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _identity import use_bench_identity
from generator.archive import Archive, init_archive
from generator.document.codec import read_run
from generator.importers import files_of, read_files
from generator.importers.options import Options
from tests.importers._logs import members, write_eval

SOURCE = (
    Path(__file__).resolve().parents[2]
    / "shared/corpus/digline-local"
    / "run1-baseline-candidate__2026-11-29T22-43-20-961326-00-00-b2a55669ae7e0169.json"
)


def generate(folder: Path, count: int) -> list[Path]:
    """``count`` documents, each the source run measured a second apart."""
    doc = json.loads(SOURCE.read_bytes())
    start = datetime.fromisoformat(doc["created_at"])
    paths = []
    for n in range(count):
        doc["created_at"] = (start + timedelta(seconds=n)).isoformat(timespec="microseconds")
        path = folder / f"run{n:05d}.json"
        path.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


AGENT_LOG = Path(__file__).resolve().parents[2] / "shared/corpus/inspect/logs/refund-agent.eval"
PER_LOG = 100


def generate_logs(folder: Path, samples: int) -> list[Path]:
    """``samples`` agent samples in .eval logs of ``PER_LOG``, each log a second after the last;
    sample ``n`` is a copy of the corpus log's sample ``n % 5``."""
    parts = members(AGENT_LOG)
    header = parts["header.json"]
    templates = [v for k, v in sorted(parts.items()) if k.startswith("samples/")]
    created = datetime.fromisoformat(header["eval"]["created"])
    paths = []
    for log in range(-(-samples // PER_LOG)):
        ids = [f"s{n:05d}" for n in range(log * PER_LOG, min(samples, (log + 1) * PER_LOG))]
        copies = {
            f"samples/{i}_epoch_1.json": templates[n % len(templates)] | {"id": i}
            for n, i in enumerate(ids)
        }
        moment = (created + timedelta(seconds=log)).isoformat()
        spec = header["eval"] | {"created": moment, "eval_id": f"bench{log:04d}"}
        spec["dataset"] = {"samples": len(ids), "sample_ids": ids}
        paths.append(
            write_eval(
                folder / f"log{log:03d}.eval", {"header.json": header | {"eval": spec}} | copies
            )
        )
    return paths


def bench_inspect(scratch: Path, samples: int) -> None:
    incoming = scratch / "logs"
    incoming.mkdir()
    paths = generate_logs(incoming, samples)
    size = sum(path.stat().st_size for path in paths)
    init_archive(scratch / "inspect-archive")
    started = time.perf_counter()
    archive = Archive(scratch / "inspect-archive")
    batch = read_files(
        files_of([incoming]), Options(tenant="bench", inspect=archive.config.inspect)
    )
    done = archive.receive(batch.arrivals, batch.refused, skip_invalid=False)
    importing = time.perf_counter() - started
    assert len(done.arrived) == len(paths) and done.commit, "the bench did not archive every log"
    print(
        f"{samples} Inspect samples in {len(paths)} .eval logs, {size / len(paths) / 1024:.1f} KiB each"
    )
    print(f"import (one commit):   {samples / importing:8.1f} samples/s ({importing:.2f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=1000)
    arguments = parser.parse_args()
    count = arguments.count
    use_bench_identity()
    with tempfile.TemporaryDirectory() as scratch:
        incoming = Path(scratch) / "incoming"
        incoming.mkdir()
        paths = generate(incoming, count)
        size = sum(path.stat().st_size for path in paths)

        started = time.perf_counter()
        for path in paths:
            read_run(path.read_bytes())
        parsing = time.perf_counter() - started

        init_archive(Path(scratch) / "archive")
        started = time.perf_counter()
        archive = Archive(Path(scratch) / "archive")
        batch = read_files(files_of([incoming]))
        done = archive.receive(batch.arrivals, batch.refused, skip_invalid=False)
        importing = time.perf_counter() - started
        assert len(done.arrived) == count and done.commit, "the bench import did not archive all"

    print(f"{count} documents, {size / count / 1024:.1f} KiB each")
    print(f"parse only (read_run): {count / parsing:8.1f} documents/s ({parsing:.2f} s)")
    print(f"import (one commit):   {count / importing:8.1f} documents/s ({importing:.2f} s)")
    print(f"import takes {importing / parsing:.2f}x the time of parsing alone")
    with tempfile.TemporaryDirectory() as scratch:
        bench_inspect(Path(scratch), arguments.samples)


if __name__ == "__main__":
    main()
