"""Every exception runsite defines is classified, so the CLI knows its exit code."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import generator
from generator.errors import Refused, RunsiteError

CAUGHT_WHERE_RAISED = {
    # a target's self-contradicting trajectory: the case errors with its sentence
    "generator.suite.trajectory.TrajectoryError",
    # an application's response that misstates what the target reads: the case errors
    "generator.suite.http_target._Unreadable",
    # a check that reads text, admitted another kind of output by its accepts: its verdict errors
    "generator.suite.checks.NotText",
    # a kept page that is not what the last build wrote: publish builds everything instead
    "generator.publish._Restart",
    # a model's API gave no reply, or one that is not a reply: the case (or the judgement)
    # errors with the sentence
    "generator.providers.completion.CallFailed",
    "generator.providers.completion.Unreadable",
    # JSON text from outside nested past MAX_DEPTH: a ValueError, each reader saying so (an
    # error verdict, a refusal naming the file)
    "generator.document.json_text.TooDeep",
}


def test_every_exception_class_runsite_defines_is_a_runsite_error_or_caught_where_raised():
    unclassified = []
    for info in pkgutil.walk_packages(generator.__path__, "generator."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, value in inspect.getmembers(module, inspect.isclass):
            defined_here = value.__module__ == info.name
            if (
                defined_here
                and issubclass(value, BaseException)
                and not issubclass(value, RunsiteError)
            ):
                unclassified.append(f"{info.name}.{name}")
    assert [name for name in unclassified if name not in CAUGHT_WHERE_RAISED] == []


def test_refusals_exit_64_and_other_runsite_errors_70():
    assert Refused.exit_code == 64
    assert RunsiteError.exit_code == 70
