"""A loopback OpenAI-compatible server for tests: scripted ``/v1/chat/completions`` replies.

It answers like llama.cpp / vLLM / LM Studio would: a request with ``response_format``
(``json_schema``) gets the JSON object for that schema in the message content, a request
with ``tools`` gets a tool call, anything else a text reply. Every request body is kept.

Like llama.cpp's server it reads ``max_tokens`` (not ``max_completion_tokens``): a reply is
cut at ``max_tokens`` tokens (``finish_reason: length``). With ``runaway=True`` the text
reply does not end by itself — a tiny model that keeps generating — so a request without
``max_tokens`` streams until the client closes the connection (or a bound of the test
server: :data:`RUNAWAY_TOKENS` tokens, :data:`RUNAWAY_SECONDS` seconds), and a
non-streamed one returns :data:`RUNAWAY_TOKENS` tokens. Streams (``stream: true``) are sent
as server-sent events, one token a chunk; a client that closes one is recorded.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Replies = dict[str, Any]
"""Schema name → the object (or raw text) to return for it; ``text`` → the plain reply."""

RUNAWAY_TOKENS = 5000
"""Most tokens a runaway reply sends (the test server stays bounded)."""
RUNAWAY_SECONDS = 10.0
"""Most seconds a runaway stream runs."""
_TOKEN_DELAY = 0.001
"""Seconds between streamed tokens (lets a closed connection be seen within a few tokens)."""


@dataclass
class FakeOpenAI:
    """The running server: its base URL and the requests it served."""

    base_url: str
    requests: list[dict[str, Any]] = field(default_factory=list)
    refuse_json_schema: bool = False
    """Answer a ``json_schema`` response format with HTTP 500, as llama.cpp's server does."""
    refused: list[dict[str, Any]] = field(default_factory=list)
    """The requests refused for their response format."""
    runaway: bool = False
    """The text reply never ends by itself: only ``max_tokens`` or a closed stream stop it."""
    honour_max_tokens: bool = True
    """False: ``max_tokens`` is ignored too (only a closed stream stops a runaway reply)."""
    token_delay: float = _TOKEN_DELAY
    """Seconds between streamed tokens (raise it for a slow server: ~12 tokens/s on 2 cores)."""
    streams_closed: list[int] = field(default_factory=list)
    """Per stream the client closed before its end: the tokens sent until then."""
    streams_done: list[int] = field(default_factory=list)
    """Per stream sent to its end: the tokens sent."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def kinds(self) -> list[str]:
        """Each request's kind: the schema name it asked for, or ``text``."""
        return [_kind(body) for body in self.requests]


def _kind(body: dict[str, Any]) -> str:
    if body.get("response_format", {}).get("type") == "json_schema":
        return str(body["response_format"]["json_schema"]["name"])
    if body.get("response_format", {}).get("type") == "json_object":
        asked = str(body["messages"][-1].get("content", ""))
        titles = re.findall(r'"title":\s*"(\w+)"', asked)  # the schema's own title is last
        return titles[-1] if titles else "text"
    if body.get("tools"):
        return str(body["tools"][0]["function"]["name"])
    return "text"


def _tokens(text: str) -> list[str]:
    """``text`` as tokens: each word with the space before it."""
    return re.findall(r"\s*\S+", text) or [text]


def _reply_text(body: dict[str, Any], replies: Replies, server: FakeOpenAI) -> Iterator[str]:
    """The tokens of the reply, lazily: a runaway text reply goes on until stopped."""
    kind = _kind(body)
    if kind != "text":
        reply = replies[kind]
        yield from _tokens(reply if isinstance(reply, str) else json.dumps(reply))
        return
    yield from _tokens(replies["text"])
    if server.runaway:
        for n in range(RUNAWAY_TOKENS):
            yield f" and{n}"


def _budgeted(
    body: dict[str, Any], tokens: Iterator[str], server: FakeOpenAI
) -> Iterator[tuple[str, bool]]:
    """``(token, last)`` pairs, stopping at ``max_tokens`` (llama.cpp ignores the rest)."""
    budget = body.get("max_tokens") if server.honour_max_tokens else None
    for n, token in enumerate(tokens, start=1):
        yield token, budget is not None and n >= budget
        if budget is not None and n >= budget:
            return


def _message(body: dict[str, Any], text: str) -> dict[str, Any]:
    kind = _kind(body)
    if body.get("tools") and not body.get("response_format") and kind != "text":
        call = {"name": kind, "arguments": text}
        return {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "call_1", "type": "function", "function": call}],
        }
    return {"role": "assistant", "content": text}


def _completion(body: dict[str, Any], replies: Replies, server: FakeOpenAI) -> dict[str, Any]:
    pieces, finish = [], "stop"
    for token, last in _budgeted(body, _reply_text(body, replies, server), server):
        pieces.append(token)
        finish = "length" if last else "stop"
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": body.get("model", "local"),
        "choices": [
            {"index": 0, "message": _message(body, "".join(pieces)), "finish_reason": finish}
        ],
        "usage": {"prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60},
    }


def _chunk(body: dict[str, Any], delta: dict[str, Any], finish: str | None) -> bytes:
    data = {
        "id": "chatcmpl-test",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": body.get("model", "local"),
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return f"data: {json.dumps(data)}\n\n".encode()


def _usage_chunk(body: dict[str, Any], sent: int) -> bytes:
    usage = {"prompt_tokens": 50, "completion_tokens": sent, "total_tokens": 50 + sent}
    data = {
        "id": "chatcmpl-test",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": body.get("model", "local"),
        "choices": [],
        "usage": usage,
    }
    return f"data: {json.dumps(data)}\n\n".encode()


def _handler(server: FakeOpenAI, replies: Replies) -> Callable[..., BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's naming
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            fmt = body.get("response_format", {}).get("type")
            if server.refuse_json_schema and fmt == "json_schema":
                with server.lock:
                    server.refused.append(body)
                message = "response_format: Input should be 'text' or 'json_object'"
                self._send(500, {"error": {"message": message, "type": "server_error"}})
                return
            with server.lock:
                server.requests.append(body)
            if body.get("stream"):
                self._stream(body)
            else:
                self._send(200, _completion(body, replies, server))

        def _stream(self, body: dict[str, Any]) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()  # HTTP/1.0: the body ends when the connection does
            sent, finish, started = 0, "stop", time.monotonic()
            try:
                self.wfile.write(_chunk(body, {"role": "assistant", "content": ""}, None))
                for token, last in _budgeted(body, _reply_text(body, replies, server), server):
                    if time.monotonic() - started > RUNAWAY_SECONDS:
                        break
                    self.wfile.write(_chunk(body, {"content": token}, None))
                    self.wfile.flush()
                    sent += 1
                    finish = "length" if last else "stop"
                    time.sleep(server.token_delay)
                self.wfile.write(_chunk(body, {}, finish))
                if body.get("stream_options", {}).get("include_usage"):
                    self.wfile.write(_usage_chunk(body, sent))
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                with server.lock:
                    server.streams_closed.append(sent)
                return
            with server.lock:
                server.streams_done.append(sent)

        def _send(self, status: int, data: dict[str, Any]) -> None:
            payload = json.dumps(data).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: Any) -> None:  # quiet
            return

    return Handler


@contextmanager
def fake_openai(
    replies: Replies,
    *,
    refuse_json_schema: bool = False,
    runaway: bool = False,
    honour_max_tokens: bool = True,
    token_delay: float = _TOKEN_DELAY,
    port: int = 0,
) -> Iterator[FakeOpenAI]:
    """Serve ``replies`` on 127.0.0.1 (``port``, default a free one) for the ``with`` block."""
    httpd = ThreadingHTTPServer(("127.0.0.1", port), BaseHTTPRequestHandler)
    httpd.daemon_threads = True
    state = FakeOpenAI(
        base_url=f"http://127.0.0.1:{httpd.server_address[1]}/v1",
        refuse_json_schema=refuse_json_schema,
        runaway=runaway,
        honour_max_tokens=honour_max_tokens,
        token_delay=token_delay,
    )
    httpd.RequestHandlerClass = _handler(state, replies)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()
