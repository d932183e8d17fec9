"""The ``runsite`` group and what its commands share: the one handler of every refusal and
exit code (see ``generator.cli``), the archive's ``--root``, ``--json``, progress bars."""

from __future__ import annotations

import errno
import gc
import sys
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from generator.errors import RunsiteError

if TYPE_CHECKING:
    from generator.archive import Archive

Command = TypeVar("Command", bound=Callable[..., Any])

EXIT_REFUSED = 64
EXIT_INTERNAL = 70
EXIT_DISK = 74
EXIT_INTERRUPTED = 130


class _Runsite(click.Group):
    """The group whose ``main`` maps every failure to its exit code, for every command."""

    def main(self, *args: Any, **kwargs: Any) -> NoReturn:
        kwargs["standalone_mode"] = False
        try:
            code = super().main(*args, **kwargs)
        except RunsiteError as error:
            click.echo(f"runsite: {error}", err=True)
            code = error.exit_code
        except click.exceptions.Exit as done:
            code = done.exit_code
        except click.ClickException as error:
            click.echo(f"runsite: {error.format_message()}", err=True)
            code = EXIT_REFUSED
        except click.Abort:
            # click's word for Ctrl-C (after it has ended the line the terminal echoed ^C on):
            # runsite asks nothing at a prompt, so nothing else raises it.
            click.echo("runsite: interrupted", err=True)
            code = EXIT_INTERRUPTED
        except OSError as error:
            if error.errno in (errno.ENOSPC, errno.EDQUOT):
                # Its file may be what was being copied, not where: the device is named by
                # what the command was asked to write (--out, the archive).
                click.echo(
                    "runsite: no space left on the device; make room and run it again", err=True
                )
                code = EXIT_DISK
            else:
                code = _internal()
        except Exception as error:
            if _git_missing(error):
                from generator.archive.head import GIT_MISSING

                click.echo(f"runsite: {GIT_MISSING}", err=True)
                code = EXIT_REFUSED
            else:
                code = _internal()
        sys.exit(code if isinstance(code, int) else 0)


def _internal() -> int:
    """Say that runsite failed, with the traceback a report of it needs."""
    traceback.print_exc()
    click.echo("runsite: internal error (a defect of runsite, not of the input)", err=True)
    return EXIT_INTERNAL


def _version(context: click.Context, _: click.Parameter, asked: bool) -> None:
    """Say runsite's version and stop; looked up only when asked (see ``generator``)."""
    if asked and not context.resilient_parsing:
        from generator import __version__

        click.echo(f"runsite {__version__}")
        context.exit()


@click.group(cls=_Runsite, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_version,
    help="Show the version and exit.",
)
def cli() -> None:
    """Run or import LLM evaluation suites, archive every run, publish a redacted site."""


def _git_missing(error: Exception) -> bool:
    """Whether GitPython failed for want of git (where runsite asked it without checking
    first), told apart without importing GitPython where nothing else did."""
    gitpython = sys.modules.get("git")
    return gitpython is not None and isinstance(error, gitpython.GitCommandNotFound)


def root_option(command: Command) -> Command:
    return click.option(
        "--root",
        type=click.Path(path_type=Path, file_okay=False),
        help="The archive's folder (default: the nearest one with a runsite.toml, here or above).",
    )(command)


def json_option(command: Command) -> Command:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")(
        command
    )


@contextmanager
def importing() -> Iterator[None]:
    """Import what a command needs with the cycle collector paused, then freeze what it made:
    the collections that importing the build's modules set off find almost nothing to free,
    and took 0.10 s of its 0.79. (The build's processes freeze what they start with too, and
    thaw all of it, the imported modules with it, when they end.)"""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if collecting:
            gc.enable()


def open_archive(root: Path | None) -> Archive:
    from generator.archive import Archive

    return Archive.open(root, Path.cwd())


def printed(value: Any, as_json: bool, lines: Callable[[Any], Iterable[str]]) -> int:
    """``value`` as canonical JSON, or as ``lines`` render it for a terminal; exit 0."""
    from generator.document.codec import canonical

    if as_json:
        sys.stdout.buffer.write(canonical(value))
    else:
        echo_lines(lines(value))
    return 0


def echo_lines(lines: Iterable[str]) -> None:
    for line in lines:
        click.echo(line)


@contextmanager
def progress_bar(label: str) -> Iterator[Callable[[int], Callable[[], None]]]:
    """Progress on stderr when it is a terminal: the context gives a function that, told the
    number of steps, returns what to call after each. A bar is filled when the work succeeds,
    however far the estimate was off; nothing is drawn off a terminal."""
    bars: list[Any] = []

    def start(total: int) -> Callable[[], None]:
        if not sys.stderr.isatty():
            return lambda: None
        bar = click.progressbar(length=total, label=label, file=sys.stderr)
        bars.append(bar.__enter__())
        return lambda: bar.update(1)

    done = False
    try:
        yield start
        done = True
    finally:
        for bar in bars:
            if done:
                bar.update(max(0, bar.length - bar.pos))
            bar.__exit__(None, None, None)


def warn_unknown(path: Path, unknown: Sequence[str]) -> None:
    """Where a document's unknown keys are, never what they are called: a key can be payload."""
    if unknown:
        keys = ", ".join(unknown)
        click.echo(
            f"runsite: {path}: kept but never published, unknown keys (#N: the Nth key of its "
            f"object the schema does not declare, from 0): {keys}",
            err=True,
        )
