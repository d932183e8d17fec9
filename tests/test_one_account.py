"""One account of every run: the outputs of one run say the same counts, because each formats
the one value (``account``) and none counts for itself. Read from a real archive of the six
Inspect logs (two of them crashed, with checks that could not be judged) and digline's runs
(one with a case set aside), through the commands a user runs."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.account.run import account_of
from generator.archive import Archive
from generator.cli import cli
from generator.document.codec import read_run
from generator.document.disclosure import Disclosure
from generator.document.redact import redact
from generator.site.history import SuiteRuns
from generator.site.pages import Site
from generator.site.summary import RunSummary, summarise
from generator.site.templates import environment
from tests.conftest import CORPUS, git_identity

INSPECT = CORPUS / "inspect" / "logs"
DIGLINE = [
    CORPUS / "digline" / "operator__support__pypi-0.34.0.json",
    *sorted((CORPUS / "digline-local").glob("run[12]*__2026-*.json")),
]


def runsite(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code in (0, 1, 2), result.output
    return result.stdout


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with git_identity():
        root = tmp_path_factory.mktemp("account") / "archive"
        runsite("init", str(root))
        logs = [str(path) for path in sorted(INSPECT.iterdir())]
        runsite("import", "--root", str(root), "--tenant", "acme", *logs)
        runsite("import", "--root", str(root), *map(str, DIGLINE))
        yield root


def _keys(root: Path) -> list[str]:
    return [run["key"] for run in json.loads(runsite("list", "--root", str(root), "--json"))]


def _numbers(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", text))


def test_a_runs_counts_are_the_same_in_show_explain_its_page_and_its_summary(archive: Path):
    keys = _keys(archive)
    assert len(keys) == 9
    unjudged = 0
    for key in keys:
        root = ("--root", str(archive))
        shown = json.loads(runsite("show", key, *root, "--json"))
        went = {
            status: shown["verdicts"][status] + shown["aggregate"][status]
            for status in ("pass", "fail", "error")
        }
        facts = json.loads(runsite("explain", key, *root, "--json"))["facts"]
        said = {fact["kind"]: fact["params"] for fact in facts}
        explained = {
            "pass": said["tally.checks"]["passed"],
            "fail": said["tally.checks"]["failed"],
            "error": said.get("tally.unjudged", {"count": 0})["count"],
        }
        assert explained == went, key
        assert said["tally.cases"]["count"] == shown["cases"]
        assert said.get("tally.suspended", {"count": 0})["count"] == shown["suspended"]
        counts = (went["pass"], went["fail"], went["error"])
        page = runsite("report", key, *root)
        line = re.search(r'<p class="runsite-summary">.*?</span>(.*?)</p>', page)
        assert line is not None
        markdown = runsite("report", key, *root, "--format", "markdown").splitlines()[2]
        assert markdown == line[1].strip(), key
        assert _numbers(markdown.split(" · ")[-1]) == counts, key
        unjudged += went["error"]
    assert unjudged == 6, "the two crashed logs each have three checks not judged"


def test_the_home_page_says_what_its_rate_leaves_out(archive: Path):
    """A crashed eval's rate is a share of its judged checks: where the home page shows it with
    no counts beside it, it says how many it leaves out."""
    opened = Archive(archive)
    listed, _ = opened.runs()
    summaries = [
        summarise(redact(opened.document(run).run, opened.config.disclosure)) for run in listed
    ]
    crashed = [s for s in summaries if s.tally.verdicts.unjudged]
    assert crashed
    by_suite: dict[tuple[str, str], list[RunSummary]] = {}
    for summary in sorted(summaries, key=lambda s: (s.created_at, s.key)):
        by_suite.setdefault((summary.tenant, summary.suite), []).append(summary)
    suites = [
        SuiteRuns(tenant, suite, tuple(runs), None) for (tenant, suite), runs in by_suite.items()
    ]
    for locale, words in (("en", "not judged"), ("it", "non giudicat")):
        home = Site(environment(), locale).home(suites).body or ""
        for summary in crashed:
            went = summary.tally.verdicts
            assert f"{went.unjudged} {words}" in home


def test_a_whole_run_check_is_one_check_on_every_page():
    """The suite's history and the run page read one set of check figures: a whole-run check
    named like a check of the cases is its own row in both, never averaged into theirs."""
    run = json.loads((CORPUS / "digline" / "operator__support__pypi-0.34.0.json").read_text())
    assert run["results"] and run["results"][0]["verdicts"]
    name = run["results"][0]["verdicts"][0]["assertion"]
    clash = dict(run["results"][0]["verdicts"][0])
    clash.update(score=0.25, status="fail")
    for key in ("sample_min", "sample_max", "samples"):
        clash.pop(key, None)
    run["aggregate"] = [*run.get("aggregate", []), clash]
    redacted = redact(read_run(json.dumps(run).encode()).run, Disclosure())
    checks = account_of(redacted).checks
    named = [c for c in checks if c.name == name]
    assert [c.whole_run for c in named] == [False, True]
    assert named[1].score == 250_000 and named[1].counts.failed == 1
    assert summarise(redacted).checks == checks
