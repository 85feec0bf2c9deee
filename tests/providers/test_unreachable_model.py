"""A model that cannot be reached: one line naming the provider, a non-zero exit, and the
thread resumable once the model is back (never the real network: loopback ports only).

The servers here accept exactly one connection — ``grace ask``'s check that the server
listens — and then close, so the run's own model call is refused, as when a server goes
away (or, for Gemini, when the machine has no network: the hosted API is not checked before
a run). Before this change the run retried for minutes, then paused asking the person their
own question back, and the ConnectError showed only in ``grace show``.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path

import httpx
import openai
import pytest

from bench.unreachable import accepts_once
from grace.errors import ModelUnreachableError
from grace.providers.reach import connection_failure, describe_model, unreachable_error
from graph.cli.main import MODEL_UNREACHABLE_EXIT
from tests.cli_runner import run_cli_process
from tests.providers.openai_server import fake_openai

QUESTION = "How many passengers can the MV Sound Spirit carry?"
VERDICT = {"self_evaluation": 0.9, "query_coverage": 0.9, "rationale": "supported by S1"}
ANSWER = "The MV Sound Spirit can carry 600 passengers [S1]."


_grace = run_cli_process


def _one_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    return lines[0]


def _status(tmp_path: Path, thread: str, **env: str) -> str:
    rows = json.loads(_grace(tmp_path, "threads", "--json", **env).stdout)
    return next(str(r["status"]) for r in rows if r["thread_id"] == thread)


def test_gemini_without_a_network_stops_with_one_line_and_the_thread_waits(
    tmp_path: Path,
) -> None:
    with accepts_once() as port:
        env = {"GOOGLE_API_KEY": "test-key", "GRACE_MODELS__BASE_URL": f"http://127.0.0.1:{port}"}
        ran = _grace(tmp_path, "ask", "--json", QUESTION, "--thread-id", "ferry", **env)
    assert ran.returncode == MODEL_UNREACHABLE_EXIT, ran.stderr
    line = _one_line(ran.stderr)
    assert "google_genai model 'gemini-2.5-flash' cannot be reached" in line
    assert "Connection refused" in line and "grace resume ferry" in line
    assert ran.stdout == ""  # no answer, no pause asking the person their own question back
    assert _status(tmp_path, "ferry", **env) == "incomplete"


def test_an_openai_compatible_server_that_went_away_resumes_once_it_is_back(
    tmp_path: Path,
) -> None:
    with accepts_once() as port:
        env = {
            "GRACE_MODELS__CHAT": "openai:local",
            "GRACE_MODELS__BASE_URL": f"http://127.0.0.1:{port}/v1",
        }
        ran = _grace(tmp_path, "ask", QUESTION, "--thread-id", "t1", **env)
    assert ran.returncode == MODEL_UNREACHABLE_EXIT, ran.stderr
    assert "Traceback" not in ran.stderr
    last = ran.stderr.strip().splitlines()[-1]
    assert last.startswith("error: the openai model 'local' cannot be reached")
    assert _status(tmp_path, "t1", **env) == "incomplete"

    replies = {"text": ANSWER, "AnswerVerdict": VERDICT, "PlanDraft": {"steps": []}}
    with fake_openai(replies, port=port) as server:
        resumed = _grace(tmp_path, "resume", "t1", "--json", **env)
    assert resumed.returncode == 0, resumed.stderr
    outcome = json.loads(resumed.stdout)
    assert outcome["status"] in ("completed", "interrupted")
    answer = outcome["answer"] or (outcome["draft"] or {}).get("answer", "")
    assert "600 passengers" in answer
    assert "text" in server.kinds()  # the reader's call reached the server this time


def test_the_failure_is_classified_by_its_cause_not_by_where_it_surfaced() -> None:
    request = httpx.Request("POST", "http://127.0.0.1:9/v1/chat/completions")
    refused = httpx.ConnectError("[Errno 111] Connection refused", request=request)
    wrapped = openai.APIConnectionError(request=request)
    wrapped.__cause__ = refused
    assert connection_failure(wrapped) is refused
    assert connection_failure(socket.gaierror(-2, "Name or service not known")) is not None
    assert connection_failure(ConnectionRefusedError(111, "refused")) is not None
    read_timeout = openai.APITimeoutError(request=request)
    read_timeout.__cause__ = httpx.ReadTimeout("timed out", request=request)
    assert connection_failure(read_timeout) is None  # the server was reached: a slow model
    server_error = openai.InternalServerError(
        "boom", response=httpx.Response(500, request=request), body=None
    )
    assert connection_failure(server_error) is None
    assert connection_failure(ValueError("bad output")) is None


def test_the_error_names_the_provider_and_model_of_any_client() -> None:
    from langchain_google_genai import ChatGoogleGenerativeAI
    from langchain_openai import ChatOpenAI

    gemini = ChatGoogleGenerativeAI(model="gemini-2.5-flash", google_api_key="x")
    assert describe_model(gemini) == ("google_genai", "gemini-2.5-flash")
    local = ChatOpenAI(model="qwen", api_key="x", base_url="http://127.0.0.1:9/v1")
    error = unreachable_error(local, ConnectionRefusedError(111, "Connection refused"))
    assert isinstance(error, ModelUnreachableError)
    assert error.provider == "openai" and error.model == "qwen"
    assert "at http://127.0.0.1:9/v1" in str(error)
    assert unreachable_error(local, ValueError("x")) is None


@pytest.mark.parametrize("retries", [None, 0, 3])
def test_client_retries_are_a_setting(retries: int | None, monkeypatch: pytest.MonkeyPatch) -> None:
    from grace.providers.models import chat_model

    monkeypatch.setenv("GOOGLE_API_KEY", "test-key")
    gemini = chat_model(
        "google_genai:gemini-2.5-flash", temperature=0, timeout=5, max_retries=retries
    )
    url = "http://127.0.0.1:9/v1"
    local = chat_model("openai:qwen", temperature=0, timeout=5, base_url=url, max_retries=retries)
    # Google's SDK counts attempts (1 = no retry); unset: 2 retries, 0 against a named server
    assert gemini.max_retries == (2 if retries is None else retries) + 1
    assert local.max_retries == (0 if retries is None else retries)
