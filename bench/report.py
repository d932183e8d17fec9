"""How many bytes ``runsite report`` writes for a run of the bench's shape (30 cases, 6 checks,
5 samples each, recorded answers with agent trajectories; ``shape.run_document``): the run's
page and its comparison with the run before it, in English and in Italian, raw and gzipped;
and, beside them, what plotly.js alone would add had the charts been drawn with it.

    .venv/bin/python bench/report.py [--keep DIR]
"""

from __future__ import annotations

import argparse
import gzip
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _identity import use_bench_identity
from generator.archive import Archive, init_archive
from generator.document.codec import canonical
from generator.importers import files_of, read_files
from generator.report import gather, made
from generator.site.templates import TEMPLATES
from shape import run_document

LIMIT = 1_500_000
"""The most bytes a report may have to travel by mail."""


def measure(folder: Path) -> None:
    init_archive(folder)
    incoming = folder.parent / "incoming"
    incoming.mkdir(exist_ok=True)
    paths = []
    for n in (0, 4):
        path = incoming / f"run{n}.json"
        path.write_bytes(canonical(run_document(n)))
        paths.append(path)
    batch = read_files(files_of(paths))
    archive = Archive(folder)
    archive.receive(batch.arrivals, batch.refused, skip_invalid=False)
    plotly = (TEMPLATES / "assets" / "plotly-basic.min.js").stat().st_size
    print(f"plotly-basic.min.js alone: {plotly:,} bytes")
    for label, against in (("run", None), ("comparison", "support@latest~1")):
        for locale in ("en", "it"):
            subject, payload = gather(archive, "support@latest", against, False, folder)
            data = made(subject, payload, locale, "html", "bench").data
            again = made(subject, payload, locale, "html", "bench").data
            packed = len(gzip.compress(data, mtime=0))
            verdict = "within" if len(data) <= LIMIT else "OVER"
            print(
                f"{label} ({locale}): {len(data):,} bytes, {packed:,} gzipped; {verdict} "
                f"{LIMIT:,}; same bytes twice: {data == again}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="Build the archive here and keep it.")
    args = parser.parse_args()
    use_bench_identity()
    if args.keep:
        measure(args.keep / "archive")
        return
    with tempfile.TemporaryDirectory(prefix="runsite-bench-report-") as folder:
        measure(Path(folder) / "archive")


if __name__ == "__main__":
    main()
