"""An Inspect log's payload enters the full document and never a page: a marker planted in every
payload field of a log is found in the archived run where the field is carried, and nowhere in
the site a real build makes of it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.importers._logs import LOGS, as_json_log

CARRIED = {
    "input": "MARKinspectInputQ1",
    "target": "MARKinspectTargetQ2",
    "output": "MARKinspectOutputQ3",
    "tool_arguments": "MARKinspectArgumentsQ4",
    "tool_result": "MARKinspectResultQ5",
    "tool_error": "MARKinspectToolErrorQ6",
    "attached_result": "MARKinspectAttachedQ7",
    "explanation": "MARKinspectExplanationQ8",
    "answer": "MARKinspectAnswerQ9",
    "score_metadata": "MARKinspectScoreMetaQ10",
    "sample_metadata_value": "MARKinspectSampleMetaQ11",
    "sample_metadata_key": "MARKinspectSampleKeyQ12",
    "error_message": "MARKinspectErrorQ13",
}
"""Fields the import carries into the full document, inside its payload."""

LEFT = {
    "messages": "MARKinspectMessagesQ14",
    "model_output": "MARKinspectModelOutputQ15",
    "pool": "MARKinspectPoolQ16",
    "traceback": "MARKinspectTracebackQ17",
    "sample_init": "MARKinspectSampleInitQ18",
    "reduction_answer": "MARKinspectReductionQ19",
    "eval_metadata": "MARKinspectEvalMetaQ20",
    "plan": "MARKinspectPlanQ21",
    "tool_call_id": "MARKinspectCallIdQ22",
}
"""Payload the import leaves in the log: it never reaches the document at all."""

ATTACHMENT = "5f1b2c3d4e5f60718293a4b5c6d7e8f9"


def planted() -> dict[str, Any]:
    """The refund agent's JSON log with a marker in every payload field."""
    m = CARRIED | LEFT
    log = as_json_log(LOGS / "refund-agent.json")
    log["eval"]["metadata"] = {"note": m["eval_metadata"]}
    log["plan"]["steps"][0]["params"]["prompt"] = m["plan"]
    log["reductions"][0]["samples"][0]["answer"] = m["reduction_answer"]
    r1, r2, r3, r4 = log["samples"][:4]
    r1["input"] = m["input"]
    r1["target"] = m["target"]
    r1["output"]["completion"] = m["output"]
    r1["messages"][1]["content"] = m["messages"]
    r1["metadata"] = {m["sample_metadata_key"]: m["sample_metadata_value"]}
    r1["scores"]["includes"] |= {"explanation": m["explanation"], "answer": m["answer"]}
    r1["scores"]["refund_succeeded"]["metadata"] = {"note": m["score_metadata"]}
    events = r1["events"]
    tools = [e for e in events if e["event"] == "tool"]
    tools[0]["arguments"] = {"order_id": m["tool_arguments"]}
    tools[0]["id"] = m["tool_call_id"]
    tools[1]["result"] = m["tool_result"]
    tools[2]["result"] = f"attachment://{ATTACHMENT}"
    r1["attachments"][ATTACHMENT] = m["attached_result"] + " " + "x" * 100
    next(e for e in events if e["event"] == "model")["output"]["completion"] = m["model_output"]
    next(e for e in events if e["event"] == "sample_init")["sample"]["input"] = m["sample_init"]
    r1["events_data"]["messages"][1]["content"] = m["pool"]
    failing = next(e for e in r2["events"] if e["event"] == "tool" and e.get("error"))
    failing["error"]["message"] = m["tool_error"]
    r4["error"] = {"message": m["error_message"], "traceback": m["traceback"]}
    r4["scores"] = {}
    del r3["scores"]["includes"]
    return log


def _imported_and_built(runsite, archive: Path) -> tuple[str, Path]:
    log = archive.parent / "planted.json"
    log.write_text(json.dumps(planted()), encoding="utf-8")
    result = runsite("import", "--root", str(archive), "--tenant", "acme", str(log))
    assert result.exit_code == 0, result.output
    (document,) = (archive / "runs" / "acme" / "refund_agent").glob("*.json")
    site = archive.parent / "site"
    built = runsite("build", "--root", str(archive), "--out", str(site))
    assert built.exit_code == 0, built.output
    return document.read_text(encoding="utf-8"), site


def test_every_planted_marker_is_in_the_document_or_the_log_and_none_in_the_site(runsite, archive):
    document, site = _imported_and_built(runsite, archive)
    assert {f for f, m in CARRIED.items() if m not in document} == set()
    assert {f for f, m in LEFT.items() if m in document} == set()
    pages = [p for p in site.rglob("*") if p.is_file()]
    assert len(pages) > 10
    found = {
        (page.relative_to(site).as_posix(), field)
        for page in pages
        for field, marker in (CARRIED | LEFT).items()
        if marker.encode() in page.read_bytes()
    }
    assert found == set()


def test_the_redacted_view_of_an_imported_log_keeps_its_skeleton_and_no_marker(runsite, archive):
    _imported_and_built(runsite, archive)
    (document,) = (archive / "runs" / "acme" / "refund_agent").glob("*.json")
    result = runsite("redact", str(document))
    assert result.exit_code == 0, result.output
    redacted = json.loads(result.stdout)
    assert [m for m in (CARRIED | LEFT).values() if m in result.stdout] == []
    steps = redacted["results"][0]["responses"][0]["steps"]
    assert [s["actor"] for s in steps] == ["model", "tool"] * 3
    assert [s.get("tool") for s in steps if s["actor"] == "tool"] == [
        "tool #1",
        "tool #2",
        "tool #3",
    ]
