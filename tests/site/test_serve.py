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


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_serve_answers_on_127_0_0_1_with_the_built_site(built: Path):
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "generator", "serve", "--root", str(built), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=os.environ.copy(),
    )
    try:
        page = b""
        for _ in range(300):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/it/", timeout=2) as answer:
                    page = answer.read()
                break
            except OSError:
                time.sleep(0.1)
        assert b'<html lang="it"' in page
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
    assert server.returncode == 0
