"""A promptfoo eval's payload enters the full document and never a published page: every marker
the shared corpus planted (vars, prompts, outputs, grader reasons, error bodies; promptfoo copies
them into reasons and rendered grader prompts too) is in the archived runs, and none is in the
site a real build makes, the one-file report, the Markdown summary or the redacted view."""

from __future__ import annotations

import json

from generator.importers import read_files
from generator.importers.options import Options
from tests.conftest import CORPUS

PROMPTFOO = CORPUS / "promptfoo"
EVALS = [PROMPTFOO / "run1" / "eval.json", PROMPTFOO / "run2" / "eval.json"]


def _markers() -> dict[str, str]:
    lines = (PROMPTFOO / "markers.tsv").read_text(encoding="utf-8").splitlines()
    return {marker: kind for marker, kind, _ in (line.split("\t") for line in lines if line)}


def _keys() -> list[str]:
    return [
        arrival.reading.run.key
        for path in EVALS
        for arrival in read_files([path], Options(tenant="acme")).arrivals
    ]


def test_every_marker_is_in_the_archived_runs_and_none_in_any_published_output(runsite, archive):
    markers = _markers()
    assert len(markers) > 60
    done = runsite("import", "--root", str(archive), "--tenant", "acme", *map(str, EVALS))
    assert done.exit_code == 0, done.output
    documents = b"".join(p.read_bytes() for p in (archive / "runs").rglob("*.json"))
    assert {m for m in markers if m.encode() not in documents} == set()
    site = archive.parent / "site"
    built = runsite("build", "--root", str(archive), "--out", str(site))
    assert built.exit_code == 0, built.output
    outputs = {
        p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()
    }
    assert len(outputs) > 10
    keys = _keys()
    for now, before in ((keys[4], keys[0]), (keys[6], keys[2])):
        for shape in ("html", "markdown"):
            for locale in ("en", "it"):
                made = runsite(
                    "report", now, "--against", before, "--format", shape, "--locale", locale,
                    "--root", str(archive),
                )  # fmt: skip
                assert made.exit_code in (0, 1, 2), made.output
                outputs[f"report {now} {shape} {locale}"] = made.stdout.encode()
    for key in keys:
        (document,) = (archive / "runs").rglob(f"{key}.json")
        redacted = runsite("redact", str(document))
        assert redacted.exit_code == 0, redacted.output
        shown = runsite("show", key, "--json", "--root", str(archive))
        assert shown.exit_code == 0, shown.output
        outputs[f"redact {key}"] = redacted.stdout.encode()
        outputs[f"show {key}"] = shown.stdout.encode()
    found = {
        (name, marker)
        for name, data in outputs.items()
        for marker in markers
        if marker.encode() in data
    }
    assert found == set()


def test_the_redacted_view_names_the_prompt_and_provider_and_withholds_the_prompt(runsite, archive):
    done = runsite("import", "--root", str(archive), "--tenant", "acme", str(EVALS[0]))
    assert done.exit_code == 0, done.output
    (document,) = (archive / "runs").rglob(f"{_keys()[0]}.json")
    result = runsite("redact", str(document))
    assert result.exit_code == 0, result.output
    redacted = json.loads(result.stdout)
    assert redacted["target_config"]["values"] == {
        "model": "chat:model-a (explain)",
        "provider": "openai",
    }
    assert redacted["artifacts"] == {"prompts/explain": {"withheld": True}}
    assert redacted["results"][0]["responses"] == [
        {
            "cost_usd": 2.4e-05,
            "kind": "text",
            "latency_ms": 35.0,
            "usage": {"input_tokens": 10, "output_tokens": 7},
        }
    ]
    assert "PFMARK" not in result.stdout
