"""Which files the digline importer reads: loose documents anywhere, and inside a store only
its runs and its baselines."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.importers import detect, digline, files_of, read_files
from generator.importers.options import Options
from tests.conftest import CORPUS


@pytest.mark.parametrize(
    ("path", "claimed"),
    [
        ("exports/run.json", True),
        (
            "p/.digline/acme/runs/support/2026-11-29T22-43-20-961326-00-00-b2a55669ae7e0169.json",
            True,
        ),
        ("p/.digline/acme/baselines/support.json", True),
        ("p/.digline/acme/register/support.json", False),
        ("p/.digline/acme/runs/support/legs/part.json", False),
        ("p/.digline/config.json", False),
        ("logs/task.eval", False),
        ("exports/run.jsonl", False),
    ],
)
def test_the_digline_importer_claims_documents_by_name_and_place(path, claimed):
    assert digline.claims(Path(path)) is claimed
    assert (detect(Path(path)) is digline) is claimed


def test_only_a_stores_baseline_becomes_a_reference(tmp_path):
    baseline = tmp_path / ".digline" / "acme" / "baselines" / "support.json"
    loose = tmp_path / "baselines" / "support.json"
    for path in (baseline, loose):
        path.parent.mkdir(parents=True)
        path.write_bytes(
            (CORPUS / "digline-local" / "baseline-support__promoted-from-run1.json").read_bytes()
        )
    assert [digline.read(path, Options())[0].baseline for path in (baseline, loose)] == [
        True,
        False,
    ]


def test_a_folder_is_searched_in_a_stable_order_and_never_inside_dot_git(tmp_path):
    for name in ("b.json", "a.json", "sub/c.json", ".git/objects/x.json", "notes.txt"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}")
    assert [p.relative_to(tmp_path).as_posix() for p in files_of([tmp_path])] == [
        "a.json",
        "b.json",
        "sub/c.json",
    ]


def test_every_unreadable_document_is_reported_and_the_readable_ones_kept(tmp_path):
    good = CORPUS / "digline" / "rag__rag__0106ccd.json"
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    batch = read_files([good, bad])
    assert [a.source for a in batch.arrivals] == [str(good)]
    assert [str(r) for r in batch.refused] == [f"{bad}: a JSON array, not an object"]
