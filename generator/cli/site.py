"""Commands that publish: build the site, serve it for a preview."""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.cli import _open, _progress_bar, _root_option, cli

if TYPE_CHECKING:
    pass


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
@_root_option
def build(out: Path | None, full: bool, jobs: int | None, root: Path | None) -> int:
    """Build the bilingual static site of the archive's committed runs, from redacted runs only.

    Only the pages whose inputs moved since the last build into the same folder are written;
    the built site is searched for every payload string of the runs it was built from, and one
    found fails the build, leaving the previous site in place.

    Example: runsite build --out public/
    """
    from generator.publish import publish

    archive = _open(root)
    target = (out or archive.layout.root / "site").resolve()
    with _progress_bar("building") as progress:
        published = publish(archive, target, progress, full=full, jobs=jobs)
    click.echo(
        f"{published.runs} runs, {published.pages} pages ({published.written} written): "
        f"{published.out}/index.html"
    )
    released = {k: v for k, v in published.disclosure.items() if v}
    click.echo(f"released by runsite.toml's disclosure: {released or 'nothing'}", err=True)
    return 0


@cli.command()
@click.option("--port", default=8000, show_default=True, help="The port on 127.0.0.1.")
@_root_option
def serve(port: int, root: Path | None) -> int:
    """Build the site and serve it on 127.0.0.1 for a preview, until interrupted.

    Example: runsite serve --port 8080
    """
    import functools
    import http.server
    import tempfile

    from generator.publish import publish

    archive = _open(root)
    with tempfile.TemporaryDirectory(prefix="runsite-serve-") as folder:
        with _progress_bar("building") as progress:
            published = publish(archive, Path(folder) / "site", progress)
        handler = functools.partial(
            http.server.SimpleHTTPRequestHandler, directory=str(published.out)
        )
        with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
            click.echo(
                f"serving {published.pages} pages on http://127.0.0.1:{port}/ (Ctrl-C stops)",
                err=True,
            )
            with suppress(KeyboardInterrupt):
                server.serve_forever()
    return 0
