"""One promptfoo eval as run documents at schema 23: one per prompt × provider.

- **Names.** The tenant is ``--tenant``, else runsite.toml's ``[promptfoo] tenant``; the suite is
  ``--suite``, else the config's ``description``; the environment is ``promptfoo``.
  ``created_at`` is the eval's (``results.timestamp``). The target is the provider (its id, split
  at its first colon into provider and model) and the prompt, named by its label where it has
  one of its own (promptfoo labels an unlabelled prompt with its text, which is payload), else
  ``prompt N`` by its place in the eval.
- **Cases.** A case per test, in the eval's order: its id is the test's ``description``, else the
  digest of its vars; tests that share a description (a test whose vars expand to several) each
  add the digest of their vars and assertions. Rows of one test, prompt and provider are its
  repeats (``--repeat``), in the order promptfoo ran them. See ``checks`` for the verdicts.
- **Identity.** The ``config_hash`` is the identity of the rules, as digline's is: the digest of
  ``{"repeats", "rules": [[check, threshold, measure], …] sorted}``, the same for every prompt ×
  provider of an eval and for two evals of one config, so a suite's board compares the targets
  and ``diff`` puts two of them side by side. An eval measures every prompt × provider at one
  moment, and a run's key is its time and its hash: each prompt × provider after the first is
  dated a microsecond after the one before it, in the eval's order, so each run has a key of
  its own, and the same key in every import of the eval.
- **Payload** stays inside the document's payload fields: the rendered prompt and the output on
  each recorded response, reasons and error text as the verdict's reason, rendered grader
  prompts in the verdict's metadata, the vars and the eval's ids in the run's metadata, the
  prompt's text as an artifact.
- **Usage.** Each row's tokens, cost and latency on its response; the target's totals from the
  rows, the grader's (``tokenUsage.assertions``) as the judge's, which promptfoo does not price.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any

from generator.document.codec import compact
from generator.document.model import SCHEMA
from generator.document.numbers import at_precision
from generator.errors import DocumentRefused
from generator.importers.inspect_ai.scores import digest
from generator.importers.options import Options
from generator.importers.promptfoo.checks import Check, checks_of, judged, verdict
from generator.importers.promptfoo.output import Output, Row, RowTokens, Tokens
from generator.importers.said import moment

Test = list[Row]
"""One test's rows on one prompt × provider: its repeats."""


def runs_of(output: Output, options: Options) -> list[dict[str, Any]]:
    """The run documents of one eval, one per prompt × provider that has rows, in the eval's
    order (promptfoo may list a prompt that no provider was given)."""
    columns = _columns(output, output.results.results)
    rows = sorted(output.results.results, key=lambda r: (r.testIdx, r.promptIdx))
    if not rows:
        raise DocumentRefused("results.results", "no rows, so there is nothing to import")
    ids = _case_ids(rows)
    names = _names(output, options)
    created = datetime.fromisoformat(moment(output.results.timestamp, "results.timestamp"))
    found: list[dict[str, Any]] = []
    for column, (provider, prompt, raw) in columns.items():
        mine = [r for r in rows if r.promptIdx == column]
        if mine:
            at = (created + timedelta(microseconds=len(found))).isoformat(timespec="microseconds")
            found.append(_run(output, mine, ids, names, at, provider, prompt, raw))
    return found


def _run(
    output: Output,
    rows: list[Row],
    ids: dict[bytes, str],
    names: dict[str, str],
    created: str,
    provider: str,
    prompt: str,
    raw: Any,
) -> dict[str, Any]:
    tests: dict[str, Test] = {}
    for row in rows:
        tests.setdefault(ids[_test_key(row)], []).append(row)
    cases, rules = [], set()
    for case_id, test in tests.items():
        case, checks = _case(case_id, test)
        cases.append(case)
        rules |= {tuple(check.rule()) for check in checks}
    repeats = max(len(test) for test in tests.values())
    kind, _, model = provider.partition(":")
    judges = sorted({j for test in tests.values() for j in _graders(test)})
    document: dict[str, Any] = {
        "schema_version": SCHEMA,
        **names,
        "config_hash": digest({"repeats": repeats, "rules": sorted(map(list, rules), key=str)}),
        "created_at": created,
        "git_commit": None,
        "redacted": False,
        "projected": False,
        "metadata": _metadata(output, tests),
        "results": cases,
        "aggregate": [],
        "artifacts": {},
        "target_config": {"values": {"provider": kind, "model": f"{model or kind} ({prompt})"}},
        "judge_config": {"identities": judges} if judges else {},
        "usage": {"target": _target_bill(rows), "judge": _judge_bill(rows)},
    }
    if raw is not None:
        text = raw if isinstance(raw, str) else compact(raw)
        sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
        document["artifacts"] = {f"prompts/{prompt}": {"sha": sha, "text": text}}
    return document


def _case(case_id: str, test: Test) -> tuple[dict[str, Any], list[Check]]:
    first = test[0].testCase
    checks = checks_of(first.assert_ or [], first.threshold)
    verdicts = [
        verdict(check, [judged(check, row, n) for row in test]) for n, check in enumerate(checks)
    ]
    case: dict[str, Any] = {
        "case_id": case_id,
        "suspended": False,
        "verdicts": verdicts,
        "responses": [_response(row) for row in test],
    }
    if all(row.gradingResult is None for row in test):
        case["error_kind"] = "raised"
    return case, checks


def _columns(output: Output, rows: list[Row]) -> dict[int, tuple[str, str, Any]]:
    """Each prompt × provider by its index: the provider's id, the prompt's name and text
    (None where the file does not hold it)."""
    declared = output.results.prompts
    found: dict[int, tuple[str, str, Any]] = {}
    if declared:
        places = _prompt_places([(c.raw, c.label) for c in declared])
        for n, column in enumerate(declared):
            own = column.label if column.label and column.label != column.raw else None
            found[n] = (column.provider, own or f"prompt {places[n]}", column.raw)
        for n, row in enumerate(rows):
            if row.promptIdx not in found:
                raise DocumentRefused(
                    f"results.results[{n}].promptIdx",
                    f"not one of the eval's {len(declared)} prompts × providers",
                )
        return found
    seen = sorted({row.promptIdx: row for row in rows}.items())
    places = _prompt_places([(row.prompt.label if row.prompt else None, None) for _, row in seen])
    for (index, row), place in zip(seen, places, strict=True):
        found[index] = (row.provider.id, f"prompt {place}", None)
    return found


def _prompt_places(prompts: list[tuple[Any, Any]]) -> list[int]:
    """Each prompt's place among the eval's distinct prompts, from 1."""
    order: dict[bytes, int] = {}
    return [order.setdefault(compact(p).encode(), len(order) + 1) for p in prompts]


def _test_key(row: Row) -> bytes:
    case = row.testCase
    vars_ = row.vars if row.vars is not None else case.vars
    return compact([case.description, vars_, case.assert_, case.threshold]).encode()


def _case_ids(rows: list[Row]) -> dict[bytes, str]:
    """Each test's case id, the same in every prompt × provider of the eval."""
    tests: dict[bytes, Row] = {}
    for row in rows:
        tests.setdefault(_test_key(row), row)
    described: dict[str, int] = {}
    for row in tests.values():
        if row.testCase.description:
            described[row.testCase.description] = described.get(row.testCase.description, 0) + 1
    found = {}
    for key, row in tests.items():
        case = row.testCase
        vars_ = row.vars if row.vars is not None else case.vars
        if not case.description:
            found[key] = digest({"vars": vars_ or {}})
        elif described[case.description] == 1:
            found[key] = case.description
        else:
            found[key] = f"{case.description} [{digest([vars_, case.assert_])[:8]}]"
    return found


def _names(output: Output, options: Options) -> dict[str, str]:
    tenant = options.tenant or options.promptfoo.tenant
    if not tenant:
        raise DocumentRefused(
            "", "neither --tenant nor runsite.toml's [promptfoo] tenant names the runs' tenant"
        )
    suite = options.suite or output.config.description
    if not suite:
        where = "config.description" if output.evalId else ""
        raise DocumentRefused(
            where,
            "missing, and --suite names no suite"
            if where
            else "a .jsonl names no suite: --suite names it",
        )
    return {"tenant": tenant, "environment": "promptfoo", "suite": suite}


def _response(row: Row) -> dict[str, Any]:
    response: dict[str, Any] = {}
    if row.prompt is not None and row.prompt.raw is not None:
        raw = row.prompt.raw
        response["input"] = raw if isinstance(raw, str) else compact(raw)
    output = row.response.output if row.response else None
    if output is not None:
        text = isinstance(output, str)
        response |= {"output": output if text else compact(output)}
        response["kind"] = "text" if text else "structured"
    if row.cost is not None:
        response["cost_usd"] = at_precision(row.cost)
    if row.latencyMs is not None:
        response["latency_ms"] = at_precision(row.latencyMs)
    usage = _usage(row.tokenUsage)
    if usage is not None:
        response["usage"] = usage
    return response


def _usage(tokens: Tokens | None) -> dict[str, int] | None:
    if tokens is None or tokens.prompt is None or tokens.completion is None:
        return None
    usage = {"input_tokens": tokens.prompt, "output_tokens": tokens.completion}
    if tokens.cached:
        usage["cache_read_tokens"] = tokens.cached
    return usage


def _target_bill(rows: list[Row]) -> dict[str, Any]:
    counted = [u for u in (_usage(r.tokenUsage) for r in rows) if u is not None]
    priced = [r.cost for r in rows if r.cost is not None]
    return _bill(len(rows), len(counted), counted, sum(priced), len(priced) == len(rows))


def _judge_bill(rows: list[Row]) -> dict[str, Any]:
    graders = [_graded(r.tokenUsage) for r in rows]
    calls = sum((g.numRequests or 0) for g in graders if g is not None)
    counted = [u for u in map(_usage, graders) if u is not None]
    return _bill(calls, calls if counted else 0, counted, 0.0, calls == 0)


def _graded(tokens: RowTokens | None) -> Tokens | None:
    """The grader's tokens of a row, where it records them."""
    return tokens.assertions if tokens is not None else None


def _bill(
    calls: int, counted: int, usages: list[dict[str, int]], spent: float, priced: bool
) -> dict[str, Any]:
    bill: dict[str, Any] = {
        "calls": calls,
        "counted": counted,
        "spent_usd": at_precision(spent),
        "every_call_seen": True,
        "every_cost_known": priced,
    }
    if counted:
        tokens: dict[str, int] = {}
        for usage in usages:
            for name, count in usage.items():
                tokens[name] = tokens.get(name, 0) + count
        bill["tokens"] = {"input_tokens": 0, "output_tokens": 0} | tokens
    return bill


def _graders(test: Test) -> set[str]:
    """The graders of a test's model-graded assertions: each one's own provider, else the
    test's."""
    found: set[str] = set()
    for row in test:
        for component in (row.gradingResult.componentResults if row.gradingResult else None) or []:
            tokens = component.tokensUsed
            if not (tokens and tokens.numRequests):
                continue
            given = (component.assertion or {}).get("provider") or (row.testCase.options or {}).get(
                "provider"
            )
            found.add(_provider_id(given))
    return found


def _provider_id(given: Any) -> str:
    if isinstance(given, dict) and isinstance(given.get("id"), str):
        return str(given["id"])
    return given if isinstance(given, str) and given else "promptfoo's default grader"


def _metadata(output: Output, tests: dict[str, Test]) -> dict[str, Any]:
    promptfoo = {"eval_id": output.evalId, "version": output.metadata.promptfooVersion}
    vars_ = {
        case_id: test[0].vars if test[0].vars is not None else test[0].testCase.vars
        for case_id, test in tests.items()
    }
    return {
        "promptfoo": {k: v for k, v in promptfoo.items() if v},
        "vars": {k: v for k, v in vars_.items() if v},
    }
