"""Writing small suites into a test's folder: a suite.toml, its cases and its code."""

from __future__ import annotations

import json
import textwrap
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

BASE = """
[suite]
tenant = "acme"
environment = "ci"
name = "probe"
cases = "cases.json"
{suite_extra}

[target]
{target}

{assertions}
"""

FUNCTION_TARGET = 'type = "function"\nfunction = "app:answer"'
CONTAINS = '[[assertions]]\ntype = "contains"\nneedle = "ok"'


def write_suite(
    folder: Path,
    *,
    assertions: str = CONTAINS,
    cases: Any = None,
    app: str = "def answer(case):\n    return 'ok ' + case['id']\n",
    target: str = FUNCTION_TARGET,
    suite_extra: str = "",
    files: dict[str, str] | None = None,
) -> Path:
    """A suite in ``folder``; returns the path of its suite.toml."""
    folder.mkdir(parents=True, exist_ok=True)
    toml = BASE.format(suite_extra=suite_extra, target=target, assertions=assertions)
    (folder / "suite.toml").write_text(textwrap.dedent(toml), encoding="utf-8")
    cases = cases if cases is not None else [{"id": "a"}, {"id": "b"}]
    (folder / "cases.json").write_text(json.dumps(cases), encoding="utf-8")
    (folder / "app.py").write_text(textwrap.dedent(app), encoding="utf-8")
    for name, text in (files or {}).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return folder / "suite.toml"


def answer_json(handler: BaseHTTPRequestHandler, value: Any) -> None:
    """Answer the request ``handler`` holds with ``value`` as JSON, status 200."""
    payload = json.dumps(value).encode()
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(payload)))
    handler.end_headers()
    handler.wfile.write(payload)


@contextmanager
def serving(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """An application answering through ``handler`` on 127.0.0.1, at the URL given."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
