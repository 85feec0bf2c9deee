"""A loopback OpenAI-compatible server for tests: scripted ``/v1/chat/completions`` replies.

It answers like llama.cpp / vLLM / LM Studio would: a request with ``response_format``
(``json_schema``) gets the JSON object for that schema in the message content, a request
with ``tools`` gets a tool call, anything else a text reply. Every request body is kept.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Replies = dict[str, Any]
"""Schema name → the object to return for it; ``text`` → the plain reply."""


@dataclass
class FakeOpenAI:
    """The running server: its base URL and the requests it served."""

    base_url: str
    requests: list[dict[str, Any]] = field(default_factory=list)
    refuse_json_schema: bool = False
    """Answer a ``json_schema`` response format with HTTP 500, as llama.cpp's server does."""
    refused: list[dict[str, Any]] = field(default_factory=list)
    """The requests refused for their response format."""

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


def _completion(body: dict[str, Any], replies: Replies) -> dict[str, Any]:
    kind = _kind(body)
    message: dict[str, Any] = {"role": "assistant", "content": None}
    if kind == "text":
        message["content"] = replies["text"]
    elif body.get("tools") and not body.get("response_format"):  # a tool call
        call = {"name": kind, "arguments": json.dumps(replies[kind])}
        message["tool_calls"] = [{"id": "call_1", "type": "function", "function": call}]
    else:
        message["content"] = json.dumps(replies[kind])
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": body.get("model", "local"),
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60},
    }


def _handler(server: FakeOpenAI, replies: Replies) -> Callable[..., BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's naming
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            fmt = body.get("response_format", {}).get("type")
            if server.refuse_json_schema and fmt == "json_schema":
                server.refused.append(body)
                message = "response_format: Input should be 'text' or 'json_object'"
                self._send(500, {"error": {"message": message, "type": "server_error"}})
                return
            server.requests.append(body)
            self._send(200, _completion(body, replies))

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
    replies: Replies, *, refuse_json_schema: bool = False, port: int = 0
) -> Iterator[FakeOpenAI]:
    """Serve ``replies`` on 127.0.0.1 (``port``, default a free one) for the ``with`` block."""
    httpd = ThreadingHTTPServer(("127.0.0.1", port), BaseHTTPRequestHandler)
    state = FakeOpenAI(
        base_url=f"http://127.0.0.1:{httpd.server_address[1]}/v1",
        refuse_json_schema=refuse_json_schema,
    )
    httpd.RequestHandlerClass = _handler(state, replies)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()
