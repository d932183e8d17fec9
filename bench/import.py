"""How fast ``runsite import`` archives documents, against merely parsing them.

Generates 1,000 run documents (a real digline run with recorded answers, measured at 1,000
different moments), imports them into a fresh archive in a temporary folder the way
``runsite import`` does, and prints documents per second for the import and for reading the
same files with ``read_run`` alone, and the ratio of the two.

    .venv/bin/python bench/import.py [--count N]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    count = parser.parse_args().count
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


if __name__ == "__main__":
    main()
