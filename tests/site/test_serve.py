"""``runsite serve`` builds the site and serves it on 127.0.0.1 until it is stopped."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests._helpers import a_run

pytestmark = pytest.mark.slow
"""Each test drives a browser or builds whole sites: ``make test-fast`` leaves them out."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _page(port: int, path: str) -> bytes:
    """The page at ``path``, once the server answers (it builds the site first)."""
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2) as answer:
                return bytes(answer.read())
        except OSError:
            time.sleep(0.1)
    return b""


def test_serve_answers_on_127_0_0_1_with_the_built_site(built: Path):
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "generator", "serve", "--root", str(built), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=os.environ.copy(),
        # Ctrl-C as a terminal sends it, even when the tests run in the background, where the
        # shell started them with SIGINT ignored, and Python leaves an ignored SIGINT ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert b'<html lang="it"' in _page(port, "/it/")
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
    assert server.returncode == 0
    said = server.stderr.read().decode() if server.stderr else ""
    assert "Traceback" not in said and "KeyboardInterrupt" not in said, said


def test_a_taken_port_is_refused_in_one_line_before_anything_is_built(runsite, archive):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runsite("serve", "--root", str(archive), "--port", str(port))
    assert result.exit_code == 64
    assert result.stderr == (
        f"runsite: --port {port}: cannot serve on 127.0.0.1:{port} (Address already in use)\n"
    )


@pytest.mark.parametrize("port", ["70000", "-1", "http"])
def test_an_invalid_port_is_refused_in_one_line(runsite, archive, port):
    result = runsite("serve", "--root", str(archive), "--port", port)
    assert result.exit_code == 64
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.startswith("runsite: Invalid value for '--port'")


def test_sigterm_stops_serve_and_removes_its_temporary_folder(
    runsite, archive, write_json, tmp_path
):
    assert runsite("import", "--root", str(archive), str(write_json(a_run()))).exit_code == 0
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "generator", "serve", "--root", str(archive), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "TMPDIR": str(scratch)},
    )
    try:
        assert b'<html lang="en"' in _page(port, "/")
        assert len(list(scratch.iterdir())) == 1
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    assert server.returncode == 0, server.stderr.read() if server.stderr else ""
    assert list(scratch.iterdir()) == []
