"""Loading a suite from disk: the TOML, its cases, its artifacts, and the code it names.

The one part of the runner that reads files and imports code. Each failure is a refusal naming
the file and the key, found before anything runs.
"""

from __future__ import annotations

import importlib
import sys
import tomllib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.document.json_text import TooDeep, json_value
from generator.errors import SuiteRefused
from generator.suite import providers
from generator.suite.checks import AnswerCheck, Judge
from generator.suite.http_target import http_caller
from generator.suite.identity import pricing_digest
from generator.suite.judged import CLAIMS, Faithfulness, LlmRubric, Repeated
from generator.suite.prompt import Prompt, Template
from generator.suite.spec import Case, Suite, parse_suite
from generator.suite.target_spec import FunctionTarget, HttpTarget, Price, ProviderTarget
from generator.suite.targets import Caller, function_caller


@dataclass(frozen=True)
class LoadedSuite:
    """A suite with everything it names read, imported or resolved."""

    suite: Suite
    folder: Path
    call: Caller
    judges: dict[str, Judge]
    """Each judge the checks name, by the reference they name it with."""
    artifacts: dict[str, str]
    judge_config: dict[str, Any]
    pricing: str
    """The digest of the price the target declares, or empty."""


def _read_text(path: Path, source: str, entry: str, key: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SuiteRefused(source, entry, key, f"no such file: {path.name}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise SuiteRefused(
            source, entry, key, f"cannot be read as UTF-8 text ({type(error).__name__})"
        ) from None


def load_suite(path: Path) -> LoadedSuite:
    """Read ``path`` and everything it names; import its target and judges.

    Call it inside ``importing_from(path.parent)``, and run the suite there too, so the code it
    imports finds its own modules when it is called.
    """
    source = str(path)
    try:
        doc = tomllib.loads(_read_text(path, source, "", ""))
    except tomllib.TOMLDecodeError as error:
        raise SuiteRefused(source, "", "", f"not valid TOML ({error})") from None
    except RecursionError:
        raise SuiteRefused(source, "", "", "nested too deeply to read") from None
    folder = path.parent
    section = doc.get("suite")
    cases_name = section.get("cases") if isinstance(section, dict) else None
    if not isinstance(cases_name, str) or not cases_name:
        raise SuiteRefused(
            source, "[suite]", "cases", "missing: the cases file, relative to the suite"
        )
    cases_path = folder / cases_name
    try:
        cases = json_value(_read_text(cases_path, source, "[suite]", "cases"))
    except TooDeep as error:
        raise SuiteRefused(str(cases_path), "", "", str(error)) from None
    except ValueError as error:
        raise SuiteRefused(str(cases_path), "", "", f"not valid JSON ({error})") from None
    suite = parse_suite(doc, cases, source, str(cases_path))
    artifacts = {
        name: _read_text(folder / name, source, "[suite]", "artifacts") for name in suite.artifacts
    }
    price = suite.target.pricing if isinstance(suite.target, ProviderTarget) else None
    own_model = suite.target.provider if isinstance(suite.target, ProviderTarget) else None
    judges = {
        ref + ("" if factory == "judge" else CLAIMS): _judge(
            ref, factory, source, price if ref == own_model else None
        )
        for ref, factory in _judge_references(suite.checks)
    }
    call, files, pricing = _target(suite, folder, source)
    artifacts |= files
    return LoadedSuite(suite, folder, call, judges, artifacts, _judge_config(judges), pricing)


def _target(suite: Suite, folder: Path, source: str) -> tuple[Caller, dict[str, str], str]:
    """The target's caller, the files it sends (recorded as artifacts), and the digest of its
    declared price (empty when it declares none)."""
    target = suite.target
    if isinstance(target, FunctionTarget):
        function = _imported(target.function, source, "[target]", "function")
        return function_caller(function, target.prices), {}, ""
    if isinstance(target, HttpTarget):
        return http_caller(target), {}, ""
    prompt, files = _prompt(target, folder, source, suite.cases)
    name, model = providers.split(target.provider)
    found = providers.provider(name, source, "[target]", "provider")
    price = target.pricing
    try:
        call = found.target(model=model, prompt=prompt, settings=target.settings(), pricing=price)
    except (TypeError, ValueError) as error:
        raise SuiteRefused(
            source, "[target]", "provider", f"{name} refused this set-up ({error})"
        ) from None
    return call, files, pricing_digest(model, price.model_dump()) if price else ""


def _prompt(
    target: ProviderTarget, folder: Path, source: str, cases: Sequence[Case]
) -> tuple[Prompt, dict[str, str]]:
    """A provider target's prompt, and its files (the inline ``system`` is in the suite
    already); refused when a measured case gives no value for a slot."""
    files = {
        name: _read_text(folder / name, source, "[target]", key)
        for key, name in (("prompt_file", target.prompt_file), ("system_file", target.system_file))
        if name is not None
    }
    system = None
    if target.system_file is not None:
        system = Template(target.system_file, files[target.system_file])
    elif target.system is not None:
        system = Template("system", target.system)
    user = target.prompt_file
    prompt = Prompt(Template(user, files[user]) if user else None, system, tuple(target.tools))
    unfilled = prompt.unfilled(cases)
    if unfilled:
        case, slot, template = unfilled
        key = "system_file" if target.system_file else "system"
        raise SuiteRefused(
            source,
            "[target]",
            "prompt_file" if template == target.prompt_file else key,
            f"the case {case!r} gives no vars.{slot}, which {template} asks for",
        )
    return prompt, files


def _judge_references(checks: tuple[AnswerCheck, ...]) -> list[tuple[str, str]]:
    """(reference, provider factory) of every judge the checks name, inner checks included."""
    found: list[tuple[str, str]] = []
    for check in checks:
        while isinstance(check, Repeated):
            check = check.inner
        if isinstance(check, LlmRubric):
            found.append((check.judge_, "judge"))
        elif isinstance(check, Faithfulness):
            found.append((check.judge_, "claim_judge"))
    return list(dict.fromkeys(found))


def _judge(reference: str, factory: str, source: str, price: Price | None) -> Judge:
    if ":" in reference and "/" not in reference:
        return _imported(reference, source, "[[assertions]]", "judge")
    name, model = providers.split(reference)
    found = providers.provider(name, source, "[[assertions]]", "judge")
    try:
        judge: Judge = getattr(found, factory)(model=model, pricing=price)
    except (TypeError, ValueError) as error:
        raise SuiteRefused(
            source, "[[assertions]]", "judge", f"{name} cannot judge with {model!r} ({error})"
        ) from None
    return judge


def _judge_config(judges: dict[str, Judge]) -> dict[str, Any]:
    """The judges that say how they are set up: provider judges with a ``config``, and
    runsite's function judges, named ``function/<module:function>``."""
    identities = set()
    values: dict[str, Any] = {}
    for key, judge in judges.items():
        reference = key.removesuffix(CLAIMS)
        config = getattr(judge, "config", None)
        if isinstance(config, dict) and {"provider", "model"} <= set(config):
            identities.add(f"{config['provider']}/{config['model']}")
            values = dict(config)
        elif ":" in reference and "/" not in reference:
            identities.add(f"function/{reference}")
    if not identities:
        return {}
    found: dict[str, Any] = {"identities": sorted(identities)}
    if len(identities) == 1 and values:
        found["values"] = values
    return found


def _imported(reference: str, source: str, entry: str, key: str) -> Callable[..., Any]:
    module_name, attribute = reference.split(":")
    try:
        module = importlib.import_module(module_name)
        found = getattr(module, attribute)
    except Exception as error:
        raise SuiteRefused(
            source, entry, key, f"cannot import {reference} ({type(error).__name__}: {error})"
        ) from None
    if not callable(found):
        raise SuiteRefused(source, entry, key, f"{reference} is not callable")
    return found  # type: ignore[no-any-return]


@contextmanager
def importing_from(folder: Path) -> Iterator[None]:
    """Import a suite's own modules fresh from its folder, and forget them afterwards.

    Two suites may each have an ``app.py``, and a suite's code may change between two runs in
    one process; neither may be served a module imported for the other.
    """
    root = str(folder.resolve())
    names = _top_level_names(folder)
    before = dict(sys.modules)
    sys.path.insert(0, root)
    for name, module in before.items():
        if name.split(".")[0] in names and _from(module, root) is False:
            del sys.modules[name]
    importlib.invalidate_caches()
    try:
        yield
    finally:
        sys.path.remove(root)
        # Only a module imported in the block, or named like one of the folder's, can be from
        # it; resolving the path of every module loaded (thousands, with an SDK) is not free.
        for name, module in list(sys.modules.items()):
            suspect = name not in before or name.split(".")[0] in names
            if suspect and _from(module, root):
                del sys.modules[name]
        sys.modules.update({k: v for k, v in before.items() if k not in sys.modules})


def _top_level_names(folder: Path) -> set[str]:
    return {p.stem for p in folder.glob("*.py")} | {
        p.name for p in folder.iterdir() if (p / "__init__.py").is_file()
    }


def _from(module: Any, root: str) -> bool | None:
    """Whether ``module`` was loaded from under ``root`` (None when it has no file)."""
    location = getattr(module, "__file__", None)
    if not location:
        return None
    return str(Path(location).resolve()).startswith(root + "/")
