"""Every command a user can type has help with an example, and the README shows it."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from generator.cli import cli

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def _commands(group: click.Group, prefix: str = "") -> list[tuple[str, click.Command]]:
    found = []
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            found += _commands(command, f"{prefix}{name} ")
        else:
            found.append((f"{prefix}{name}", command))
    return found


COMMANDS = _commands(cli)


def test_the_cli_has_the_commands_of_the_design():
    names = {name for name, _ in COMMANDS}
    assert {
        "init",
        "run",
        "replay",
        "import",
        "list",
        "show",
        "validate",
        "migrate",
        "redact",
    } <= names
    assert {
        "baseline set",
        "baseline show",
        "baseline clear",
        "explain",
        "diff",
        "build",
        "serve",
    } <= names


@pytest.mark.parametrize(("name", "command"), COMMANDS, ids=[name for name, _ in COMMANDS])
def test_every_command_has_help_ending_with_an_example_and_is_in_the_readme(name, command):
    assert command.help and "Example: runsite" in command.help, name
    assert f"runsite {name}" in README, name
