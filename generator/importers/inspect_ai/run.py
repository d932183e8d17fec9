"""One Inspect log as one run document at schema 23.

- **Names.** The tenant is ``--tenant``, else the eval's metadata ``tenant`` (``Task(metadata=…)``
  or ``inspect eval --metadata tenant=…``); a log that names none is refused. The suite is
  ``--suite``, else the task's name (past its package, where it has one). The environment is the
  eval's metadata ``environment``, else ``inspect``. ``created_at`` is the eval's ``created``.
- **Cases and checks.** A case per sample id, in the dataset's order; each scorer a check in every
  case, its epochs the verdict's samples (``scores``); each metric in the log's results a
  run-level check (``aggregate``) that records the value and never fails.
- **Identities.** A scorer's ``assertion_id`` is the first 16 hex digits of the SHA-256 of the
  canonical JSON ``{"name": scorer, "parameters": {"options": its options}, "type":
  "inspect_ai.scorer"}``; a metric's, of ``{"name": "scorer[/reducer]/metric", "parameters":
  {"metric", "reducer", "scorer"}, "type": "inspect_ai.metric"}``. The ``config_hash`` is the same
  digest of ``{"reducers": the epoch reducers, "rules": [{"id", "threshold", "tolerance"}, …]
  (one per scorer, in order), "samples": the epochs}``. The same log under the same
  ``runsite.toml`` is the same run, byte for byte; two logs of one task and its scorers pair
  check by check.
- **Payload** stays inside the document's payload fields, so redaction drops it as it drops
  digline's: a sample's input and output on its recorded response, tool arguments and results
  on its steps, explanations (and errors' messages) as the verdict's reason, the target and each
  recorded epoch's answer and score metadata in the verdict's metadata (not numbers, so
  withheld), and sample metadata and the eval's ids in the run's metadata.
- **Cost.** What the import does grows with what the log holds, never with a count it declares:
  epochs without a sample cost nothing, and the ``[limits]`` of ``runsite.toml`` refuse a log
  declaring more epochs than ``epochs``, or whose checks and cases would make a run document
  larger than ``document_mb``, before the verdicts are made.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from generator.archive.config import Limits, raised_by
from generator.document.codec import canonical_within, compact, validate
from generator.document.model import SCHEMA
from generator.document.values import json_type
from generator.errors import DocumentRefused
from generator.importers.inspect_ai.container import Allowance, Container, resolved
from generator.importers.inspect_ai.log import LOG_VERSION, Header, Reduction, Sample
from generator.importers.inspect_ai.scores import (
    Epochs,
    ScorerCheck,
    aggregates,
    categorical,
    digest,
    on_unit_scale,
    value_to_float,
    verdict,
)
from generator.importers.inspect_ai.steps import Bill, SampleTrace, trajectory_of
from generator.importers.options import Options
from generator.importers.said import moment

T = TypeVar("T")


Slots = dict[str, dict[int, Sample]]
"""Each case's samples, by epoch."""
Paths = dict[tuple[str, int], SampleTrace]
"""Each sample's trajectory, by case and epoch."""


def run_of(container: Container, options: Options) -> dict[str, Any]:
    """The run document of one log, as the mapping its canonical bytes are written from; the
    importer validates it as it reads those bytes back."""
    header = _header(container)
    spec = header.eval
    epochs = _declared_epochs(container, spec.config.epochs or 1, options.limits)
    reducers = spec.config.epochs_reducer or ["mean"]
    samples, paths = _samples(container, epochs, options.limits)
    every = [s for by in samples.values() for s in by.values()]
    scorers = _scorers(header, every)
    case_ids = _case_ids(header, samples)
    _fits(len(scorers), len(case_ids), len(every) if epochs > 1 else 0, options.limits)
    reduced = _reduced(header.reductions or [], reducers)
    checks = _checks(scorers, every, paths, options, reducers, reduced)
    cases = _cases(samples, paths, checks, reduced, case_ids, epochs)
    judges = sorted(set().union(*(t.judges for t in paths.values())))
    target, judge = Bill(), Bill()
    for path in paths.values():
        target.merge(path.target)
        judge.merge(path.judge)
    complete = len(paths) == len(cases) * epochs
    rules = [{"id": c.assertion_id, "threshold": c.threshold, "tolerance": 0.0} for c in checks]
    return {
        "schema_version": SCHEMA,
        **_located(container.origin, partial(_names, header, options)),
        "config_hash": digest({"reducers": reducers, "rules": rules, "samples": epochs}),
        "created_at": _located(container.origin, partial(_created, spec.created)),
        "git_commit": _commit(header),
        "redacted": False,
        "projected": False,
        "metadata": _metadata(header, samples),
        "results": cases,
        "aggregate": aggregates(
            header.results.scores if header.results else [],
            {c.scorer for c in checks if c.own_scale},
        ),
        "artifacts": {},
        "target_config": {"values": _target(header)},
        "judge_config": {"identities": judges} if judges else {},
        "usage": {"target": target.totals(complete), "judge": judge.totals(complete)},
    }


def canonical_run(run: dict[str, Any], limits: Limits) -> bytes:
    """The canonical bytes of ``run``, refused past ``document_mb`` before its text is whole."""
    data = canonical_within(run, limits.size("document_mb"))
    if data is None:
        raise DocumentRefused("", _too_large(limits))
    return data


_VERDICT_BYTES = 150
"""The fewest bytes a verdict takes in a run document: its assertion id, score, status,
threshold and tolerance alone take more, a line each."""
_EPOCH_BYTES = 8
"""The fewest bytes a recorded epoch adds to each verdict of its case, where the eval has
several: its score in the verdict's samples, or a line of its reason."""


def _fits(checks: int, cases: int, samples: int, limits: Limits) -> None:
    """Refuse, before they are made, more verdicts than a run document within ``document_mb``
    holds: a check in every case makes a product that a log of a few kilobytes (many sample ids
    declared, many scorers) can make billions."""
    if checks * (cases * _VERDICT_BYTES + samples * _EPOCH_BYTES) > limits.size("document_mb"):
        raise DocumentRefused(
            "", f"{checks} checks on {cases} cases would make {_too_large(limits)}"
        )


def _too_large(limits: Limits) -> str:
    return f"a run document of more than {limits.document_mb} MB, {raised_by('document_mb')}"


def _declared_epochs(container: Container, epochs: int, limits: Limits) -> int:
    if epochs > limits.epochs:
        raise DocumentRefused(
            _at(container.origin, "eval.config.epochs"),
            f"more than {limits.epochs} epochs, {raised_by('epochs')}",
        )
    return epochs


def _samples(container: Container, epochs: int, limits: Limits) -> tuple[Slots, Paths]:
    """Every sample of the log, validated, and its trajectory."""
    samples: Slots = {}
    paths: Paths = {}
    attached = Allowance("log_mb", limits)
    for where, raw in container.samples:
        sample, events = _located(where, partial(_sample, raw, attached))
        case_id = str(sample.id)
        if not 1 <= sample.epoch <= epochs:
            raise DocumentRefused(_at(where, "epoch"), f"not one of the eval's {epochs} epochs")
        if sample.epoch in samples.setdefault(case_id, {}):
            raise DocumentRefused(where, f"a second sample of case {case_id}, epoch {sample.epoch}")
        samples[case_id][sample.epoch] = sample
        paths[(case_id, sample.epoch)] = _located(where, partial(trajectory_of, events))
    if not samples:
        raise DocumentRefused("samples", "none recorded, so there is nothing to import")
    return samples, paths


def _checks(
    scorers: list[tuple[str, dict[str, Any]]],
    every: list[Sample],
    paths: Paths,
    options: Options,
    reducers: list[str],
    reduced: dict[str, dict[str, Any]],
) -> list[ScorerCheck]:
    """A check per scorer, its identity from its name and options, its threshold from the
    archive's ``[inspect]``; then one per scorer and further reducer the log reduced by."""
    judged = set().union(*(t.judged for t in paths.values()))
    checks = []
    for reducer in reducers:
        for scorer, kept in scorers:
            name: str = scorer
            parameters: dict[str, Any] = {"options": kept}
            if reducer != reducers[0]:
                name, parameters = f"{scorer}/{reducer}", parameters | {"reducer": reducer}
                if name not in reduced:
                    continue
            identity = digest({"name": name, "parameters": parameters, "type": "inspect_ai.scorer"})
            values = _values(scorer, every)
            threshold = options.inspect.threshold(scorer, categorical(values))
            names = {scorer, *(f"{scorer}/{r}" for r in reducers)}
            own = not on_unit_scale([threshold, *_numbers(values, reduced, names)])
            measured = own and scorer not in options.inspect.thresholds
            checks.append(
                ScorerCheck(name, identity, threshold, scorer in judged, scorer, own, measured)
            )
    return checks


def _numbers(values: list[Any], reduced: dict[str, dict[str, Any]], names: set[str]) -> list[float]:
    """The numbers Inspect read in a scorer's ``values`` and in its checks' (``names``)
    reductions."""
    mine = [v for name in names & reduced.keys() for v in reduced[name].values()]
    return [number for v in (*values, *mine) if (number := value_to_float(v)) is not None]


def _cases(
    samples: Slots,
    paths: Paths,
    checks: list[ScorerCheck],
    reduced: dict[str, dict[str, Any]],
    case_ids: list[str],
    epochs: int,
) -> list[dict[str, Any]]:
    """Every case: a verdict per check over its epochs, and a response per recorded sample."""
    cases = []
    for case_id in case_ids:
        recorded = dict(sorted(samples.get(case_id, {}).items()))
        mine = {check: values[case_id] for check, values in reduced.items() if case_id in values}
        case: dict[str, Any] = {
            "case_id": case_id,
            "suspended": False,
            "verdicts": [verdict(check, Epochs(epochs, recorded, mine)) for check in checks],
        }
        if recorded:
            case["responses"] = [_response(s, paths[(case_id, e)]) for e, s in recorded.items()]
        if len(recorded) == epochs and all(s.error is not None for s in recorded.values()):
            case["error_kind"] = "raised"
        cases.append(case)
    return cases


def _header(container: Container) -> Header:
    """The log's header, its format's version checked before anything else is read."""
    version = container.header.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        problem = "missing" if version is None else f"a JSON {json_type(version)}, not an integer"
        raise DocumentRefused(_at(container.origin, "version"), problem)
    if version != LOG_VERSION:
        raise DocumentRefused(
            _at(container.origin, "version"),
            f"Inspect's log format {version}; runsite reads format {LOG_VERSION}",
        )
    return _located(container.origin, lambda: validate(Header, container.header))


def _sample(raw: dict[str, Any], attached: Allowance) -> tuple[Sample, list[dict[str, Any]]]:
    """A sample with its tool events' attachments inlined, and its events."""
    whole = resolved(raw, attached)
    return validate(Sample, whole), whole["events"]


def _located(where: str, read: Callable[[], T]) -> T:
    """``read()``, its refusals placed inside ``where``."""
    try:
        return read()
    except DocumentRefused as refused:
        raise DocumentRefused(_at(where, refused.where), refused.problem) from None


def _at(where: str, inner: str) -> str:
    """A key path inside a member of an .eval (``samples/x.json: events[2]``) or inside a .json
    log (``samples[3].events[2]``)."""
    if not where or not inner:
        return where or inner
    return f"{where}.{inner}" if where.endswith("]") else f"{where}: {inner}"


def _names(header: Header, options: Options) -> dict[str, str]:
    metadata = header.eval.metadata or {}
    tenant = options.tenant or metadata.get("tenant") or options.inspect.tenant
    if not isinstance(tenant, str) or not tenant:
        raise DocumentRefused(
            "eval.metadata.tenant",
            "missing, and neither --tenant nor runsite.toml's [inspect] tenant names the run's "
            "tenant",
        )
    environment = metadata.get("environment")
    return {
        "tenant": tenant,
        "environment": environment if isinstance(environment, str) and environment else "inspect",
        "suite": options.suite or header.eval.task.rsplit("/", 1)[-1],
    }


def _created(created: str) -> str:
    return moment(created, "eval.created")


def _commit(header: Header) -> str | None:
    revision = header.eval.revision
    if revision is None or not revision.commit:
        return None
    return revision.commit + ("-dirty" if revision.dirty else "")


def _scorers(header: Header, samples: list[Sample]) -> list[tuple[str, dict[str, Any]]]:
    """Each scorer with its options: those the eval declares, in order, then any other a sample
    was scored by."""
    declared = {s.name: s.options for s in header.eval.scorers or ()}
    seen = sorted({name for s in samples for name in s.scores or {}} - declared.keys())
    return [*declared.items(), *((name, {}) for name in seen)]


def _values(scorer: str, samples: list[Sample]) -> list[Any]:
    return [s.scores[scorer].value for s in samples if s.scores and scorer in s.scores]


def _reduced(reductions: list[Reduction], reducers: list[str]) -> dict[str, dict[str, Any]]:
    """Each check's reduced value per case: the scorer's under the first reducer (a reduction
    that names none used it), ``scorer/reducer``'s under each other."""
    found: dict[str, dict[str, Any]] = {}
    for reduction in sorted(reductions, key=lambda r: r.reducer is not None):
        reducer = reduction.reducer or reducers[0]
        if reducer not in reducers:
            continue
        name = reduction.scorer if reducer == reducers[0] else f"{reduction.scorer}/{reducer}"
        found[name] = {str(s.sample_id): s.value for s in reduction.samples}
    return found


def _case_ids(header: Header, samples: Slots) -> list[str]:
    """The dataset's sample ids in its order, then any other sample's, sorted."""
    declared = [str(i) for i in header.eval.dataset.sample_ids or ()]
    return list(dict.fromkeys(declared)) + sorted(samples.keys() - set(declared))


def _response(sample: Sample, trajectory: SampleTrace) -> dict[str, Any]:
    """One epoch's recorded response: input and output, then the trajectory and its bill."""
    response: dict[str, Any] = {}
    if sample.input is not None:
        response["input"] = sample.input if isinstance(sample.input, str) else compact(sample.input)
    if sample.output is not None and sample.output.completion is not None:
        response |= {"output": sample.output.completion, "kind": "text"}
    return response | trajectory.recorded()


def _metadata(header: Header, samples: Slots) -> dict[str, Any]:
    spec = header.eval
    inspect = {
        "eval_id": spec.eval_id,
        "run_id": spec.run_id,
        "task_id": spec.task_id,
        "task": spec.task,
        "status": header.status,
        "inspect_ai": (spec.packages or {}).get("inspect_ai"),
    }
    found: dict[str, Any] = {"inspect": {k: v for k, v in inspect.items() if v is not None}}
    kept = {
        case_id: next(s.metadata for _, s in sorted(by.items()) if s.metadata)
        for case_id, by in sorted(samples.items())
        if any(s.metadata for s in by.values())
    }
    if kept:
        found["sample_metadata"] = kept
    return found


def _target(header: Header) -> dict[str, Any]:
    """The model, split as ``provider/model``, its generation settings that are numbers or
    switches, and where it was served from (a perimeter value, never published)."""
    spec = header.eval
    provider, _, model = spec.model.partition("/")
    values: dict[str, Any] = {
        key: value
        for key, value in sorted(spec.model_generate_config.items())
        if isinstance(value, bool | int) or (isinstance(value, float) and math.isfinite(value))
    }
    values |= {"provider": provider, "model": model or provider}
    if spec.model_base_url:
        values["base_url"] = spec.model_base_url
    return values
