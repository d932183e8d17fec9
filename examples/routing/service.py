"""A support-ticket router served over HTTP, the way a team deploys one: the same service, run
with one model or another, that says in each answer which model it ran.

The three "models" are rule sets of growing vocabulary, standing in for a small, a middle and a
large LLM, each with its own price per token and its own speed; what each answers is fixed, so
the runs of this example are the same on every machine.

    python service.py router-mini            # serves on 127.0.0.1:18770 until stopped
"""

from __future__ import annotations

import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PORT = 18770

ROUTES = ("BILLING", "SHIPPING", "ACCOUNT", "TECHNICAL")

# The words each model has learned to read as a sign of each route, the larger models more.
WORDS = {
    "router-mini": {
        "BILLING": ("invoice", "charged", "refund"),
        "SHIPPING": ("parcel", "delivery"),
        "ACCOUNT": ("password", "login"),
        "TECHNICAL": ("error", "crash"),
    },
    "router-base": {
        "BILLING": ("invoice", "charged", "refund", "payment", "vat"),
        "SHIPPING": ("parcel", "delivery", "courier", "tracking"),
        "ACCOUNT": ("password", "login", "email address", "delete my account"),
        "TECHNICAL": ("error", "crash", "freezes", "sync"),
    },
    "router-large": {
        "BILLING": ("invoice", "charged", "refund", "payment", "vat", "subscription", "receipt"),
        "SHIPPING": ("parcel", "delivery", "courier", "tracking", "arrived", "address label"),
        "ACCOUNT": ("password", "login", "email address", "delete my account", "two-factor", "locked out"),
        "TECHNICAL": ("error", "crash", "freezes", "sync", "blank screen", "update"),
    },
}

# Dollars per million tokens in and out, and milliseconds per call and per token read.
PRICES = {"router-mini": (0.15, 0.6), "router-base": (1.1, 4.4), "router-large": (3.0, 15.0)}
SPEED = {"router-mini": (120, 1.0), "router-base": (260, 2.0), "router-large": (540, 4.0)}


def route(model: str, ticket: str) -> str:
    """The route ``model`` gives ``ticket``: the one whose words it finds most, the first on a
    tie; a ticket it finds no word in goes to TECHNICAL, the queue that reads everything."""
    text = ticket.lower()
    found = {r: sum(text.count(w) for w in WORDS[model][r]) for r in ROUTES}
    best = max(ROUTES, key=lambda r: found[r])
    answer = best if found[best] else "TECHNICAL"
    # The small model, given a long ticket, says more than the route.
    return f"Route: {answer}" if model == "router-mini" and len(text) > 120 else answer


def answer(model: str, ticket: str) -> dict[str, Any]:
    """The service's reply to one ticket: the route, what the call cost, and the model."""
    tokens_in, tokens_out = 40 + len(ticket.split()) * 2, 3
    price_in, price_out = PRICES[model]
    fixed, per_token = SPEED[model]
    return {
        "route": route(model, ticket),
        "usage": {
            "cost_usd": round((tokens_in * price_in + tokens_out * price_out) / 1e6, 9),
            "elapsed_ms": fixed + per_token * tokens_in,
            "input_tokens": tokens_in,
            "output_tokens": tokens_out,
        },
        "config": {"provider": "acme-llm", "model": model, "temperature": 0.0},
    }


def server(model: str, port: int = PORT) -> ThreadingHTTPServer:
    """The service for ``model`` on 127.0.0.1:``port``, not yet serving."""
    if model not in WORDS:
        raise SystemExit(f"no model named {model!r}; the service runs {', '.join(WORDS)}")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            asked = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            body = json.dumps(answer(model, str(asked["ticket"]))).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_: object) -> None:
            pass

    return ThreadingHTTPServer(("127.0.0.1", port), Handler)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(f"usage: python service.py {{{'|'.join(WORDS)}}}")
    service = server(sys.argv[1])
    print(f"{sys.argv[1]} on http://127.0.0.1:{PORT}/route", flush=True)
    service.serve_forever()
