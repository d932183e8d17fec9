"""A stub of two model APIs on 127.0.0.1, speaking each one's wire format: OpenAI's Chat
Completions (``/v1/chat/completions``) and Anthropic's Messages (``/v1/messages``).

What it answers is decided by a word in the last user message, so it answers the same however
the calls interleave: ``[tool]`` asks for a tool, ``[throttle]`` is refused once with a 429,
``[broken]`` always gets a 500, ``[garbled]`` a body that is not JSON, ``[slow]`` no answer
until the stub is stopped, ``[pair]`` an answer only once a second ``[pair]`` call is in flight
at the same time; anything else is a text answer naming Paris. Every refusal carries
``retry-after-ms: 1``, as the real APIs send ``retry-after``, so the SDKs' backoff waits a
millisecond. A request with the judges' system prompt is judged: a rubric scores 0.9 when the
output names Paris and 0.3 otherwise (written as text inside a fence, which a lenient reader
takes), an output with ``[mumble]`` in it gets prose with no JSON, and a claim count is always 1
of 2.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

OPENAI_USAGE = {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150}
OPENAI_CACHED = 20
ANTHROPIC_USAGE = {
    "input_tokens": 100,
    "output_tokens": 30,
    "cache_read_input_tokens": 20,
    "cache_creation_input_tokens": 5,
}
JUDGE_USAGE = {
    "openai": {"prompt_tokens": 50, "completion_tokens": 10},
    "anthropic": {"input_tokens": 50, "output_tokens": 10},
}
TOOL_ARGUMENTS = {"order": 4821}


@dataclass
class Stub:
    url: str
    requests: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    """Every request, in the order received: its path and JSON body."""
    seen: dict[str, int] = field(default_factory=dict)
    released: threading.Event = field(default_factory=threading.Event)
    pair: threading.Barrier = field(default_factory=lambda: threading.Barrier(2, timeout=5))
    lock: threading.Lock = field(default_factory=threading.Lock)

    def asked(self, word: str) -> int:
        """How many requests that were not a judge's carried ``word`` in their user message."""
        return sum(1 for _, body in self.requests if word in _user(body) and not _judging(body))


def _user(body: dict[str, Any]) -> str:
    return str(body["messages"][-1]["content"])


def _system(body: dict[str, Any]) -> str:
    if "system" in body:
        return str(body["system"])
    first = body["messages"][0]
    return str(first["content"]) if first["role"] == "system" else ""


def _judging(body: dict[str, Any]) -> bool:
    return _system(body).startswith(("You grade", "You check"))


def _judged(system: str, user: str) -> str:
    output = user.partition("Output to judge:\n")[2]
    if system.startswith("You check"):
        return '{"supported": 1, "total": 2, "reason": "one of two claims is in the context"}'
    if "[mumble]" in output:
        return "I cannot decide."
    score = "0.9" if "Paris" in output else "0.3"
    return f'Here is my grade:\n```json\n{{"score": "{score}", "reason": "graded {score}"}}\n```'


def _openai(body: dict[str, Any], text: str, tool: bool, judge: bool) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": None if tool else text}
    if tool:
        arguments = json.dumps(TOOL_ARGUMENTS)
        call = {"name": "lookup_order", "arguments": arguments}
        message["tool_calls"] = [{"id": "call_1", "type": "function", "function": call}]
    usage = JUDGE_USAGE["openai"] if judge else OPENAI_USAGE
    details = {} if judge else {"prompt_tokens_details": {"cached_tokens": OPENAI_CACHED}}
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": f"{body['model']}-2026-01-01",
        "choices": [
            {"index": 0, "message": message, "finish_reason": "tool_calls" if tool else "stop"}
        ],
        "usage": usage | details,
    }


def _anthropic(body: dict[str, Any], text: str, tool: bool, judge: bool) -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"type": "text", "text": "Let me look." if tool else text}]
    if tool:
        content.append(
            {"type": "tool_use", "id": "toolu_1", "name": "lookup_order", "input": TOOL_ARGUMENTS}
        )
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": f"{body['model']}-2026-01-01",
        "content": content,
        "stop_reason": "tool_use" if tool else "end_turn",
        "stop_sequence": None,
        "usage": JUDGE_USAGE["anthropic"] if judge else ANTHROPIC_USAGE,
    }


def _handler(stub: Stub) -> type[BaseHTTPRequestHandler]:
    class Api(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            user, system = _user(body), _system(body)
            with stub.lock:
                stub.requests.append((self.path, body))
                stub.seen[user] = stub.seen.get(user, 0) + 1
                attempt = stub.seen[user]
            if "[broken]" in user or ("[throttle]" in user and attempt == 1):
                status = 500 if "[broken]" in user else 429
                return self._send(status, {"error": {"message": f"stub says {status}"}})
            if "[garbled]" in user:
                return self._send(200, b'{"choices": [')
            if "[slow]" in user:
                stub.released.wait(10)
            if "[pair]" in user:
                stub.pair.wait()
            judge = _judging(body)
            text = _judged(system, user) if judge else f"Paris, as asked: {user}"
            tool = "[tool]" in user and not judge
            reply = _anthropic if self.path.endswith("/messages") else _openai
            self._send(200, reply(body, text, tool, judge))

        def _send(self, status: int, payload: Any) -> None:
            data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            if status != 200:
                self.send_header("retry-after-ms", "1")
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    return Api


@contextmanager
def serving() -> Iterator[Stub]:
    """The stub, listening on a port of its own until the block ends."""
    stub = Stub("")
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(stub))
    stub.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    try:
        yield stub
    finally:
        stub.released.set()
        stub.pair.abort()
        server.shutdown()
        server.server_close()
