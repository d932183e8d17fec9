"""Every exception runsite defines is classified, so the CLI knows its exit code."""

from __future__ import annotations

import importlib
import inspect
import pickle
import pkgutil

import generator
from generator.errors import (
    DocumentRefused,
    ProcessEnded,
    Refused,
    RunsiteError,
    SuiteRefused,
)

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


def _runsite_errors() -> list[type[RunsiteError]]:
    for info in pkgutil.walk_packages(generator.__path__, "generator."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    found, todo = [], [RunsiteError]
    while todo:
        kind = todo.pop()
        found.append(kind)
        todo += kind.__subclasses__()
    return found


def test_every_runsite_error_made_of_its_own_parts_says_how_to_make_it_again():
    """A build's processes hand their refusals to the build pickled; one pickled as its message
    alone, where its constructor asks for its parts, cannot be unpickled there."""
    own_parts = [
        kind.__qualname__
        for kind in _runsite_errors()
        if kind.__init__ is not Exception.__init__ and kind.__reduce__ is Exception.__reduce__
    ]
    assert own_parts == []


def test_a_refusal_made_of_parts_is_the_same_refusal_unpickled():
    for refusal in (
        DocumentRefused("results[0].score", "not a number", "runs/a/b/c.json"),
        SuiteRefused("suite.toml", "[[assertions]] #2", "kind", "no such check"),
        ProcessEnded("a process of the build"),
    ):
        again = pickle.loads(pickle.dumps(refusal))
        assert type(again) is type(refusal)
        assert str(again) == str(refusal)
        assert vars(again) == vars(refusal)
