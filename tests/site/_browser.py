"""Driving Debian's chromium for the site's browser tests: a page visit that records errors,
dialogs, failed requests and requests leaving 127.0.0.1, and the pages the tests visit."""

from __future__ import annotations

import http.server
from pathlib import Path
from urllib.parse import urlparse

from playwright.sync_api import Browser, ConsoleMessage, Dialog, Page, Request, Route

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parents[1] / "screenshots"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


class Hosted(Quiet):
    """A host as GitHub Pages is: an address with no file answers 404 with the site's top
    ``404.html``."""

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        missing = Path(self.directory) / "404.html"
        if code != 404 or not missing.is_file():
            super().send_error(code, message, explain)
            return
        body = missing.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


class Visit:
    """A page opened in a fresh context that records errors, dialogs and outside requests."""

    def __init__(
        self, browser: Browser, url: str, width: int = 1280, scheme: str = "light"
    ) -> None:
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.outside: list[str] = []
        self.context = browser.new_context(
            viewport={"width": width, "height": 900},
            color_scheme="dark" if scheme == "dark" else "light",
        )
        self.context.route("**/*", self._route)
        self.page: Page = self.context.new_page()
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", self._console)
        self.page.on("dialog", self._dialog)
        self.page.on("requestfailed", self._failed)
        self.page.goto(url, wait_until="load")

    def _route(self, route: Route) -> None:
        url = route.request.url
        where = urlparse(url)
        if where.scheme != "file" and where.hostname != "127.0.0.1":
            self.outside.append(url)
            route.abort()
        else:
            route.continue_()

    def _failed(self, request: Request) -> None:
        # A request the page's own navigation cut short (the reader clicked on) is no failure.
        if request.failure != "net::ERR_ABORTED":
            self.errors.append(f"failed: {request.url} ({request.failure})")

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(f"{message.text} ({message.location.get('url', '')})")

    def _dialog(self, dialog: Dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def charts_drawn(self) -> tuple[int, int]:
        expected = self.page.locator(".runsite-chart").count()
        if expected:
            self.page.wait_for_function(
                "n => document.querySelectorAll('.runsite-chart svg.main-svg').length >= n",
                arg=expected,
            )
        drawn = self.page.locator(".runsite-chart").evaluate_all(
            "charts => charts.filter(c => c.querySelector('svg.main-svg')).length"
        )
        return expected, drawn

    def close(self) -> None:
        self.context.close()


def first(built: Path, folder: str) -> str:
    return next(p for p in sorted((built / "site" / folder).glob("*/index.html"))).parent.name


def pages(built: Path) -> dict[str, str]:
    agent = first(built, "runs/acme/refund-agent")
    support_runs = sorted(
        p.parent.name for p in (built / "site/runs/acme/support").glob("*/index.html")
    )
    diff_folder = built / "site/diffs/acme/support" / support_runs[-1]
    other = next(p.parent.name for p in diff_folder.glob("*/index.html"))
    return {
        "home": "/",
        "suite": "/suites/acme/support/",
        "run": f"/runs/acme/refund-agent/{agent}/",
        "run-it": f"/it/runs/acme/refund-agent/{agent}/",
        "diff": f"/diffs/acme/support/{support_runs[-1]}/{other}/",
        "sampled": f"/runs/acme/support/{support_runs[-1]}/",
        "case": "/cases/acme/refund-agent/#case-hasty-refund",
    }
