"""Commands that publish: build the site, publish it to a branch, serve it for a preview."""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext, suppress
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

import click

from generator.cli.group import cli, importing, open_archive, progress_bar, root_option
from generator.errors import Refused

if TYPE_CHECKING:
    from generator.archive import Archive
    from generator.publish import Published


@cli.command()
@click.option(
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    help="Where the site goes (default: site/ in the archive).",
)
@click.option("--full", is_flag=True, help="Write every page, not only those whose inputs moved.")
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    help="Processes to build with (default: one per core).",
)
@click.option(
    "--for-files",
    is_flag=True,
    help="A site to open from disk: links name index.html; no search (browsers forbid it there).",
)
@root_option
def build(
    out: Path | None, full: bool, jobs: int | None, for_files: bool, root: Path | None
) -> int:
    """Build the bilingual static site of the archive's committed runs, from redacted runs only.

    Only the pages whose inputs moved since the last build into the same folder are written;
    the built site is searched for every payload string of the runs it was built from, and one
    found fails the build, leaving the previous site in place.

    Example: runsite build --out public/
    """
    _built(lambda: open_archive(root), out, full, jobs, for_files)
    return 0


@cli.command("publish")
@click.option(
    "--branch",
    default="gh-pages",
    show_default=True,
    help="The branch the site is committed to.",
)
@click.option(
    "--remote",
    help="Push the site to this remote's branch (else commit it in the archive's repository).",
)
@click.option("--cname", metavar="DOMAIN", help="The site's own domain, written to CNAME.")
@click.option(
    "--url",
    help="Where the site is served: recorded as mkdocs.yml's site_url, which reports link to.",
)
@click.option("--dry-run", is_flag=True, help="Build, and say what would change; publish nothing.")
@root_option
def publish_(
    branch: str,
    remote: str | None,
    cname: str | None,
    url: str | None,
    dry_run: bool,
    root: Path | None,
) -> int:
    """Build the site into site/ and commit it to a branch, one commit when it changed.

    Only the files the build wrote and its leak scan passed are published, with .nojekyll
    (and CNAME); a build that is refused publishes nothing.

    Example: runsite publish --remote origin --url https://acme.github.io/evals/
    """
    from generator.deploy import Pages, address, domain, record_address, site_files

    named = domain(cname) if cname is not None else None
    if url is not None:
        address(url)
    archive = open_archive(root)
    pages = Pages(archive.store, branch, remote, dry_run)
    if url is not None and not dry_run and record_address(archive, url):
        click.echo(f"runsite: mkdocs.yml: site_url {url} recorded and committed", err=True)
    published = _built(lambda: archive, None, False, None, False)
    head = archive.store.head() or ""
    message = f"Publish the site of {archive.config.site.name} at {head[:12]}\n"
    done = pages.publish(site_files(published.out, named), message)
    if done.commit is not None:
        click.echo(f"{done.where}: {done.difference} ({done.commit[:12]})")
    elif dry_run and done.difference:
        click.echo(f"{done.where}: would have {done.difference}; nothing was published")
    else:
        click.echo(f"{done.where}: the site has not changed; nothing was committed")
    return 0


def _built(
    opened: Callable[[], Archive], out: Path | None, full: bool, jobs: int | None, for_files: bool
) -> Published:
    """Build the archive ``opened`` gives into ``out`` (site/ in the archive), saying what was
    made; the archive is opened once the check of the kept pages has started."""
    with importing():
        from generator.guard.kept_check import KeptCheck
    # Started first, so that its imports run while the build's do (``guard.kept_check``).
    with KeptCheck() if not full else nullcontext() as check:
        with importing():
            from generator.publish import publish

        archive = opened()
        target = (out or archive.layout.root / "site").resolve()
        drift = archive.drift()
        if drift:
            click.echo(f"runsite: {drift}", err=True)
        with progress_bar("building") as progress:
            published = publish(archive, target, progress, full, jobs, for_files, check)
    others = published.pages - published.written - published.kept
    click.echo(
        f"{published.runs} run{'' if published.runs == 1 else 's'}, {published.pages} pages "
        f"({published.written} written, {published.kept} kept from the last build, "
        f"{others} home and suite pages): {published.out}/index.html"
    )
    released = {k: v for k, v in published.disclosure.items() if v}
    click.echo(f"released by runsite.toml's disclosure: {released or 'nothing'}", err=True)
    if published.uncached:
        click.echo(
            f"runsite: {published.uncached}, so nothing is kept for the next build, "
            "which will read every run again",
            err=True,
        )
    return published


@cli.command()
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="The port on 127.0.0.1 (0: any free one).",
)
@root_option
def serve(port: int, root: Path | None) -> int:
    """Build the site and serve it on 127.0.0.1 for a preview, until interrupted.

    The port is taken before the build; Ctrl-C or SIGTERM stops it and removes what it built.

    Example: runsite serve --port 8080
    """
    import functools
    import http.server
    import tempfile

    with importing():
        from generator.publish import publish

    archive = open_archive(root)
    with (
        _stopped_by_sigterm(),
        suppress(KeyboardInterrupt),
        tempfile.TemporaryDirectory(prefix="runsite-serve-") as folder,
    ):
        site = Path(folder) / "site"
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))

        class Preview(http.server.ThreadingHTTPServer):
            """A reader who leaves mid-page (a browser moving on, a client's timeout) closes
            the connection: no fault of the site's, and no traceback on the terminal."""

            def handle_error(self, request: Any, client_address: Any) -> None:
                if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
                    super().handle_error(request, client_address)

        try:
            server = Preview(("127.0.0.1", port), handler)
        except OSError as error:
            raise Refused(
                f"--port {port}: cannot serve on 127.0.0.1:{port} ({error.strerror or error})"
            ) from None
        with server:
            with progress_bar("building") as progress:
                published = publish(archive, site, progress)
            click.echo(
                f"serving {published.pages} pages on "
                f"http://127.0.0.1:{server.server_port}/ (Ctrl-C stops)",
                err=True,
            )
            server.serve_forever()
    return 0


@contextmanager
def _stopped_by_sigterm() -> Iterator[None]:
    """SIGTERM stops the command as Ctrl-C does, so what it made is cleaned up on the way out."""

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
