"""What ``list``, ``show`` and ``log`` print: one function per shape, shared by text and --json.

Pure: values in, dicts and lines out. ``show`` is built from the redacted run alone.
"""

from __future__ import annotations

from typing import Any

from generator.account.run import account_of
from generator.account.tally import VERDICT_STATUSES, Counts, counted
from generator.archive.admission import Admission
from generator.archive.archive import Migration, Shown
from generator.archive.catalog import ArchivedRun, Suite, label
from generator.archive.head import Commit
from generator.document.model import SCHEMA

_CHANGES = {"A": "added", "M": "changed", "D": "removed"}


def listing(runs: list[ArchivedRun], baselines: dict[Suite, str]) -> list[dict[str, Any]]:
    """One object per run, newest first."""
    return [
        {
            "key": run.key,
            "tenant": run.tenant,
            "suite": run.suite,
            "created_at": run.created_at,
            "schema_version": run.schema_version,
            "path": run.path,
            "baseline": baselines.get(run.suite_of) == run.key,
        }
        for run in runs
    ]


def listing_lines(entries: list[dict[str, Any]]) -> list[str]:
    """A line per run; ``*`` marks its suite's reference."""
    return [
        f"{'*' if e['baseline'] else ' '} {e['created_at']}  {e['tenant']}/{e['suite']}  "
        f"{e['key']}  schema {e['schema_version']}"
        for e in entries
    ]


def summary(shown: Shown) -> dict[str, Any]:
    """The run in numbers and names: what its redacted view carries, and no more."""
    run, redacted = shown.run, shown.redacted
    account = account_of(redacted)
    checks = sorted((c.name, c.counts) for c in account.checks if not c.whole_run)
    return {
        "key": run.key,
        "tenant": run.tenant,
        "suite": run.suite,
        "path": run.path,
        "baseline": shown.baseline,
        "environment": redacted.environment,
        "created_at": redacted.created_at,
        "git_commit": redacted.git_commit,
        "config_hash": redacted.config_hash,
        "schema_version": run.schema_version,
        "cases": account.tally.cases,
        "suspended": account.tally.set_aside,
        "verdicts": _tally(counted(v for case in redacted.results for v in case.verdicts)),
        "aggregate": _tally(counted(redacted.aggregate)),
        "checks": [{"check": name, **_tally(counts)} for name, counts in checks],
        "disclosure": redacted.disclosure.model_dump(mode="json"),
        "released": redacted.released().model_dump(mode="json"),
    }


def summary_lines(facts: dict[str, Any]) -> list[str]:
    """``summary`` for a terminal."""
    reference = " (baseline)" if facts["baseline"] else ""
    lines = [
        f"run          {facts['key']}",
        f"suite        {facts['tenant']}/{facts['suite']}{reference}",
        f"path         {facts['path']}",
        f"environment  {facts['environment']}",
        f"created_at   {facts['created_at']}",
        f"git_commit   {facts['git_commit'] or 'not recorded (no repository)'}",
        f"schema       {facts['schema_version']} (read as {SCHEMA})",
        f"cases        {facts['cases']} ({facts['suspended']} set aside)",
        f"verdicts     {_counts(facts['verdicts'])}",
        f"aggregate    {_counts(facts['aggregate'])}",
    ]
    lines += [f"  {check['check']}: {_counts(check)}" for check in facts["checks"]]
    released = {key: value for key, value in facts["released"].items() if value}
    shown = "; ".join(f"{key}: {_named(value)}" for key, value in released.items())
    lines.append(f"released     {shown or 'nothing beyond what always travels'}")
    return lines


def history(commits: list[Commit]) -> list[dict[str, Any]]:
    """One object per commit that changed ``runs/``, newest first."""
    return [
        {
            "commit": commit.commit,
            "date": commit.date,
            "subject": commit.subject,
            **{
                word: [c.path for c in commit.changes if c.status == status]
                for status, word in _CHANGES.items()
            },
        }
        for commit in commits
    ]


def history_lines(entries: list[dict[str, Any]]) -> list[str]:
    """``history`` for a terminal: a commit per line, then what it added, changed, removed."""
    lines = []
    for entry in entries:
        lines.append(f"{entry['date']}  {entry['commit'][:12]}  {entry['subject']}")
        for mark, word in (("+", "added"), ("~", "changed"), ("-", "removed")):
            lines += [f"  {mark} {path}" for path in entry[word]]
    return lines


def suite_lines(baselines: dict[Suite, str | None]) -> list[str]:
    """Each suite's reference, a line each; one line where the archive holds no suite yet."""
    if not baselines:
        return ["no baseline set: the archive holds no run yet"]
    return [
        f"{label(suite)}  {key or '(no baseline set)'}" for suite, key in sorted(baselines.items())
    ]


def _tally(counts: Counts) -> dict[str, int]:
    """Counts as ``show --json`` names them: by the document's statuses, ``measured`` only
    where a verdict on a scale of its own was judged by nothing."""
    found = {"pass": counts.passed, "fail": counts.failed, "error": counts.unjudged}
    return found | ({"measured": counts.measured} if counts.measured else {})


def _counts(tally: dict[str, Any]) -> str:
    return ", ".join(f"{tally[status]} {status}" for status in VERDICT_STATUSES if status in tally)


def _named(value: Any) -> str:
    return "all" if value is True else ", ".join(value)


def admission_lines(done: Admission) -> list[str]:
    """What an import archived, found already there, and made a reference; then a tally."""
    lines = [f"archived {path}" for path in done.arrived]
    lines += [
        f"already there {path}, brought again by {', '.join(sources)}"
        for path, sources in done.already.items()
    ]
    lines += [f"baseline of {label(suite)}: {key}" for suite, key in done.baselines.items()]
    skipped = f", {len(done.refused)} skipped" if done.refused else ""
    again = sum(map(len, done.already.values()))
    lines.append(f"{len(done.arrived)} archived, {again} already there{skipped}")
    return lines


def migration_lines(done: Migration, dry_run: bool) -> list[str]:
    """Each document migrated (or that would be), then a tally."""
    verb = "would migrate" if dry_run else "migrated"
    lines = [f"{verb} {path} from schema {schema}" for path, schema in done.migrated]
    lines.append(
        f"{len(done.migrated)} {verb}, {done.current} already at schema {SCHEMA}, "
        f"{len(done.refused)} refused"
    )
    return lines
